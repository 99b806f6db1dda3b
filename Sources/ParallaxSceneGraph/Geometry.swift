import Foundation
import ParallaxMath

/// Something drawable: a triangle mesh plus the materials its elements use (SceneKit's
/// `SCNGeometry`). Every primitive kind is turned into a ``Mesh`` when created; `kind` keeps
/// the parameters for inspection, scene export and analytic hit tests.
public struct Geometry: Sendable {
    /// The primitive the mesh was generated from (SceneKit's geometry subclasses).
    public enum Kind: Equatable, Sendable {
        /// Box centred at the origin; edges rounded with `chamferRadius`.
        case box(width: Float, height: Float, length: Float, chamferRadius: Float)
        /// UV sphere centred at the origin.
        case sphere(radius: Float)
        /// Rectangle in the XY plane facing +z.
        case plane(width: Float, height: Float)
        /// Cylinder along y, centred at the origin.
        case cylinder(radius: Float, height: Float)
        /// Truncated cone along y, centred at the origin.
        case cone(topRadius: Float, bottomRadius: Float, height: Float)
        /// Torus around the y axis.
        case torus(ringRadius: Float, pipeRadius: Float)
        /// Cylinder with hemispherical caps along y; `height` is the total height.
        case capsule(capRadius: Float, height: Float)
        /// Square-based pyramid: base at y = 0, apex at y = height.
        case pyramid(width: Float, height: Float, length: Float)
        /// The infinite y = 0 plane facing +y.
        case floor
        /// User- or file-supplied triangles.
        case custom
    }

    /// What the mesh was generated from.
    public var kind: Kind
    /// The triangles.
    public var mesh: Mesh
    /// Materials; element `i` uses `materials[element.materialIndex % materials.count]`.
    public var materials: [Material]
    /// True for ``Kind/floor``: the backend should draw the plane to the horizon (the mesh is
    /// only a large finite stand-in) and hit tests treat it as unbounded.
    public var isInfinite: Bool { kind == .floor }
    /// Optional name.
    public var name: String?

    /// Wraps a mesh.
    public init(kind: Kind = .custom, mesh: Mesh, materials: [Material] = [Material()]) {
        self.kind = kind; self.mesh = mesh; self.materials = materials.isEmpty ? [Material()] : materials
    }

    /// A custom geometry from vertex arrays and elements (SceneKit's `SCNGeometry(sources:elements:)`).
    public init(positions: [Vector3f], normals: [Vector3f]? = nil, texcoords: [Vector2f]? = nil, colors: [Vector4f]? = nil,
                elements: [MeshElement], materials: [Material] = [Material()]) throws {
        let mesh = try Mesh(positions: positions, normals: normals, texcoords: texcoords, colors: colors, elements: elements)
        self.init(kind: .custom, mesh: mesh, materials: materials)
    }

    /// The first material (SceneKit's `firstMaterial`).
    public var firstMaterial: Material? {
        get { materials.first }
        set { if let m = newValue { if materials.isEmpty { materials = [m] } else { materials[0] = m } } }
    }

    /// The material used by element `i`.
    public func material(forElement i: Int) -> Material {
        let idx = mesh.elements[i].materialIndex
        return materials[((idx % materials.count) + materials.count) % materials.count]
    }

    /// The local bounding box.
    public var boundingBox: BoundingBox { mesh.boundingBox }
}

/// Limits on generator parameters: they keep meshes renderable and reject absurd input.
public enum GeometryLimits {
    /// Most segments along any one direction.
    public static let maxSegments = 1024
    /// Largest dimension in metres for a primitive.
    public static let maxSize: Float = 1e5
}

/// Accumulates vertices and triangles for the generators.
struct MeshBuilder {
    var positions: [Vector3f] = [], normals: [Vector3f] = [], texcoords: [Vector2f] = []
    var indices: [UInt32] = []

    mutating func vertex(_ p: Vector3f, _ n: Vector3f, _ uv: Vector2f) -> UInt32 {
        positions.append(p); normals.append(n); texcoords.append(uv)
        return UInt32(positions.count - 1)
    }

    /// Adds triangle (a, b, c), reordering it so it winds counter-clockwise seen from the side
    /// its vertex normals point to. Degenerate triangles (poles, apexes) are dropped.
    mutating func triangle(_ a: UInt32, _ b: UInt32, _ c: UInt32) {
        let pa = positions[Int(a)], pb = positions[Int(b)], pc = positions[Int(c)]
        let g = (pb - pa).cross(pc - pa)
        guard g.squaredNorm > 1e-14 else { return }
        let n = normals[Int(a)] + normals[Int(b)] + normals[Int(c)]
        if g.dot(n) >= 0 { indices += [a, b, c] } else { indices += [a, c, b] }
    }

    /// A grid of (su + 1) × (sv + 1) vertices from `f(u, v) -> (position, normal)`, u, v in 0…1.
    mutating func grid(_ su: Int, _ sv: Int, _ f: (Float, Float) -> (Vector3f, Vector3f)) {
        let base = UInt32(positions.count)
        for j in 0...sv {
            for i in 0...su {
                let u = Float(i) / Float(su), v = Float(j) / Float(sv)
                let (p, n) = f(u, v)
                _ = vertex(p, n, Vector2f(u, v))
            }
        }
        let row = UInt32(su + 1)
        for j in 0..<UInt32(sv) {
            for i in 0..<UInt32(su) {
                let a = base + j * row + i, b = a + 1, c = a + row + 1, d = a + row
                triangle(a, b, c); triangle(a, c, d)
            }
        }
    }

    /// A flat disc (fan) at height y with normal ±y.
    mutating func disc(radius: Float, y: Float, up: Bool, segments: Int) {
        let n = Vector3f(0, up ? 1 : -1, 0)
        let center = vertex(Vector3f(0, y, 0), n, Vector2f(0.5, 0.5))
        let first = UInt32(positions.count)
        for i in 0...segments {
            let a = Float(i) / Float(segments) * 2 * .pi
            _ = vertex(Vector3f(radius * cos(a), y, radius * sin(a)), n, Vector2f(0.5 + 0.5 * cos(a), 0.5 + 0.5 * sin(a)))
        }
        for i in 0..<UInt32(segments) { triangle(center, first + i, first + i + 1) }
    }

    func mesh() -> Mesh {
        Mesh(unchecked: positions, normals: normals, texcoords: texcoords, elements: [MeshElement(indices: indices)])
    }
}

/// Clamps a segment count into 1…``GeometryLimits/maxSegments``.
func clampSegments(_ s: Int, minimum: Int = 1) -> Int { min(max(s, minimum), GeometryLimits.maxSegments) }

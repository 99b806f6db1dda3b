import Foundation
import ParallaxMath

/// An axis-aligned bounding box.
public struct BoundingBox: Equatable, Sendable {
    /// Minimum corner.
    public var min: Vector3f
    /// Maximum corner.
    public var max: Vector3f

    /// Creates a box from its corners.
    public init(min: Vector3f, max: Vector3f) { self.min = min; self.max = max }

    /// The smallest box containing `points` (a zero box at the origin when empty).
    public init(points: [Vector3f]) {
        guard var lo = points.first else { self.init(min: .zero, max: .zero); return }
        var hi = lo
        for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        self.init(min: lo, max: hi)
    }

    /// Centre of the box.
    public var center: Vector3f { (min + max) / 2 }
    /// Edge lengths.
    public var size: Vector3f { max - min }

    /// The box containing this box transformed by `m` (its eight corners transformed).
    public func transformed(by m: Matrix4f) -> BoundingBox {
        var corners: [Vector3f] = []
        for i in 0..<8 {
            let c = Vector3f(i & 1 == 0 ? min.x : max.x, i & 2 == 0 ? min.y : max.y, i & 4 == 0 ? min.z : max.z)
            corners.append(m.transformPoint(c))
        }
        return BoundingBox(points: corners)
    }

    /// Slab test: the entry distance of the ray into the box, or `nil` when it misses.
    public func intersect(origin o: Vector3f, direction d: Vector3f) -> Float? {
        var tNear = -Float.infinity, tFar = Float.infinity
        for axis in 0..<3 {
            if abs(d[axis]) < 1e-12 {
                if o[axis] < min[axis] || o[axis] > max[axis] { return nil }
            } else {
                var t0 = (min[axis] - o[axis]) / d[axis], t1 = (max[axis] - o[axis]) / d[axis]
                if t0 > t1 { swap(&t0, &t1) }
                tNear = Swift.max(tNear, t0); tFar = Swift.min(tFar, t1)
                if tNear > tFar * (1 + 1e-5) + 1e-6 { return nil }
            }
        }
        return tFar < 0 ? nil : Swift.max(tNear, 0)
    }
}

/// One index list of a mesh, drawn with one material (SceneKit's `SCNGeometryElement`).
public struct MeshElement: Equatable, Sendable {
    /// Triangle list: three vertex indices per triangle, counter-clockwise seen from the front.
    public var indices: [UInt32]
    /// Index into the geometry's `materials` (wrapped modulo their count, as SceneKit does).
    public var materialIndex: Int

    /// Creates an element.
    public init(indices: [UInt32], materialIndex: Int = 0) { self.indices = indices; self.materialIndex = materialIndex }

    /// Number of triangles.
    public var triangleCount: Int { indices.count / 3 }
}

/// Errors raised when assembling a mesh from user-supplied arrays.
public struct MeshError: Error, CustomStringConvertible, Equatable {
    /// What is wrong.
    public var description: String
}

/// A triangle mesh: per-vertex attributes plus one or more index lists. Every geometry kind
/// produces one; the renderer uploads it as vertex and index buffers.
public struct Mesh: Equatable, Sendable {
    /// Vertex positions in the node's local coordinates (metres).
    public var positions: [Vector3f]
    /// Unit vertex normals.
    public var normals: [Vector3f]
    /// Texture coordinates, origin at the image's top-left corner (v down), as glTF.
    public var texcoords: [Vector2f]
    /// Optional linear RGBA vertex colours.
    public var colors: [Vector4f]?
    /// Optional tangents: xyz unit tangent along +u, w = ±1 handedness of the bitangent (glTF).
    public var tangents: [Vector4f]?
    /// Index lists, one per material.
    public var elements: [MeshElement]

    /// Creates a mesh, checking that attribute counts agree and indices are in range.
    public init(positions: [Vector3f], normals: [Vector3f]? = nil, texcoords: [Vector2f]? = nil,
                colors: [Vector4f]? = nil, tangents: [Vector4f]? = nil, elements: [MeshElement]) throws {
        let n = positions.count
        for (label, count) in [("normals", normals?.count), ("texcoords", texcoords?.count), ("colors", colors?.count), ("tangents", tangents?.count)] {
            if let count, count != n { throw MeshError(description: "\(label) has \(count) entries but there are \(n) positions") }
        }
        guard positions.allSatisfy(\.isFinite) else { throw MeshError(description: "positions contain NaN or infinity") }
        for (e, element) in elements.enumerated() {
            if element.indices.count % 3 != 0 { throw MeshError(description: "element \(e) has \(element.indices.count) indices, not a multiple of 3") }
            if let bad = element.indices.first(where: { Int($0) >= n }) { throw MeshError(description: "element \(e) index \(bad) out of range (\(n) vertices)") }
        }
        self.positions = positions
        self.texcoords = texcoords ?? Array(repeating: .zero, count: n)
        self.colors = colors
        self.tangents = tangents
        self.elements = elements
        self.normals = normals ?? []
        if normals == nil { self.normals = computeFaceAveragedNormals() }
    }

    /// Creates a mesh without validation (for generators that produce consistent arrays).
    init(unchecked positions: [Vector3f], normals: [Vector3f], texcoords: [Vector2f], elements: [MeshElement]) {
        self.positions = positions; self.normals = normals; self.texcoords = texcoords; self.elements = elements
    }

    /// Total number of triangles over all elements.
    public var triangleCount: Int { elements.reduce(0) { $0 + $1.triangleCount } }

    /// The local bounding box of all vertices.
    public var boundingBox: BoundingBox { BoundingBox(points: positions) }

    /// All triangles as vertex-index triples (over every element).
    public var triangles: [(UInt32, UInt32, UInt32)] {
        elements.flatMap { e in stride(from: 0, to: e.indices.count - 2, by: 3).map { (e.indices[$0], e.indices[$0 + 1], e.indices[$0 + 2]) } }
    }

    /// Area-weighted vertex normals from the triangles (used when a file has none).
    public func computeFaceAveragedNormals() -> [Vector3f] {
        var acc = [Vector3f](repeating: .zero, count: positions.count)
        for (a, b, c) in triangles {
            let n = (positions[Int(b)] - positions[Int(a)]).cross(positions[Int(c)] - positions[Int(a)])
            acc[Int(a)] += n; acc[Int(b)] += n; acc[Int(c)] += n
        }
        return acc.map { $0.squaredNorm > 0 ? $0.normalized : Vector3f(0, 1, 0) }
    }

    /// Computes per-vertex tangents from positions and texture coordinates (Lengyel, "Computing
    /// Tangent Space Basis Vectors for an Arbitrary Mesh", 2001), Gram–Schmidt against the normal.
    public mutating func generateTangents() {
        var tan = [Vector3f](repeating: .zero, count: positions.count)
        var bit = [Vector3f](repeating: .zero, count: positions.count)
        for (a, b, c) in triangles {
            let (i0, i1, i2) = (Int(a), Int(b), Int(c))
            let e1 = positions[i1] - positions[i0], e2 = positions[i2] - positions[i0]
            let d1 = texcoords[i1] - texcoords[i0], d2 = texcoords[i2] - texcoords[i0]
            let det = d1.x * d2.y - d2.x * d1.y
            guard abs(det) > 1e-12 else { continue }
            let r = 1 / det
            let t = (e1 * d2.y - e2 * d1.y) * r, bt = (e2 * d1.x - e1 * d2.x) * r
            for i in [i0, i1, i2] { tan[i] += t; bit[i] += bt }
        }
        tangents = (0..<positions.count).map { i in
            let n = normals[i]
            var t = tan[i] - n * n.dot(tan[i])
            if t.squaredNorm < 1e-12 { t = abs(n.x) < 0.9 ? Vector3f(1, 0, 0).cross(n) : Vector3f(0, 1, 0).cross(n) }
            t = t.normalized
            let w: Float = n.cross(t).dot(bit[i]) < 0 ? -1 : 1
            return Vector4f(t.x, t.y, t.z, w)
        }
    }

    /// The signed volume enclosed by the triangles (divergence theorem). Positive for a closed
    /// mesh wound counter-clockwise seen from outside.
    public var signedVolume: Float {
        triangles.reduce(0) { v, t in
            v + positions[Int(t.0)].dot(positions[Int(t.1)].cross(positions[Int(t.2)])) / 6
        }
    }
}

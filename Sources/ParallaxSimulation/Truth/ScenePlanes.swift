import Foundation
import ParallaxMath
import ParallaxSceneGraph

/// One planar surface of the scene, in the z-up world (`truth/planes.json`).
public struct PlaneTruth: Sendable, Equatable {
    /// What the surface is, from its orientation and height.
    public enum Kind: String, Sendable { case floor, wall, table, ceiling }
    /// Stable identifier: `<node name or "node<i>">/<face>`.
    public var id: String
    /// The kind.
    public var kind: Kind
    /// Centroid of the polygon (m, world).
    public var centre: Vector3
    /// Unit normal pointing out of the solid (towards where a camera can see the surface).
    public var normal: Vector3
    /// Boundary polygon (world), counter-clockwise seen from the side the normal points to.
    public var polygon: [Vector3]
    /// Area (m²).
    public var area: Double
}

/// Extracts every planar surface of a scene: the six faces of each box, each plane and floor.
///
/// Classification in the z-up world: faces whose normal is within ~25° of vertical-up are `floor`
/// (the lowest such level, within 5 cm) or `table` (any higher one); faces within ~25° of
/// vertical-down are `ceiling` when within 5 cm of the highest such level, otherwise left out (the
/// underside of furniture is not something a tracker detects); near-vertical faces are `wall`;
/// slanted faces and faces smaller than `minimumArea` are left out.
public enum ScenePlanes {
    /// Faces smaller than this (m²) are left out: books, marker cubes, table legs.
    public static let minimumArea = 0.1

    /// All planes of `scene`, expressed in the world of `alignment`, sorted by id.
    public static func extract(from scene: Scene, alignment: SceneAlignment) -> [PlaneTruth] {
        planes(among: faces(of: scene, alignment: alignment))
    }

    /// The planes among `faces` (``faces(of:alignment:)``): those of ``minimumArea`` or more, classified.
    static func planes(among faces: [PlaneTruth]) -> [PlaneTruth] {
        classified(faces.filter { $0.area >= minimumArea }, keepingAll: false)
    }

    /// Every face of `scene` (`truth/surfaces.json`), the small ones (books, table legs) and the
    /// slanted ones included, in the world of `alignment`, sorted by id; kinds as in
    /// ``extract(from:alignment:)``, with slanted faces and furniture undersides as `wall` and
    /// `ceiling`. These are what a hit test can land on: a vertical plane fitted to the spines of
    /// a shelf of books is a real surface, though no face of it is large enough for `planes.json`.
    public static func surfaces(from scene: Scene, alignment: SceneAlignment) -> [PlaneTruth] {
        surfaces(among: faces(of: scene, alignment: alignment))
    }

    /// `faces` (``faces(of:alignment:)``) classified, none left out.
    static func surfaces(among faces: [PlaneTruth]) -> [PlaneTruth] { classified(faces, keepingAll: true) }

    /// The faces of every box, plane and floor of `scene` as planes (kind `wall` until classified).
    static func faces(of scene: Scene, alignment: SceneAlignment) -> [PlaneTruth] {
        var faces: [(id: String, polygon: [Vector3], outward: Vector3)] = []
        let T_world_scene = alignment.T_world_scene
        for (index, node) in scene.rootNode.subtree.enumerated() {
            guard let geometry = node.geometry, !node.isHidden else { continue }
            let name = node.name ?? "node\(index)"
            let m = node.worldTransform
            func world(_ p: Vector3f) -> Vector3 { T_world_scene * m.transformPoint(p).double }
            switch geometry.kind {
            case let .box(width, height, length, _):
                let half = Vector3f(width, height, length) / 2
                for axis in 0..<3 {
                    for sign: Float in [-1, 1] {
                        let u = (axis + 1) % 3, v = (axis + 2) % 3
                        var corners: [Vector3] = []
                        for (su, sv): (Float, Float) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] {
                            var p = Vector3f.zero
                            p[axis] = sign * half[axis]
                            p[u] = su * half[u]
                            p[v] = sv * half[v]
                            corners.append(world(p))
                        }
                        var direction = Vector3f.zero
                        direction[axis] = sign
                        let outward = world(direction) - world(.zero)
                        let face = ["x", "y", "z"][axis] + (sign > 0 ? "+" : "-")
                        faces.append((id: "\(name)/\(face)", polygon: corners, outward: outward))
                    }
                }
            case let .plane(width, height):
                let corners = [Vector3f(-width / 2, -height / 2, 0), Vector3f(width / 2, -height / 2, 0),
                               Vector3f(width / 2, height / 2, 0), Vector3f(-width / 2, height / 2, 0)].map(world)
                faces.append((id: name, polygon: corners, outward: world(Vector3f(0, 0, 1)) - world(.zero)))
            case .floor:
                let b = geometry.boundingBox
                let corners = [Vector3f(b.min.x, 0, b.max.z), Vector3f(b.max.x, 0, b.max.z),
                               Vector3f(b.max.x, 0, b.min.z), Vector3f(b.min.x, 0, b.min.z)].map(world)
                faces.append((id: name, polygon: corners, outward: world(Vector3f(0, 1, 0)) - world(.zero)))
            default:
                continue
            }
        }
        return faces.compactMap { makePlane(id: $0.id, polygon: $0.polygon, outward: $0.outward) }
    }

    /// `planes` with their kinds; without `keepingAll`, slanted faces and downward faces other
    /// than the ceiling are left out.
    static func classified(_ planes: [PlaneTruth], keepingAll: Bool) -> [PlaneTruth] {
        let up = planes.filter { $0.normal.z > 0.9 }
        let down = planes.filter { $0.normal.z < -0.9 }
        let floorLevel = up.map(\.centre.z).min() ?? 0
        let ceilingLevel = down.map(\.centre.z).max() ?? 0
        var result: [PlaneTruth] = []
        for var plane in planes {
            if plane.normal.z > 0.9 {
                plane.kind = plane.centre.z < floorLevel + 0.05 ? .floor : .table
            } else if plane.normal.z < -0.9 {
                guard keepingAll || (plane.centre.z > ceilingLevel - 0.05 && plane.centre.z > floorLevel + 1.5) else { continue }
                plane.kind = .ceiling
            } else if keepingAll || abs(plane.normal.z) < 0.42 {
                plane.kind = .wall
            } else {
                continue
            }
            result.append(plane)
        }
        return result.sorted { $0.id < $1.id }
    }

    /// A plane from a convex polygon, oriented counter-clockwise around the outward normal.
    static func makePlane(id: String, polygon: [Vector3], outward: Vector3) -> PlaneTruth? {
        guard polygon.count >= 3 else { return nil }
        var normal = Vector3.zero
        for i in 0..<polygon.count {  // Newell's method: robust normal of a planar polygon
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            normal += Vector3((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y))
        }
        let area = normal.norm / 2
        guard area > 1e-12 else { return nil }
        var n = normal.normalized
        var points = polygon
        if n.dot(outward) < 0 {
            n = -n
            points.reverse()
        }
        let centre = points.reduce(Vector3.zero, +) / Double(points.count)
        return PlaneTruth(id: id, kind: .wall, centre: centre, normal: n, polygon: points, area: area)
    }
}

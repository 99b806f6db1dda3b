import ParallaxAR
import ParallaxMath

/// Which part of each truth floor, table and wall the camera saw: a grid of sample points on
/// each plane, marked when one of them lands inside the image from the plane's front side, within
/// range and with no other truth plane in between.
///
/// A 20 s walk round a table sees part of the room's floor and a strip of most walls, so the
/// IoU of an anchor against the whole truth polygon is capped by where the walk went (with
/// ground-truth poses, 0.69 for the floor of `rpng_table_03`'s first 20 s); against the seen part
/// it measures the detection. The seen part is the convex hull of the seen samples, the shape our
/// anchors have too.
struct PlaneCoverage {
    /// Largest grid spacing on each plane (m).
    static let spacing = 0.15
    /// Kinds whose coverage is tracked (the planes the evaluation requires).
    static let kinds: Set<String> = ["floor", "table", "wall"]

    private let truth: [TruthPlane]
    /// Per truth plane: its in-plane basis and its polygon in that basis (occlusion tests).
    private let bases: [(e1: Vector3, e2: Vector3)]
    private let hulls: [[Vector2]]
    /// Per tracked plane (index into `truth`): sample points (world, in-plane) and whether seen.
    private var samples: [Int: [(world: Vector3, flat: Vector2)]] = [:]
    private var seen: [Int: [Bool]] = [:]
    /// Per tracked plane: the size of its sampling cells (in-plane).
    private var cells: [Int: Vector2] = [:]

    init(truth: [TruthPlane]) {
        self.truth = truth
        let bases = truth.map { ConvexPolygon.basis(ofPlaneWithNormal: $0.normal) }
        self.bases = bases.map { (e1: $0.0, e2: $0.1) }
        hulls = zip(truth, bases).map { t, b in ConvexPolygon.hull(t.polygon.map { Vector2($0.dot(b.0), $0.dot(b.1)) }) }
        for (i, t) in truth.enumerated() where Self.kinds.contains(t.kind) {
            let hull = hulls[i], (e1, e2) = bases[i]
            guard hull.count >= 3 else { continue }
            // Cells of about `spacing` tiling the polygon's bounding box exactly, a sample at each centre.
            let lo = Vector2(hull.map(\.x).min() ?? 0, hull.map(\.y).min() ?? 0)
            let span = Vector2(hull.map(\.x).max() ?? 0, hull.map(\.y).max() ?? 0) - lo
            let n = (x: max(1, Int((span.x / Self.spacing).rounded(.up))), y: max(1, Int((span.y / Self.spacing).rounded(.up))))
            let cell = Vector2(span.x / Double(n.x), span.y / Double(n.y))
            var points: [(Vector3, Vector2)] = []
            for a in 0..<n.x {
                for b in 0..<n.y {
                    let q = Vector2(lo.x + (Double(a) + 0.5) * cell.x, lo.y + (Double(b) + 0.5) * cell.y)
                    if ConvexPolygon.distance(q, toConvex: hull) == 0 { points.append((e1 * q.x + e2 * q.y + t.normal * t.offset, q)) }
                }
            }
            cells[i] = cell
            samples[i] = points
            seen[i] = Array(repeating: false, count: points.count)
        }
    }

    /// Marks the samples the camera at `T_W_C` (true OpenCV camera pose) sees.
    mutating func observe(_ camera: Camera, T_W_C: RigidTransform, maximumRange: Double) {
        let T_C_W = T_W_C.inverse, centre = T_W_C.translation
        for (i, points) in samples {
            let t = truth[i]
            guard t.normal.dot(centre - t.centre) > 0, var marks = seen[i] else { continue }
            for (j, p) in points.enumerated() where !marks[j] {
                guard camera.sees(T_C_W * p.world, within: maximumRange), !isOccluded(p.world, from: centre, except: i) else { continue }
                marks[j] = true
            }
            seen[i] = marks
        }
    }

    /// True when another truth plane's polygon crosses the segment from `eye` to `point` (more
    /// than 2 cm before the point).
    private func isOccluded(_ point: Vector3, from eye: Vector3, except plane: Int) -> Bool {
        let d = point - eye
        let length = d.norm
        guard length > 0.02 else { return false }
        for (k, t) in truth.enumerated() where k != plane {
            let denominator = t.normal.dot(d)
            guard abs(denominator) > 1e-9 else { continue }
            let s = (t.offset - t.normal.dot(eye)) / denominator
            guard s > 0, s * length < length - 0.02 else { continue }
            let q = eye + d * s
            let (e1, e2) = bases[k]
            if ConvexPolygon.distance(Vector2(q.dot(e1), q.dot(e2)), toConvex: hulls[k]) == 0 { return true }
        }
        return false
    }

    /// The seen part of each tracked truth plane (id → convex polygon in the plane's
    /// `ConvexPolygon.basis`): the hull of the seen samples' grid cells, clipped to the plane's
    /// polygon. Planes with no seen sample are left out.
    func seenRegions() -> [String: [Vector2]] {
        var out: [String: [Vector2]] = [:]
        for (i, points) in samples {
            guard let marks = seen[i], let size = cells[i] else { continue }
            let r = size * 0.5
            var corners: [Vector2] = []
            for (p, isSeen) in zip(points, marks) where isSeen {
                let q = p.flat
                corners += [Vector2(q.x - r.x, q.y - r.y), Vector2(q.x + r.x, q.y - r.y), Vector2(q.x + r.x, q.y + r.y), Vector2(q.x - r.x, q.y + r.y)]
            }
            let region = ConvexPolygon.intersection(ConvexPolygon.hull(corners), hulls[i])
            if region.count >= 3 { out[truth[i].id] = region }
        }
        return out
    }
}

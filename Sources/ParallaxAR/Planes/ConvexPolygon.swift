import Foundation
import ParallaxMath

/// Planar convex-polygon geometry used by plane detection and scoring (2D, metres).
public enum ConvexPolygon {
    /// Convex hull, counter-clockwise, without collinear points (Andrew's monotone chain, 1979).
    public static func hull(_ points: [Vector2]) -> [Vector2] {
        let p = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard p.count >= 3 else { return p }
        func cross(_ o: Vector2, _ a: Vector2, _ b: Vector2) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [Vector2] = [], upper: [Vector2] = []
        for q in p {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// Signed area (positive when counter-clockwise), shoelace formula.
    public static func signedArea(_ poly: [Vector2]) -> Double {
        var a = 0.0
        for i in 0..<poly.count {
            let p = poly[i], q = poly[(i + 1) % poly.count]
            a += p.x * q.y - q.x * p.y
        }
        return a / 2
    }

    /// Area centroid of a simple polygon (vertex mean when degenerate).
    public static func centroid(_ poly: [Vector2]) -> Vector2 {
        let a = signedArea(poly)
        guard abs(a) > 1e-12 else { return poly.reduce(.zero, +) / Double(max(poly.count, 1)) }
        var c = Vector2.zero
        for i in 0..<poly.count {
            let p = poly[i], q = poly[(i + 1) % poly.count]
            c += (p + q) * (p.x * q.y - q.x * p.y)
        }
        return c / (6 * a)
    }

    /// Intersection of two convex polygons (both counter-clockwise): Sutherland–Hodgman clipping
    /// of `subject` by each edge of `clip` (Sutherland & Hodgman 1974).
    public static func intersection(_ subject: [Vector2], _ clip: [Vector2]) -> [Vector2] {
        var output = subject
        guard clip.count >= 3 else { return [] }
        for i in 0..<clip.count {
            let a = clip[i], b = clip[(i + 1) % clip.count]
            func inside(_ p: Vector2) -> Bool { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0 }
            func cut(_ p: Vector2, _ q: Vector2) -> Vector2 {
                let d1 = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                let d2 = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)
                return p + (q - p) * (d1 / (d1 - d2))
            }
            let input = output
            output = []
            guard !input.isEmpty else { break }
            for j in 0..<input.count {
                let p = input[j], q = input[(j + 1) % input.count]
                if inside(q) {
                    if !inside(p) { output.append(cut(p, q)) }
                    output.append(q)
                } else if inside(p) {
                    output.append(cut(p, q))
                }
            }
        }
        return output
    }

    /// Intersection over union of two convex polygons (0 when either is degenerate).
    public static func iou(_ a: [Vector2], _ b: [Vector2]) -> Double {
        let pa = signedArea(a) < 0 ? a.reversed() : a, pb = signedArea(b) < 0 ? b.reversed() : b
        let areaA = signedArea(pa), areaB = signedArea(pb)
        guard areaA > 1e-12, areaB > 1e-12 else { return 0 }
        let inter = max(0, signedArea(intersection(pa, pb)))
        return inter / (areaA + areaB - inter)
    }

    /// Minimum-area enclosing rectangle of a convex polygon: one side is collinear with a hull
    /// edge (Freeman & Shapira 1975). Returns the centre, the side lengths along the rectangle's
    /// axes `(cos θ, sin θ)` and `(−sin θ, cos θ)`, and θ.
    public static func minimumAreaRectangle(_ hull: [Vector2]) -> (centre: Vector2, size: Vector2, angle: Double) {
        guard hull.count >= 2 else { return (hull.first ?? .zero, .zero, 0) }
        var best: (area: Double, centre: Vector2, size: Vector2, angle: Double)?
        for i in 0..<hull.count {
            let e = hull[(i + 1) % hull.count] - hull[i]
            guard e.norm > 1e-12 else { continue }
            let angle = atan2(e.y, e.x)
            let u = Vector2(cos(angle), sin(angle)), v = Vector2(-sin(angle), cos(angle))
            var lo = Vector2(Double.infinity, Double.infinity), hi = -lo
            for p in hull {
                let c = Vector2((p * u).sum(), (p * v).sum())
                lo = Vector2(min(lo.x, c.x), min(lo.y, c.y))
                hi = Vector2(max(hi.x, c.x), max(hi.y, c.y))
            }
            let size = hi - lo, area = size.x * size.y
            if let b = best, area >= b.area - 1e-12 { continue }
            let mid = (lo + hi) / 2
            best = (area, u * mid.x + v * mid.y, size, angle)
        }
        guard let best else { return (hull[0], .zero, 0) }
        return (best.centre, best.size, best.angle)
    }

    /// Distance from `p` to a convex counter-clockwise polygon (0 inside).
    public static func distance(_ p: Vector2, toConvex poly: [Vector2]) -> Double {
        guard poly.count >= 3 else { return poly.map { ($0 - p).norm }.min() ?? .infinity }
        var inside = true
        var best = Double.infinity
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let e = b - a
            if e.x * (p.y - a.y) - e.y * (p.x - a.x) < 0 { inside = false }
            let t = max(0, min(1, ((p - a) * e).sum() / max((e * e).sum(), 1e-18)))
            best = min(best, (a + e * t - p).norm)
        }
        return inside ? 0 : best
    }

    /// The orientation of `poly` (+1 counter-clockwise, −1 clockwise, the sign of
    /// ``signedArea(_:)``) when it is convex (consecutive edges never turn both ways) with a
    /// non-zero area; nil otherwise.
    public static func convexOrientation(_ poly: [Vector2]) -> Double? {
        guard poly.count >= 3 else { return nil }
        var turnsLeft = false, turnsRight = false
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count], c = poly[(i + 2) % poly.count]
            let turn = (b - a).x * (c - b).y - (b - a).y * (c - b).x
            if turn > 0 { turnsLeft = true } else if turn < 0 { turnsRight = true }
        }
        let area = signedArea(poly)
        guard !(turnsLeft && turnsRight), area != 0 else { return nil }
        return area > 0 ? 1 : -1
    }

    /// How deep `p` lies inside the convex polygon `poly` (negative outside): the smallest
    /// distance to an edge's line. `orientation` is +1 for a counter-clockwise polygon, −1 for a
    /// clockwise one (the sign of ``signedArea(_:)``).
    public static func insideDepth(_ p: Vector2, inConvex poly: [Vector2], orientation: Double) -> Double {
        var depth = Double.infinity
        for k in poly.indices {
            let a = poly[k], b = poly[(k + 1) % poly.count]
            let e = b - a
            let length = e.norm
            guard length > 1e-9 else { continue }
            depth = min(depth, orientation * (e.x * (p.y - a.y) - e.y * (p.x - a.x)) / length)
        }
        return depth
    }

    /// An in-plane basis `(e1, e2)` with `e1 × e2 = n` for the unit normal `n` of a plane in the
    /// z-up world: the polygons here are plane points in these coordinates. For vertical planes
    /// `e2` is up.
    public static func basis(ofPlaneWithNormal n: Vector3) -> (Vector3, Vector3) {
        if abs(n.z) < 0.9 {
            let e2 = (Vector3(0, 0, 1) - n * n.z).normalized
            return (e2.cross(n), e2)
        }
        let e1 = (Vector3(1, 0, 0) - n * n.x).normalized
        return (e1, n.cross(e1))
    }
}

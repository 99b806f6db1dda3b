import ParallaxMath

/// How far a start's features moved between two frames beyond what a rotation explains: the
/// evidence that tells a slow translation from a hand turning in place before the filter starts.
///
/// Each feature seen in both frames is carried from the older frame into the newer by the gyro's
/// rotation alone (a point at infinity); what is left is its parallax plus the rotation's own error.
/// That error (a gyro bias not yet known: 0.01 rad/s over half a second moves features by up to
/// 3 px) is the small rotation `δ` that best explains the leftovers, to first order
/// `Δu = −x y δx + (1 + x²) δy − y δz`, `Δv = −(1 + y²) δx + x y δy + x δz` at each carried point
/// `(x, y)`; it is fitted by least squares (twice, the second time without the features more than
/// three times the median leftover off) and removed. A translation moves points at different depths
/// by different amounts, which no rotation explains, and that remains. The answer is the median of
/// what remains, in pixels.
///
/// Frame by frame the two look alike: a drone drifting at 0.1–0.2 m/s past points 2–4 m away moves
/// them by under a pixel a frame, as a hand's tremor does. Over half a second the drone's motion adds
/// up, while a hand's mostly goes back and forth.
enum StartParallax {
    /// The median parallax (pixels) of the features in both `older` and `newer` (normalised image
    /// coordinates, by id), with `rotation` taking older camera coordinates to newer ones
    /// (`R_cur_prev`). Nil with fewer than `minimumFeatures` (at least 3) common features.
    static func median(from older: [(id: Int, normalized: Vector2)], to newer: [(id: Int, normalized: Vector2)],
                       rotation R: Matrix3, focalLength: Double, minimumFeatures: Int) -> Double? {
        var before: [Int: Vector2] = [:]
        for o in older { before[o.id] = o.normalized }
        var carried: [Vector2] = [], moved: [Vector2] = []
        for o in newer {
            guard let p = before[o.id] else { continue }
            let b = R * Vector3(p.x, p.y, 1)
            guard b.z > 1e-6 else { continue }
            let c = Vector2(b.x / b.z, b.y / b.z)
            carried.append(c)
            moved.append(o.normalized - c)
        }
        guard carried.count >= max(3, minimumFeatures) else { return nil }
        var residual = leftover(carried, moved, using: Array(carried.indices))
        let limit = 3 * upperMedian(residual)
        let kept = residual.indices.filter { residual[$0] <= limit }
        if kept.count >= 3, kept.count < residual.count { residual = leftover(carried, moved, using: kept) }
        return upperMedian(residual) * focalLength
    }

    /// Each feature's motion less the small rotation fitted to the features `using`; the rotation
    /// is left out where those do not determine it.
    private static func leftover(_ at: [Vector2], _ d: [Vector2], using: [Int]) -> [Double] {
        func rows(_ k: Int) -> (Vector3, Vector3) {
            let x = at[k].x, y = at[k].y
            return (Vector3(-x * y, 1 + x * x, -y), Vector3(-(1 + y * y), x * y, x))
        }
        var normal = Matrix3.zero
        var rhs = Vector3.zero
        for k in using {
            let (ju, jv) = rows(k)
            normal = normal + Matrix3.outer(ju, ju) + Matrix3.outer(jv, jv)
            rhs += ju * d[k].x + jv * d[k].y
        }
        let delta = normal.inverse.map { $0 * rhs } ?? .zero
        return at.indices.map { k in
            let (ju, jv) = rows(k)
            let du = d[k].x - ju.dot(delta), dv = d[k].y - jv.dot(delta)
            return (du * du + dv * dv).squareRoot()
        }
    }
}

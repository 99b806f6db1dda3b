import Foundation
import ParallaxMath

/// Refines a gravity-aligned PnP pose with the camera's tilt (roll and pitch) free under a
/// prior, so that a loop measures the camera's position in the map's own frame.
///
/// Why: ``GravityAlignedPnP`` takes roll and pitch from the tracker now, but the map's points
/// carry the tilt the tracker had when they were made. The filter's tilt wanders by tenths of a
/// degree over a run (on a simulated TUM-VI room walk, −0.3° about one camera axis in the first
/// ten seconds and +0.3° later). A PnP with the tilt held wrong explains the difference by a
/// sideways shift of the camera of tilt × depth: 0.55° at 2.5 m is 2.4 cm, and every loop into the
/// first keyframes of that walk was 1.5–3.5 cm off that way while its yaw was within 0.1°. The
/// pose graph is 4-DoF (VINS-Mono's model): it keeps the loop's yaw and position and drops the
/// tilt, so the tilt only has to be free in the solve. A prior keeps it near the tracker's where
/// the points cannot tell a tilt from a shift (a flat wall seen head-on).
public enum TiltFreePnP {
    /// Refines `T_world_camera` over the correspondences `c`: six unknowns, a small rotation
    /// `exp([θx, θy, θz]) · R` about world axes (θz is the yaw) and the position, with Cauchy
    /// weights (`scale`, normalised image units) on the rays and a prior `tiltSigma` (rad) on θx and
    /// θy against `observationSigma` (normalised units) per ray coordinate. Nil when the freed
    /// tilt does not lower the rays' cost by `significance` (the F statistic of the two extra
    /// unknowns; 0 accepts any refinement), or when the solve fails.
    public static func refine(_ c: [PnPCorrespondence], T_world_camera: RigidTransform, tiltSigma: Double,
                              observationSigma: Double = 0.003, scale: Double = 0.0075, iterations: Int = 8,
                              significance: Double = 0) -> RigidTransform? {
        guard c.count >= 6, tiltSigma > 0 else { return nil }
        let R0 = T_world_camera.rotationMatrix
        let bearings = c.map { $0.bearing_camera / $0.bearing_camera.norm }
        let priorWeight = observationSigma / tiltSigma
        var p = [0.0, 0, 0, T_world_camera.translation.x, T_world_camera.translation.y, T_world_camera.translation.z]
        func pose(_ q: [Double]) -> (Matrix3, Vector3) { (SO3.exp(Vector3(q[0], q[1], q[2])) * R0, Vector3(q[3], q[4], q[5])) }
        func rays(_ q: [Double]) -> [Vector2?] { Self.rays(bearings, c, R0: R0, parameters: q) }
        for _ in 0..<iterations {
            let r0 = rays(p)
            let weights = r0.map { r -> Double in
                guard let r else { return 0 }
                let s = r.norm / scale
                return 1 / (1 + s * s)
            }
            var jac: [[Vector2?]] = []
            for k in 0..<6 {
                var q = p
                q[k] += 1e-6
                jac.append(rays(q))
            }
            var rows: [([Double], Double)] = []
            for i in c.indices {
                guard let r = r0[i], weights[i] > 0 else { continue }
                let w = weights[i].squareRoot()
                for axis in 0..<2 {
                    var row = [Double](repeating: 0, count: 6)
                    var valid = true
                    for k in 0..<6 {
                        guard let rk = jac[k][i] else { valid = false; break }
                        row[k] = w * ((axis == 0 ? rk.x : rk.y) - (axis == 0 ? r.x : r.y)) / 1e-6
                    }
                    if valid { rows.append((row, -w * (axis == 0 ? r.x : r.y))) }
                }
            }
            guard rows.count >= 12 else { return nil }
            for k in 0..<2 {  // the tilt prior: θ ~ N(0, tiltSigma²) about the tracker's tilt
                var row = [Double](repeating: 0, count: 6)
                row[k] = priorWeight
                rows.append((row, -priorWeight * p[k]))
            }
            guard let step = leastSquares(rows, unknowns: 6) else { return nil }
            for k in 0..<6 { p[k] += step[k] }
            if step.map(abs).max() ?? 0 < 1e-9 { break }
        }
        let (R, t) = pose(p)
        guard t.isFinite, p.allSatisfy(\.isFinite) else { return nil }
        guard significance > 0 else { return RigidTransform(rotationMatrix: R, translation: t) }
        // Keep the tilt only where the rays ask for it: an F-test of the two extra unknowns on the
        // rays the held pose explains (within 3 Cauchy scales), so that where a tilt and a shift
        // look alike (far points, a flat wall head-on) the answer stays the gravity-aligned one
        // rather than taking a tilt that only fits noise.
        let held = rays([0, 0, 0, T_world_camera.translation.x, T_world_camera.translation.y, T_world_camera.translation.z])
        let freed = rays(p)
        var heldCost = 0.0, freeCost = 0.0, n = 0
        for (a, b) in zip(held, freed) {
            guard let a, let b, a.norm < 3 * scale else { continue }
            heldCost += (a * a).sum()
            freeCost += (b * b).sum()
            n += 1
        }
        guard n > 8, freeCost > 0 else { return nil }
        let f = (heldCost - freeCost) / 2 / (freeCost / Double(2 * n - 6))
        guard f >= significance else { return nil }
        return RigidTransform(rotationMatrix: R, translation: t)
    }

    /// Ray residuals at parameters `(θx, θy, θz, t)` (the rotation `exp(θ) · R0`): each predicted
    /// ray minus its observed unit `bearings` entry, in two axes across the observed ray; nil for a
    /// point behind the camera.
    static func rays(_ bearings: [Vector3], _ c: [PnPCorrespondence], R0: Matrix3, parameters q: [Double]) -> [Vector2?] {
        let R = SO3.exp(Vector3(q[0], q[1], q[2])) * R0, t = Vector3(q[3], q[4], q[5])
        let Rt = R.transpose
        return zip(bearings, c).map { b, corr in
            let u = Rt * (corr.point_world - t)
            guard u.dot(b) > 0 else { return nil }
            let d = u / u.norm - b
            let (e1, e2) = across(b)
            return Vector2(d.dot(e1), d.dot(e2))
        }
    }

    /// Two unit axes perpendicular to the unit vector `b`.
    static func across(_ b: Vector3) -> (Vector3, Vector3) {
        let helper = abs(b.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let e1 = b.cross(helper)
        let n1 = e1 / e1.norm
        return (n1, b.cross(n1))
    }
}

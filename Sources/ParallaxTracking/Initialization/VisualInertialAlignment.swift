import Foundation
import ParallaxMath

/// Closed-form visual–inertial alignment for initialising while moving (mono or stereo).
///
/// Follows the linear formulation of Martinelli ("Closed-form solution of visual-inertial structure
/// from motion", IJCV 2014) in the form of Kaiser, Martinelli, Fontana & Scaramuzza ("Simultaneous
/// state initialization and gyroscope bias calibration in visual inertial aided navigation",
/// RA-L 2017): with rotations from the gyroscope and positions from the preintegrated
/// accelerometer, every bearing observation is *linear* in the unknowns
/// `θ = [v₀, g₀]` (velocity and gravity in the first body frame) and the feature positions `X_f`.
///
/// Frame `i` at time `tᵢ` (relative to the first frame) has, in the first body frame,
///
///     p_i = v₀ tᵢ + ½ g₀ tᵢ² + Δp_0i,   R_i = ΔR_0i,
///
/// and a bearing `d` (cam0 or cam1, rotated into the first body frame) from camera centre
/// `c = p_i + R_i p_bc` constrains `X_f`: `[d]× (X_f − c) = 0`. We minimise the sum of squared
/// ray-to-point distances `Σ (X_f − c)ᵀ (I − d dᵀ) (X_f − c)` with unit `d`, eliminate each `X_f`
/// by its 3×3 Schur complement, and solve the 6×6 system in `θ` with `‖g₀‖ = 9.81` enforced exactly
/// (a trust-region style secular equation on the 3×3 gravity block). Biases are taken as zero:
/// over a one-second window the gyro bias of an EuRoC-grade IMU moves bearings by a fraction of a
/// degree, and the filter estimates both biases right after.
///
/// A second pass reweights each ray by the inverse squared depth from the first pass, turning the
/// metric distances into angular errors so distant points do not dominate.
struct VisualInertialAlignment {
    /// One image's features: normalised cam0 (and cam1) coordinates by feature id.
    struct Frame {
        var time: Double
        var observations: [(id: Int, left: Vector2, right: Vector2?)]
    }

    /// Velocity and gravity expressed in the body frame of the newest frame.
    struct Solution {
        var gravity: Vector3
        var velocity: Vector3
        /// Features that entered the solve.
        var featureCount: Int
        /// ‖g₀‖ of the unconstrained solve divided by 9.81 (1 when the data agree with gravity).
        var gravityRatio: Double
    }

    let rig: CameraRig
    var gravityMagnitude = 9.81
    /// Minimum number of frames of a feature used in the solve (stereo pairs count once).
    var minimumObservations = 3
    /// Rays must span at least this angle (rad) for a feature to constrain anything.
    var minimumParallax = 0.02
    /// Minimum number of usable features.
    var minimumFeatures = 15
    /// The unconstrained gravity magnitude must lie within this fraction of 9.81.
    var gravityTolerance = 0.2

    /// Solves over `frames` (ascending times) with IMU `samples` covering them; nil when the
    /// motion does not make velocity and gravity observable (too little parallax or excitation).
    func solve(frames: [Frame], samples: ArraySlice<IMUMeasurement>, noise: IMUNoise) -> Solution? {
        guard frames.count >= minimumObservations, let t0 = frames.first?.time, let tN = frames.last?.time,
              tN - t0 > 0.2 else { return nil }
        // Preintegrated deltas from the first frame to each frame (zero biases).
        var deltas: [(r: Matrix3, v: Vector3, p: Vector3, t: Double)] = []
        var pre = Preintegration(biasGyro: .zero, biasAccel: .zero, noise: noise)
        guard samples.contains(where: { $0.timestamp <= t0 }) else { return nil }
        var current = t0
        for frame in frames {
            for segment in IMUSegment.split(samples, from: current, to: frame.time, maxGap: 0.05) {
                guard !segment.isGap else { return nil }   // IMU gap
                pre.integrate(gyro: segment.gyro, accel: segment.accel, dt: segment.duration)
            }
            current = max(current, frame.time)
            deltas.append((pre.deltaRotation, pre.deltaVelocity, pre.deltaPosition, frame.time - t0))
        }

        // Rays per feature id: (unit bearing in the first body frame, camera centre's known part, t).
        var rays: [Int: [(d: Vector3, k: Vector3, t: Double)]] = [:]
        var frameCount: [Int: Int] = [:]
        for (i, frame) in frames.enumerated() {
            let (r, p, t) = (deltas[i].r, deltas[i].p, deltas[i].t)
            for o in frame.observations {
                frameCount[o.id, default: 0] += 1
                let cams: [(Int, Vector2)] = [(0, o.left)] + (o.right.map { rig.hasRight ? [(1, $0)] : [] } ?? [])
                for (cam, z) in cams {
                    let (rc, pc) = rig.cameraPose(cam, bodyRotation: r, bodyPosition: p)
                    rays[o.id, default: []].append(((rc * Vector3(z.x, z.y, 1)).normalized, pc, t))
                }
            }
        }
        let ids = rays.keys.sorted().filter { (frameCount[$0] ?? 0) >= minimumObservations }

        var theta: [Double]?
        var depths: [Int: Double] = [:]
        var used = 0
        var ratio = 0.0
        for pass in 0..<2 {
            var h = Matrix(rows: 6, cols: 6), b = [Double](repeating: 0, count: 6)
            used = 0
            for id in ids {
                guard let list = rays[id] else { continue }
                // Parallax: the widest angle between the first ray and the others.
                let first = list[0].d
                let spread = list.dropFirst().reduce(0.0) { max($0, acos(min(1, max(-1, first.dot($1.d))))) }
                guard spread >= minimumParallax else { continue }
                let w = pass == 0 ? 1.0 : 1.0 / pow(max(0.5, depths[id] ?? 0.5), 2)
                var a = Matrix3.zero, c = Matrix(rows: 3, cols: 6), e = Vector3.zero
                var jmj = Matrix(rows: 6, cols: 6), jmk = [Double](repeating: 0, count: 6)
                for ray in list {
                    let m = (Matrix3.identity - Matrix3.outer(ray.d, ray.d)) * w
                    a += m
                    e += m * ray.k
                    // J = [t I, ½t² I]: M J = [t M, ½t² M].
                    let s = [ray.t, 0.5 * ray.t * ray.t]
                    for p in 0..<2 { for q in 0..<3 { for r in 0..<3 { c[q, 3 * p + r] += s[p] * m[q, r] } } }
                    for p in 0..<2 {
                        for q in 0..<2 {
                            for u in 0..<3 { for v in 0..<3 { jmj[3 * p + u, 3 * q + v] += s[p] * s[q] * m[u, v] } }
                        }
                        let mk = m * ray.k
                        for u in 0..<3 { jmk[3 * p + u] += s[p] * mk[u] }
                    }
                }
                guard let ai = a.inverse, a.determinant > 1e-12 * pow(Double(list.count), 3) else { continue }
                // Reduced normal equations: (ΣJᵀMJ − CᵀA⁻¹C) θ = CᵀA⁻¹e − ΣJᵀMk.
                let aic = Matrix(ai) * c
                let aie = ai * e
                for p in 0..<6 {
                    var rhs = -jmk[p]
                    for q in 0..<3 { rhs += c[q, p] * aie[q] }
                    b[p] += rhs
                    for q in 0..<6 {
                        var v = jmj[p, q]
                        for r in 0..<3 { v -= c[r, p] * aic[r, q] }
                        h[p, q] += v
                    }
                }
                used += 1
            }
            guard used >= minimumFeatures else { return nil }
            guard let free = try? Cholesky(h).solve(b) else { return nil }
            ratio = Vector3(free[3], free[4], free[5]).norm / gravityMagnitude
            guard abs(ratio - 1) <= gravityTolerance else { return nil }
            guard let constrained = Self.solveWithGravityNorm(h: h, b: b, magnitude: gravityMagnitude) else { return nil }
            theta = constrained
            // Depths for the second pass: triangulate each feature with the solved positions.
            if pass == 0 {
                let v0 = Vector3(constrained[0], constrained[1], constrained[2])
                let g0 = Vector3(constrained[3], constrained[4], constrained[5])
                for id in ids {
                    guard let list = rays[id] else { continue }
                    var a = Matrix3.zero, rhs = Vector3.zero
                    for ray in list {
                        let m = Matrix3.identity - Matrix3.outer(ray.d, ray.d)
                        let centre = ray.k + v0 * ray.t + g0 * (0.5 * ray.t * ray.t)
                        a += m
                        rhs += m * centre
                    }
                    guard let ai = a.inverse else { continue }
                    let x = ai * rhs
                    let last = list[list.count - 1]
                    depths[id] = (x - (last.k + v0 * last.t + g0 * (0.5 * last.t * last.t))).norm
                }
            }
        }
        guard let theta, let last = deltas.last else { return nil }
        let v0 = Vector3(theta[0], theta[1], theta[2]), g0 = Vector3(theta[3], theta[4], theta[5])
        // Newest frame: v_N = v₀ + g₀ t + Δv (first body frame), then into body N.
        let vN = v0 + g0 * last.t + last.v
        return Solution(gravity: last.r.transpose * g0, velocity: last.r.transpose * vN, featureCount: used,
                        gravityRatio: ratio)
    }

    /// Minimises θᵀHθ − 2bᵀθ over θ = [v, g] subject to ‖g‖ = `magnitude`.
    /// v is eliminated (v = H_vv⁻¹(b_v − H_vg g)); the 3×3 problem in g, min gᵀSg − 2sᵀg on a sphere,
    /// has the solution g = (S − λI)⁻¹ s with λ below S's smallest eigenvalue chosen so ‖g‖ matches
    /// (the trust-region secular equation; Moré & Sorensen 1983), found by bisection.
    static func solveWithGravityNorm(h: Matrix, b: [Double], magnitude: Double) -> [Double]? {
        let hvv = h.block3(row: 0, col: 0), hvg = h.block3(row: 0, col: 3), hgg = h.block3(row: 3, col: 3)
        guard let hvvInv = hvv.inverse else { return nil }
        let bv = Vector3(b[0], b[1], b[2]), bg = Vector3(b[3], b[4], b[5])
        let s = hgg - hvg.transpose * hvvInv * hvg
        let sv = bg - hvg.transpose * (hvvInv * bv)
        guard let eigen = try? SymmetricEigen(Matrix(s)) else { return nil }
        let q = (0..<3).map { Vector3(eigen.vectors[0, $0], eigen.vectors[1, $0], eigen.vectors[2, $0]) }
        let c = q.map { $0.dot(sv) }
        func g(_ lambda: Double) -> Vector3 {
            (0..<3).reduce(Vector3.zero) { $0 + q[$1] * (c[$1] / (eigen.values[$1] - lambda)) }
        }
        // ‖g(λ)‖ grows without bound as λ → σ_min from below and falls to 0 as λ → −∞.
        let sigmaMin = eigen.values[0]
        var hi = sigmaMin - 1e-12 * max(1, abs(sigmaMin))
        var step = max(1, abs(sigmaMin))
        var lo = sigmaMin - step
        while g(lo).norm > magnitude {
            step *= 4
            lo = sigmaMin - step
            if step > 1e30 { return nil }
        }
        guard g(hi).norm >= magnitude else {
            // Hard case (s ⟂ the smallest eigenvector): take the unconstrained direction scaled.
            let gFree = g(sigmaMin - 1e-9 * max(1, abs(sigmaMin)))
            guard gFree.norm > 1e-9 else { return nil }
            return assemble(g: gFree.normalized * magnitude, hvvInv: hvvInv, hvg: hvg, bv: bv)
        }
        for _ in 0..<200 {
            let mid = 0.5 * (lo + hi)
            if g(mid).norm > magnitude { hi = mid } else { lo = mid }
        }
        return assemble(g: g(0.5 * (lo + hi)), hvvInv: hvvInv, hvg: hvg, bv: bv)
    }

    private static func assemble(g: Vector3, hvvInv: Matrix3, hvg: Matrix3, bv: Vector3) -> [Double]? {
        let v = hvvInv * (bv - hvg * g)
        let out = [v.x, v.y, v.z, g.x, g.y, g.z]
        return out.allSatisfy(\.isFinite) ? out : nil
    }
}

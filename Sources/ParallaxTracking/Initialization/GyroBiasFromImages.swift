import Foundation
import ParallaxMath

/// The gyroscope bias from the start window's images, before the filter exists.
///
/// A start in motion has no still IMU window to read the bias from, and a MEMS gyroscope's
/// turn-on bias (0.01–0.08 rad/s on EuRoC's recordings) turns the gyro-integrated rotations of
/// a one-second window by degrees: the visual–inertial alignment then fits gravity and velocity
/// to rays pointing the wrong way, and the filter starts off by more than it can pull back.
/// VINS-Mono solves the bias first from rotations of a visual structure-from-motion (Qin, Li &
/// Shen, TRO 2018, §V-A); Kaiser et al. (RA-L 2017) add it to the closed-form unknowns. Here the
/// rotations need no structure: for two frames `i`, `j` the bearings `fᵢ` and `R_ci_cj(b_g) f_j`
/// of a point and the baseline `t` are coplanar,
///
///     rₖ = t · (fᵢ × R_ci_cj(b_g) f_j) = 0,
///
/// with `R_ci_cj(b_g) = R_bcᵀ ΔR_ij(b_g) R_bc` from the preintegrated gyro (Forster et al. 2017,
/// eq. 44, to first order in the bias). Minimising Σ rₖ² over `t` (a unit vector per pair) gives the
/// smallest eigenvalue of Σ nₖnₖᵀ, Kneip & Lynen's rotation cost ("Direct optimization of
/// frame-to-frame rotation", ICCV 2013); here the rotation is known up to the bias, so Gauss–Newton
/// runs over `b_g` with each pair's baseline direction eliminated by its Schur complement.
/// Translation of any size is allowed, pure rotation included (then every `nₖ` vanishes at the
/// right bias). Residuals get Huber weights at twice their robust spread.
struct GyroBiasFromImages {
    /// The estimate and its spread.
    struct Solution {
        /// Gyroscope bias (rad/s, body frame).
        var bias: Vector3
        /// Largest standard deviation of the estimate over any direction (rad/s), from the
        /// residuals' robust spread.
        var sigma: Double
        /// Frame pairs used.
        var pairs: Int
    }

    let rig: CameraRig
    /// Seconds between the two frames of a pair (the bias turns them by `|b_g| · span`).
    var pairSpan = 0.3
    /// Points two frames of a pair must share.
    var minimumFeatures = 15
    /// Pairs needed for an estimate.
    var minimumPairs = 3
    /// Gauss–Newton iterations (it converges in 3–4 from zero).
    var iterations = 8
    /// Standard deviation (rad/s) of a weak prior at zero that keeps directions the images do not
    /// see from wandering.
    var priorSigma = 0.2
    /// Largest plausible bias (rad/s); a larger answer is refused.
    var maximumBias = 0.3
    /// The start's timing solve (``solveTimeShift``) predicts each pair's baseline from a velocity
    /// and gravity solved with it (``InertialBaselines``) instead of fitting one freely per pair.
    var inertialBaselines = true
    /// That solve's prior on gravity (m/s²) around minus the window's mean specific force.
    var gravitySigma = 1.5
    /// Gravity (m/s²) that solve may end at beyond 9.81 either way before it is not trusted.
    var gravityTolerance = 1.5
    /// How much larger its sum of squared residuals may be than the free baselines' before it is
    /// not trusted (the free fit has two more unknowns per pair, so it is always lower).
    var coupledCostRatio = 2.0
    /// Gauss–Newton iterations of that solve, and the step (s of shift, rad/s of bias, s of readout
    /// over a thousand rows, 0.01 × m/s of velocity) under which it has converged.
    var coupledIterations = 20
    var coupledTolerance = 1e-5
    /// Largest multiple of its first limit (0.01 rad/s) the bias step of that solve may grow to
    /// while the steps keep lowering the cost (an adaptive trust region; 1 keeps the limit fixed).
    var coupledBiasReach = 8.0
    /// Fraction of each unknown's standard deviation under which every step of that solve must
    /// fall for it to have converged, besides ``coupledTolerance``.
    var coupledConvergedFraction = 0.1
    /// Shortest median baseline (m) that solve trusts: below it the camera mostly turns, an error of
    /// 0.1 m/s² in gravity or the accelerometer's bias moves a 0.3 s baseline by 4.5 mm, and the
    /// predicted directions say little (a pure rotation left the gyro bias 3 mrad/s off, against
    /// 0.1 with free baselines, which then vanish from the residuals as they should).
    var coupledMinimumBaseline = 0.02

    /// One pair's data: bearings in frame i and in frame j, and the preintegrated gyro i → j.
    struct Pair {
        var first: [Vector3]
        var second: [Vector3]
        var preintegration: Preintegration
        /// Times of the two frames (IMU clock).
        var from: Double, to: Double
        var baseline: Vector3 = Vector3(0, 0, 1)
        /// Each bearing's cam0 row counted from the frame time's row, in frame i and in frame j
        /// (zero when the frames keep no rows).
        var firstRows: [Double] = [], secondRows: [Double] = []
    }

    /// Solves over `frames` (ascending times, on the IMU clock) with IMU `samples` covering them;
    /// nil when fewer than ``minimumPairs`` pairs share enough points or the solve fails.
    func solve(frames: [VisualInertialAlignment.Frame], samples: ArraySlice<IMUMeasurement>,
               noise: IMUNoise) -> Solution? {
        var pairs = makePairs(frames: frames, samples: samples, noise: noise)
        guard pairs.count >= minimumPairs else { return nil }
        // Free baselines take up part of the turn a bias error causes, as they do a time shift's
        // (docs/tracking-design.md, "The start's timing with baselines from the IMU"): the
        // coupled solve with the frame times held answers first.
        if inertialBaselines,
           let found = solveTimeShift(pairs, samples: samples, noise: noise, bias: .zero, maximumShift: 0.001,
                                      shiftPrior: 1e-7, lineDelayPriorSigma: nil, coupled: true) {
            return Solution(bias: found.bias, sigma: found.biasSigma, pairs: pairs.count)
        }
        let rbc = rig.R_body_cam0
        var bias = Vector3.zero
        var scale = 0.0
        var reduced = Matrix3.zero
        for iteration in 0..<iterations {
            // The first-order bias correction is off by (|b_g| Δt)² (2 mrad for 0.13 rad/s over
            // 0.3 s), and the rotation–translation ambiguity of small turns magnifies model errors
            // into bias: integrate again at the current estimate once it has moved.
            if iteration > 0 {
                for p in pairs.indices where (pairs[p].preintegration.biasGyro - bias).norm > 1e-4 {
                    guard let pre = integrate(samples, from: pairs[p].from, to: pairs[p].to, bias: bias, noise: noise) else { return nil }
                    pairs[p].preintegration = pre
                }
            }
            let rotations = pairs.map { rotation($0.preintegration, bias: bias, rbc: rbc) }
            guard let spread = fitBaselines(&pairs, rotations: rotations) else { return nil }
            scale = spread
            let huber = 2 * scale
            // Normal equations in δb_g with each pair's tangent baseline update α eliminated.
            var h = Matrix3.identity * (scale * scale / (priorSigma * priorSigma))
            var b = -bias * (scale * scale / (priorSigma * priorSigma))
            for (pair, r) in zip(pairs, rotations) {
                let rot = pair.preintegration.correctedRotation(biasGyro: bias)
                let jr = pair.preintegration.dR_dbg
                let t = pair.baseline
                let (e1, e2) = Self.tangentBasis(t)
                var hbb = Matrix3.zero, hba = [Vector3.zero, Vector3.zero]
                var haa = [[1e-12, 0.0], [0.0, 1e-12]]
                var gb = Vector3.zero, ga = [0.0, 0.0]
                for (f, g) in zip(pair.first, pair.second) {
                    let u = rbc * g
                    let n = f.cross(r * g)
                    let res = t.dot(n)
                    let w = abs(res) <= huber ? 1 : huber / abs(res)
                    // ∂r/∂δb_g = (t × f)ᵀ ∂(R g)/∂δb_g, ∂(R g)/∂δb_g = −R_bcᵀ ΔR [u]× J_r.
                    let dg = -1 * (rbc.transpose * rot * Matrix3.skew(u) * jr)
                    let tf = t.cross(f)
                    let jb = dg.transpose * tf
                    let jt = [n.dot(e1), n.dot(e2)]
                    hbb += Matrix3.outer(jb, jb) * w
                    gb += jb * (-w * res)
                    for a in 0..<2 {
                        hba[a] += jb * (w * jt[a])
                        ga[a] -= w * jt[a] * res
                        for c in 0..<2 { haa[a][c] += w * jt[a] * jt[c] }
                    }
                }
                // Schur complement of the 2×2 baseline block.
                let det = haa[0][0] * haa[1][1] - haa[0][1] * haa[1][0]
                guard det > 0 else { continue }
                let inv = [[haa[1][1] / det, -haa[0][1] / det], [-haa[1][0] / det, haa[0][0] / det]]
                var hs = hbb, gs = gb
                for a in 0..<2 {
                    for c in 0..<2 {
                        hs = hs - Matrix3.outer(hba[a], hba[c]) * inv[a][c]
                        gs = gs - hba[a] * (inv[a][c] * ga[c])
                    }
                }
                h += hs
                b += gs
            }
            guard let hi = h.inverse else { return nil }
            let step = hi * b
            guard step.x.isFinite, step.y.isFinite, step.z.isFinite else { return nil }
            bias += step
            reduced = h
            if step.norm < 1e-6, iteration > 0 { break }
        }
        guard bias.norm <= maximumBias, let covariance = reduced.inverse else { return nil }
        let spread = (0..<3).map { covariance[$0, $0] }.max() ?? .infinity
        let sigma = scale * spread.squareRoot()
        guard sigma.isFinite else { return nil }
        return Solution(bias: bias, sigma: sigma, pairs: pairs.count)
    }

    /// Sets each pair's baseline for its rotation `rotations[p]` (the smallest eigenvector of
    /// Σ nₖnₖᵀ) and returns the residuals' robust spread (1.4826 × median |rₖ|, at least 1e-6);
    /// nil when an eigen-decomposition fails.
    func fitBaselines(_ pairs: inout [Pair], rotations: [Matrix3]) -> Double? {
        var residuals: [Double] = []
        for p in pairs.indices {
            let r = rotations[p]
            var m = Matrix3.zero
            for (f, g) in zip(pairs[p].first, pairs[p].second) {
                let n = f.cross(r * g)
                m += Matrix3.outer(n, n)
            }
            guard let eigen = try? SymmetricEigen(Matrix(m)) else { return nil }
            let t = Vector3(eigen.vectors[0, 0], eigen.vectors[1, 0], eigen.vectors[2, 0])
            pairs[p].baseline = t
            for (f, g) in zip(pairs[p].first, pairs[p].second) { residuals.append(t.dot(f.cross(r * g))) }
        }
        return max(1e-6, 1.4826 * upperMedian(residuals.map { abs($0) }))
    }

    /// Two unit vectors spanning the plane normal to the unit baseline `t`: the directions its
    /// tangent update moves in.
    static func tangentBasis(_ t: Vector3) -> (Vector3, Vector3) {
        let helper = abs(t.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let e1 = t.cross(helper).normalized
        return (e1, t.cross(e1))
    }

    /// `R_ci_cj` for gyro bias `bias`: cam0 of frame j in cam0 of frame i.
    func rotation(_ pre: Preintegration, bias: Vector3, rbc: Matrix3) -> Matrix3 {
        rbc.transpose * pre.correctedRotation(biasGyro: bias) * rbc
    }

    /// Frames `pairSpan` apart (each frame with the first one at least that much later), with the
    /// cam0 bearings they share and the gyro integrated between them at zero bias.
    func makePairs(frames: [VisualInertialAlignment.Frame], samples: ArraySlice<IMUMeasurement>,
                           noise: IMUNoise) -> [Pair] {
        var pairs: [Pair] = []
        for (i, first) in frames.enumerated() {
            guard let second = frames[(i + 1)...].first(where: { $0.time - first.time >= pairSpan * 0.95 }),
                  second.time - first.time <= pairSpan * 2 else { continue }
            func row(_ frame: VisualInertialAlignment.Frame, _ k: Int) -> Double {
                frame.rowOffsets.count == frame.observations.count ? frame.rowOffsets[k].left : 0
            }
            var lookup: [Int: (Vector2, Double)] = [:]
            for (k, o) in first.observations.enumerated() { lookup[o.id] = (o.left, row(first, k)) }
            var a: [Vector3] = [], b: [Vector3] = [], rowsA: [Double] = [], rowsB: [Double] = []
            for (k, o) in second.observations.enumerated() {
                guard let (z, rowA) = lookup[o.id] else { continue }
                a.append(Vector3(z.x, z.y, 1).normalized)
                b.append(Vector3(o.left.x, o.left.y, 1).normalized)
                rowsA.append(rowA)
                rowsB.append(row(second, k))
            }
            guard a.count >= minimumFeatures, samples.contains(where: { $0.timestamp <= first.time }),
                  let pre = integrate(samples, from: first.time, to: second.time, bias: .zero, noise: noise) else { continue }
            pairs.append(Pair(first: a, second: b, preintegration: pre, from: first.time, to: second.time,
                              firstRows: rowsA, secondRows: rowsB))
        }
        return pairs
    }

    /// The IMU from `from` to `to` preintegrated at gyro bias `bias`; nil across a gap.
    func integrate(_ samples: ArraySlice<IMUMeasurement>, from: Double, to: Double, bias: Vector3,
                           noise: IMUNoise) -> Preintegration? {
        var pre = Preintegration(biasGyro: bias, biasAccel: .zero, noise: noise, tracksCovariance: false)
        for segment in IMUSegment.split(samples, from: from, to: to, maxGap: 0.05) {
            guard !segment.isGap else { return nil }
            pre.integrate(gyro: segment.gyro, accel: segment.accel, dt: segment.duration)
        }
        return pre.deltaTime > 0 ? pre : nil
    }
}

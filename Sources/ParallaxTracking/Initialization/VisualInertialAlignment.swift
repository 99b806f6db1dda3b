import Foundation
import ParallaxDatasets
import ParallaxMath

/// Closed-form visual–inertial alignment for initialising while moving (mono or stereo).
///
/// Follows the linear formulation of Martinelli ("Closed-form solution of visual-inertial structure
/// from motion", IJCV 2014) in the form of Kaiser, Martinelli, Fontana & Scaramuzza ("Simultaneous
/// state initialization and gyroscope bias calibration in visual inertial aided navigation",
/// RA-L 2017): with rotations from the gyroscope and positions from the preintegrated
/// accelerometer, every bearing observation is *linear* in the unknowns
/// `θ = [v₀, g₀]` (velocity and gravity in the first body frame) and the feature positions `X_f`
/// (and the accelerometer bias, below).
///
/// Frame `i` at time `tᵢ` (relative to the first frame) has, in the first body frame,
///
///     p_i = v₀ tᵢ + ½ g₀ tᵢ² + Δp_0i + J_p,i b_a,   R_i = ΔR_0i,
///
/// and a bearing `d` (cam0 or cam1, rotated into the first body frame) from camera centre
/// `c = p_i + R_i p_bc` constrains `X_f`: `[d]× (X_f − c) = 0`. We minimise the sum of squared
/// ray-to-point distances `Σ (X_f − c)ᵀ (I − d dᵀ) (X_f − c)` with unit `d`, eliminate each `X_f`
/// by its 3×3 Schur complement, and solve the 6×6 system in `θ` with `‖g₀‖ = 9.81` enforced exactly
/// (a trust-region style secular equation on the 3×3 gravity block). The gyroscope bias comes in
/// known (``GyroBiasFromImages``, solved first as VINS-Mono does): a turn-on bias of 0.03 rad/s
/// turns a one-second window's rays by 2°, enough to tilt the answer. The accelerometer bias b_a
/// enters linearly too, through the preintegration's ∂Δp/∂b_a (VINS-Mono refines it in its
/// alignment the same way), with a zero-mean prior (``accelBiasSigma``): the window barely tells a
/// horizontal bias from a tilt, but taken as zero a 0.64 m/s² bias tilted a hand-held start's
/// answer by 20°. The system is solved over θ = [v₀, g₀, b_a] with b_a eliminated first (Schur
/// complement), and the filter starts from the bias found.
///
/// A second pass reweights each ray by the inverse squared distance from the first pass, turning
/// the metric distances into angular errors so distant points do not dominate.
///
/// Distances have a flaw angles do not: shrinking the camera path (the velocity towards zero)
/// shrinks them too. When the acceleration in the window is weak the data barely pin the scale,
/// and the least-squares answer slides towards a collapsed path — on a simulated drone cruising at
/// 0.4 m/s it answered 0.08 m/s and a 1.6° tilt error from noise-free images and IMU, and the
/// filter diverged. The linear answer is therefore refined on the (truncated) angular error:
/// first a line search along the weakest direction of the normal equations, then a Nelder–Mead
/// simplex over velocity and gravity direction (0.17 px against the truth's 0.17 px on that case;
/// about 80 ms once per initialisation).
struct VisualInertialAlignment {
    /// A bearing `d` (unit, first body frame) from a camera centre whose IMU-known part is `k`,
    /// at time `t` after the first frame; `jba` = ∂Δp/∂b_a of its frame (how the centre moves with
    /// the accelerometer bias).
    /// `s` turns a cam1 bearing with the pair's disparity offset δ (``disparityOffsetSigma``):
    /// the bearing is `normalize(d + δ s)`; zero for cam0.
    typealias Ray = (d: Vector3, k: Vector3, t: Double, jba: Matrix3, s: Vector3)

    /// One image's features: normalised cam0 (and cam1) coordinates by feature id.
    struct Frame {
        var time: Double
        var observations: [(id: Int, left: Vector2, right: Vector2?)]
        /// Each observation's image rows counted from the row the frame time refers to (cam0, cam1),
        /// for a rolling shutter whose readout is not known yet; empty when not kept.
        var rowOffsets: [(left: Double, right: Double?)] = []
    }

    /// Velocity and gravity expressed in the body frame of the newest frame.
    struct Solution {
        var gravity: Vector3
        var velocity: Vector3
        /// Features that entered the solve.
        var featureCount: Int
        /// ‖g₀‖ of the unconstrained solve divided by 9.81 (1 when the data agree with gravity).
        var gravityRatio: Double
        /// Accelerometer bias (body frame, m/s²) solved with them under the prior
        /// ``VisualInertialAlignment/accelBiasSigma`` (zero when that is 0).
        var biasAccel = Vector3.zero
        /// RMS angle (rad, truncated at 10 mrad) between the rays and the points triangulated from
        /// the answer: how well it explains the images.
        var angularError = 0.0
        /// Covariance (9 × 9) of the answer's errors, ordered [gravity, velocity, accelerometer
        /// bias] in the newest body frame (``VisualInertialAlignment/answerCovariance(information:raySigma:gravity:last:)``);
        /// nil when the normal matrix was singular.
        var covariance: Matrix?
    }

    let rig: CameraRig
    /// Gyroscope bias (rad/s) the rotations are integrated with.
    var biasGyro = Vector3.zero
    var gravityMagnitude = 9.81
    /// Minimum number of frames of a feature used in the solve (stereo pairs count once).
    var minimumObservations = 3
    /// Rays must span at least this angle (rad) for a feature to constrain anything.
    var minimumParallax = 0.02
    /// Least-squares passes: the first minimises metric ray-to-point distances, the others
    /// reweight every ray by its inverse squared distance from the previous pass (angular error).
    var passes = 2
    /// Distance (m) below which the reweighting stops growing.
    var minimumDepth = 0.5
    /// Refine the linear answer by minimising the angular error (see
    /// ``refineAlongWeakestDirection(_:h:rays:magnitude:)`` and ``refineAngular(_:rays:magnitude:disparityOffsetSigma:iterations:)``,
    /// both scoring against one ``AlignmentRayTable`` of the solve's rays).
    var refinesAngularError = true
    /// Minimum number of usable features.
    var minimumFeatures = 15
    /// The unconstrained gravity magnitude must lie within this fraction of 9.81.
    var gravityTolerance = 0.2
    /// Prior σ (m/s²) of the accelerometer bias solved with velocity and gravity; 0 takes it as
    /// zero. Why: an unmodelled bias of 0.64 m/s² (a 2.75 σ draw of EuRoC-size turn-on biases) made
    /// the alignment answer a gravity 20° off on a hand-held mid-flight start, which the filter
    /// could not recover from.
    var accelBiasSigma = 0.2
    /// σ of a ray's error as a distance (m, first pass) and as an angle (rad, reweighted passes),
    /// for the weight of the bias prior: about seven pixels' angle, because a start's rays also carry
    /// the not yet estimated time offset, readout and calibration. With 0.003 rad (one to two pixels)
    /// the bias took up those errors on hand-held phone starts at 15 s (37–59 cm instead of 2 cm over
    /// four bias draws); with 0.03 the bias a room3 start needed stayed partly in the tilt (2.1 cm).
    var rayDistanceSigma = 0.03, rayAngleSigma = 0.015
    /// σ (m/s²) of the accelerometer bias in the answer's ``Solution/covariance``, also for an
    /// answer that held the bias at zero: the bias is unknown either way, and it trades against the
    /// tilt and the speed in a short window.
    var covarianceBiasSigma = 0.2
    /// σ (rad) of each ray's angle in the answer's ``Solution/covariance``, or the answer's own RMS
    /// misfit when that is larger (``TrackerConfiguration/InitializationPriors/alignedRayAngleSigma``).
    var covarianceRayAngleSigma = 0.005
    /// Prior σ (normalised image units) of a constant offset of cam1's horizontal coordinate, solved
    /// with velocity and gravity in the angular refinement; 0 holds it at zero. Why: the pair's
    /// relative calibration error (cam1's rotation about the image's vertical axis, the two
    /// principal points) shifts every disparity alike. Epipolar lines cannot show it (they run
    /// along the shift), and it biases the depth of far points, whose disparity is a few pixels.
    /// ``TrackerConfiguration/alignmentDisparityOffsetSigma`` for a stereo start.
    var disparityOffsetSigma = 0.0
    /// Smallest solved offset (normalised units, ≈ 0.5 px) that is kept; under it the answer is
    /// refined without one. Why: on the ideal-calibration Gore walk the start solved 0.0004 (the
    /// true offset is zero), and that change of the start alone took the 30 s walk from 0.92 to
    /// 1.66 cm; the offsets of `--sensor euroc` sets that the answer needs are 0.0019–0.0057.
    var minimumDisparityOffset = 0.001
    /// Largest ``Solution/angularError`` (rad) of an answer that is returned: rays that miss by more
    /// carry what the model leaves out (``TrackerConfiguration/alignmentMaximumError``).
    var maximumAngularError = Double.infinity
    /// Largest angle (rad) between the gravity of the answers with and without the accelerometer
    /// bias (``bestModel(frames:samples:noise:)``) for which one of them is returned; beyond it the
    /// window cannot tell a bias from a tilt and a velocity yet, and there is no answer
    /// (``TrackerConfiguration/alignmentModelDisagreement``).
    var maximumModelDisagreement = Double.infinity

    /// Solves over `frames` (ascending times) with IMU `samples` covering them; nil when the
    /// motion does not make velocity and gravity observable (too little parallax or excitation), or
    /// when the answer misses its rays by more than ``maximumAngularError``, or when the answers with
    /// and without the accelerometer bias disagree by more than ``maximumModelDisagreement``.
    func solve(frames: [Frame], samples: ArraySlice<IMUMeasurement>, noise: IMUNoise) -> Solution? {
        if case .answer(let solution) = attempt(frames: frames, samples: samples, noise: noise) { return solution }
        return nil
    }

    /// What an attempt to solve found.
    enum Outcome {
        /// An answer within ``maximumAngularError``.
        case answer(Solution)
        /// Two answers (accelerometer bias solved and taken as zero) that both fit within
        /// ``maximumAngularError`` but disagree on gravity by more than
        /// ``maximumModelDisagreement``.
        case disagreement(withBias: Solution, withoutBias: Solution)
        /// No answer: too little parallax or excitation, or rays that miss.
        case none
    }

    /// ``solve(frames:samples:noise:)``, telling an answer refused for disagreement apart from none.
    func attempt(frames: [Frame], samples: ArraySlice<IMUMeasurement>, noise: IMUNoise) -> Outcome {
        attemptCounted(frames: frames, samples: samples, noise: noise).outcome
    }

    /// ``attempt(frames:samples:noise:)``, also returning the CPU milliseconds its second model
    /// spent on another thread (see ``bestModel(frames:samples:noise:)``), which the caller's
    /// thread clock does not see.
    func attemptCounted(frames: [Frame], samples: ArraySlice<IMUMeasurement>,
                        noise: IMUNoise) -> (outcome: Outcome, elsewhereMilliseconds: Double) {
        let (outcome, elsewhere) = bestModel(frames: frames, samples: samples, noise: noise)
        switch outcome {
        case .answer(let solution): return (solution.angularError <= maximumAngularError ? .answer(solution) : .none, elsewhere)
        case let other: return (other, elsewhere)
        }
    }

    /// The better fitting of the answers with and without the accelerometer bias, or their
    /// disagreement.
    ///
    /// The two solves are independent, so they run at once on two threads (each is the same
    /// arithmetic as alone: the answers are bit-identical). Why: a mono start that waits for its
    /// two answers to agree solves both over the whole window on every frame, 125–210 ms of CPU
    /// on a hand-held start (about 4 000 rays), and a live session stalls for as long; before the
    /// first pose the second core is otherwise idle (the mapper has no keyframes yet). After a
    /// reset the mapper may be busy; the two solves then share the cores, with the same answers.
    private func bestModel(frames: [Frame], samples: ArraySlice<IMUMeasurement>, noise: IMUNoise) -> (Outcome, Double) {
        // With the bias free, the linear solve can also hand the bias what belongs to a weakly
        // observed velocity (a drone cruising: V1_01 mono from 8 s ended at 11 cm this way, against
        // 2.1 with the bias at zero); the angular refinement then keeps that bias. Both models are
        // therefore solved and the one whose refined rays fit better (RMS angle) is kept: on the
        // room3 start the bias model fits 0.62 against 0.88 mrad, on that flight 1.37 against 0.95.
        var withoutBiasModel = self
        withoutBiasModel.accelBiasSigma = 0
        let plain = withoutBiasModel
        guard accelBiasSigma > 0 else { return (plain.solveOnce(frames: frames, samples: samples, noise: noise).map { .answer($0) } ?? .none, 0) }
        let pair = SolvePair()
        let caller = pthread_self()
        DispatchQueue.concurrentPerform(iterations: 2) { model in
            let start = ThreadClock.milliseconds()
            let solution = (model == 0 ? plain : self).solveOnce(frames: frames, samples: samples, noise: noise)
            let elsewhere = pthread_equal(pthread_self(), caller) == 0 ? ThreadClock.milliseconds() - start : 0
            if model == 0 { pair.withoutBias = solution; pair.withoutBiasElsewhere = elsewhere }
            else { pair.withBias = solution; pair.withBiasElsewhere = elsewhere }
        }
        let elsewhere = pair.withoutBiasElsewhere + pair.withBiasElsewhere
        let withoutBias = pair.withoutBias
        guard let withBias = pair.withBias else { return (withoutBias.map { .answer($0) } ?? .none, elsewhere) }
        guard let withoutBias else { return (.answer(withBias), elsewhere) }
        // Both fit to about the images' noise, so the better fit alone may pick the wrong one: only
        // when they agree on gravity does it not matter which.
        let disagreement = acos(min(1, max(-1, withBias.gravity.normalized.dot(withoutBias.gravity.normalized))))
        guard disagreement <= maximumModelDisagreement else {
            guard max(withBias.angularError, withoutBias.angularError) <= maximumAngularError else { return (.none, elsewhere) }
            return (.disagreement(withBias: withBias, withoutBias: withoutBias), elsewhere)
        }
        return (.answer(withBias.angularError < withoutBias.angularError ? withBias : withoutBias), elsewhere)
    }

    /// The two models' answers and the CPU each spent off the calling thread; each of the two
    /// solves writes only its own two properties (`@unchecked`).
    private final class SolvePair: @unchecked Sendable {
        var withoutBias: Solution?, withBias: Solution?
        var withoutBiasElsewhere = 0.0, withBiasElsewhere = 0.0
    }

    /// One solve with this configuration's bias prior.
    func solveOnce(frames: [Frame], samples: ArraySlice<IMUMeasurement>, noise: IMUNoise) -> Solution? {
        guard frames.count >= minimumObservations, let t0 = frames.first?.time, let tN = frames.last?.time,
              tN - t0 > 0.2 else { return nil }
        // Preintegrated deltas from the first frame to each frame (accelerometer bias zero, with
        // their first-order change for a bias b_a: Δp + J_p b_a, Δv + J_v b_a).
        var deltas: [(r: Matrix3, v: Vector3, p: Vector3, t: Double, jp: Matrix3, jv: Matrix3)] = []
        var pre = Preintegration(biasGyro: biasGyro, biasAccel: .zero, noise: noise, tracksCovariance: false)
        guard samples.contains(where: { $0.timestamp <= t0 }) else { return nil }
        var current = t0
        for frame in frames {
            for segment in IMUSegment.split(samples, from: current, to: frame.time, maxGap: 0.05) {
                guard !segment.isGap else { return nil }   // IMU gap
                pre.integrate(gyro: segment.gyro, accel: segment.accel, dt: segment.duration)
            }
            current = max(current, frame.time)
            deltas.append((pre.deltaRotation, pre.deltaVelocity, pre.deltaPosition, frame.time - t0, pre.dP_dba, pre.dV_dba))
        }

        // Rays per feature id: (unit bearing in the first body frame, camera centre's known part, t).
        var rays: [Int: [Ray]] = [:]
        var frameCount: [Int: Int] = [:]
        for (i, frame) in frames.enumerated() {
            let (r, p, t, jp) = (deltas[i].r, deltas[i].p, deltas[i].t, deltas[i].jp)
            for o in frame.observations {
                frameCount[o.id, default: 0] += 1
                let cams: [(Int, Vector2)] = [(0, o.left)] + (o.right.map { rig.hasRight ? [(1, $0)] : [] } ?? [])
                for (cam, z) in cams {
                    let (rc, pc) = rig.cameraPose(cam, bodyRotation: r, bodyPosition: p)
                    let bearing = rc * Vector3(z.x, z.y, 1)
                    // ∂(bearing / ‖bearing‖) for a shift of x by δ, to first order in the norm.
                    let s = cam == 1 ? rc * Vector3(1, 0, 0) * (1 / bearing.norm) : .zero
                    rays[o.id, default: []].append((bearing.normalized, pc, t, jp, s))
                }
            }
        }
        let ids = rays.keys.sorted().filter { (frameCount[$0] ?? 0) >= minimumObservations }

        var theta: [Double]?
        var points: [Int: Vector3] = [:], centres: [Int: [Vector3]] = [:]
        var used = 0
        var ratio = 0.0
        var lastH = Matrix(rows: 6, cols: 6)
        var lastInformation: Matrix?
        var biasAccel = Vector3.zero
        let n = Self.unknowns
        for pass in 0..<passes {
            var h = Matrix(rows: n, cols: n), b = [Double](repeating: 0, count: n)
            used = 0
            for id in ids {
                guard let list = rays[id] else { continue }
                // Parallax: the widest angle between the first ray and the others.
                let first = list[0].d
                let spread = list.dropFirst().reduce(0.0) { max($0, acos(min(1, max(-1, first.dot($1.d))))) }
                guard spread >= minimumParallax else { continue }
                // Per-ray weight 1/‖X − c‖² from the previous pass turns the ray-to-point distance
                // into the angular error (iteratively reweighted least squares).
                let point = points[id]
                var a = Matrix3.zero, c = Matrix(rows: 3, cols: n), e = Vector3.zero
                var jmj = Matrix(rows: n, cols: n), jmk = [Double](repeating: 0, count: n)
                for (index, ray) in list.enumerated() {
                    let w = point.map { 1 / max(minimumDepth * minimumDepth, ($0 - centres[id]![index]).squaredNorm) } ?? 1
                    let m = (Matrix3.identity - Matrix3.outer(ray.d, ray.d)) * w
                    a += m
                    e += m * ray.k
                    // J = [t I, ½t² I, J_p] (the centre's change with v₀, g₀ and b_a).
                    let j = Self.jacobian(ray)
                    let mj = Matrix(m) * j
                    c += mj
                    jmj += j.transposeTimes(mj)
                    let mk = m * ray.k
                    let jtmk = j.transposeTimes(Matrix(column: [mk.x, mk.y, mk.z]))
                    for p in 0..<n { jmk[p] += jtmk[p, 0] }
                }
                guard let ai = a.inverse, a.determinant > 1e-12 * pow(Double(list.count), 3) else { continue }
                // Reduced normal equations: (ΣJᵀMJ − CᵀA⁻¹C) θ = CᵀA⁻¹e − ΣJᵀMk.
                let aic = Matrix(ai) * c
                let aie = ai * e
                for p in 0..<n {
                    var rhs = -jmk[p]
                    for q in 0..<3 { rhs += c[q, p] * aie[q] }
                    b[p] += rhs
                    for q in 0..<n {
                        var v = jmj[p, q]
                        for r in 0..<3 { v -= c[r, p] * aic[r, q] }
                        h[p, q] += v
                    }
                }
                used += 1
            }
            guard used >= minimumFeatures else { return nil }
            // The bias prior (mean zero), in the units of the rays' errors, then the bias eliminated:
            // the gravity-norm solve runs on the reduced [v₀, g₀] system.
            guard let reduced = reduce(h: h, b: b, raySigma: pass == 0 ? rayDistanceSigma : rayAngleSigma)
            else { return nil }
            lastH = reduced.h
            lastInformation = h
            guard let free = try? Cholesky(reduced.h).solve(reduced.b) else { return nil }
            ratio = Vector3(free[3], free[4], free[5]).norm / gravityMagnitude
            guard abs(ratio - 1) <= gravityTolerance else { return nil }
            guard let constrained = Self.solveWithGravityNorm(h: reduced.h, b: reduced.b, magnitude: gravityMagnitude)
            else { return nil }
            theta = constrained
            biasAccel = reduced.bias(constrained)
            // Points and camera centres for the next pass's weights.
            if pass + 1 < passes {
                for id in ids {
                    guard let list = rays[id].map({ Self.shifted($0, biasAccel) }) else { continue }
                    let c = Self.centres(list, constrained)
                    guard let x = Self.triangulate(list, centres: c, reweightings: 0) else { continue }
                    points[id] = x
                    centres[id] = c
                }
            }
        }
        guard var theta, let last = deltas.last else { return nil }
        var disparityOffset = 0.0
        let usable = ids.compactMap { rays[$0].map { Self.shifted($0, biasAccel) } }.filter { $0.count >= minimumObservations }
        // One layout of the rays for every angular error the refinements and the answer need.
        let table = AlignmentRayTable(usable)
        if refinesAngularError {
            if let refined = Self.refineAlongWeakestDirection(theta, h: lastH, rays: table, magnitude: gravityMagnitude) {
                theta = refined
            }
            let start = theta
            (theta, disparityOffset) = Self.refineAngular(start, rays: table, magnitude: gravityMagnitude,
                                                          disparityOffsetSigma: disparityOffsetSigma)
            // An offset within what the rays can tell is none: the answer without it is kept.
            if disparityOffset != 0, abs(disparityOffset) < minimumDisparityOffset {
                (theta, disparityOffset) = Self.refineAngular(start, rays: table, magnitude: gravityMagnitude)
            }
        }
        let finalError = table.angularError(theta, disparityOffset: disparityOffset)
        let v0 = Vector3(theta[0], theta[1], theta[2]), g0 = Vector3(theta[3], theta[4], theta[5])
        // Newest frame: v_N = v₀ + g₀ t + Δv + J_v b_a (first body frame), then into body N.
        let vN = v0 + g0 * last.t + last.v + last.jv * biasAccel
        // The last pass weighed angles (a reweighted pass) or, alone, distances.
        let raySigma = passes > 1 ? max(covarianceRayAngleSigma, finalError) : rayDistanceSigma
        let covariance = lastInformation.flatMap {
            answerCovariance(information: $0, raySigma: raySigma, gravity: g0, last: (last.r, last.t, last.jv))
        }
        return Solution(gravity: last.r.transpose * g0, velocity: last.r.transpose * vN, featureCount: used,
                        gravityRatio: ratio, biasAccel: biasAccel, angularError: finalError, covariance: covariance)
    }

    /// Covariance of the answer's errors in the newest body frame, ordered [g_N, v_N, b_a]: the
    /// inverse of the last pass's normal matrix (points eliminated) with each ray's error σ
    /// `raySigma` (an angle after the reweighted passes: ``covarianceRayAngleSigma``, about two
    /// pixels, for the start's unestimated timing and calibration, which the rays' RMS misfit of
    /// about 1 mrad does not show: with it the speed errors of 72 starts were 2–100 σ) and the
    /// bias's prior ``covarianceBiasSigma``, conditioned on ‖g₀‖ (held at 9.81), then carried to
    /// the newest frame (g_N = R_N0ᵀ g₀, v_N = R_N0ᵀ (v₀ + g₀ t + Δv + J_v b_a)).
    ///
    /// Why: the unknowns are strongly correlated. A window that cannot tell a horizontal bias from
    /// a tilt and a speed pins their combination and leaves the trade between them loose; a filter
    /// started from independent priors believes each. On 72 mono sweep starts the filter's velocity
    /// σ fell to 0.005 m/s within a second while the speed was 0.1–0.2 m/s off.
    func answerCovariance(information h: Matrix, raySigma: Double, gravity g0: Vector3,
                          last: (r: Matrix3, t: Double, jv: Matrix3)) -> Matrix? {
        let n = Self.unknowns
        guard raySigma > 0, covarianceBiasSigma > 0, g0.norm > 0 else { return nil }
        var information = h * (1 / (raySigma * raySigma))
        for p in 6..<9 { information[p, p] += 1 / (covarianceBiasSigma * covarianceBiasSigma) }
        guard let factor = try? Cholesky(information) else { return nil }
        var sigma = factor.inverse
        // Conditioned on the known ‖g₀‖: Σ − Σ jᵀ (j Σ jᵀ)⁻¹ j Σ with j = ∂‖g₀‖/∂θ = [0, ĝ₀ᵀ, 0].
        let u = g0.normalized
        let sj = (0..<n).map { p in (0..<3).reduce(0.0) { $0 + sigma[p, 3 + $1] * u[$1] } }
        let jsj = (0..<3).reduce(0.0) { $0 + u[$1] * sj[3 + $1] }
        guard jsj > 0 else { return nil }
        for p in 0..<n { for q in 0..<n { sigma[p, q] -= sj[p] * sj[q] / jsj } }
        // [g_N, v_N, b_a] = A [v₀, g₀, b_a].
        let rt = last.r.transpose
        var a = Matrix(rows: n, cols: n)
        a.setBlock(row: 0, col: 3, rt)
        a.setBlock(row: 3, col: 0, rt)
        a.setBlock(row: 3, col: 3, rt * last.t)
        a.setBlock(row: 3, col: 6, rt * last.jv)
        a.setBlock(row: 6, col: 6, Matrix3.identity)
        return a * sigma * a.transpose
    }

    /// Unknowns of the linear system: v₀, g₀ and the accelerometer bias b_a.
    static let unknowns = 9

    /// The 3 × 9 Jacobian of a ray's camera centre with respect to [v₀, g₀, b_a].
    static func jacobian(_ ray: Ray) -> Matrix {
        var j = Matrix(rows: 3, cols: unknowns)
        for q in 0..<3 {
            j[q, q] = ray.t
            j[q, 3 + q] = 0.5 * ray.t * ray.t
            for r in 0..<3 { j[q, 6 + r] = ray.jba[q, r] }
        }
        return j
    }

    /// `rays` with the bias's part of the centre folded into their known part.
    static func shifted(_ rays: [Ray], _ bias: Vector3) -> [Ray] {
        rays.map { ($0.d, $0.k + $0.jba * bias, $0.t, $0.jba, $0.s) }
    }

    /// The 9 × 9 system with the bias prior added and the bias eliminated (Schur complement):
    /// the 6 × 6 system in [v₀, g₀] and the map from its answer back to the bias. `raySigma` is the
    /// rays' error in this pass's unit (distance in the first pass, angle after it); the prior is
    /// (σ_ray / σ_ba)² in either.
    private func reduce(h: Matrix, b: [Double], raySigma: Double) -> (h: Matrix, b: [Double], bias: ([Double]) -> Vector3)? {
        let hxx = h.block(row: 0, col: 0, rows: 6, cols: 6), bx = Array(b[0..<6])
        guard accelBiasSigma > 0 else { return (hxx, bx, { _ in .zero }) }
        let hbx = h.block(row: 6, col: 0, rows: 3, cols: 6), bb = Vector3(b[6], b[7], b[8])
        var hbb = h.block3(row: 6, col: 6)
        let prior = (raySigma / accelBiasSigma) * (raySigma / accelBiasSigma)
        for p in 0..<3 { hbb[p, p] += prior }
        guard let hbbInv = hbb.inverse else { return nil }
        // H' = Hxx − Hxb Hbb⁻¹ Hbx, b' = bx − Hxb Hbb⁻¹ bb.
        let k = Matrix(hbbInv) * hbx
        let kb = hbbInv * bb
        let hxbKb = hbx.transposeTimes(Matrix(column: [kb.x, kb.y, kb.z]))
        return (hxx - hbx.transposeTimes(k), (0..<6).map { bx[$0] - hxbKb[$0, 0] }, { x in
            var v = kb
            for p in 0..<3 { for q in 0..<6 { v[p] -= k[p, q] * x[q] } }
            return v
        })
    }

    /// Camera centres of `rays` (in the first body frame) for θ = [v₀, g₀]: c = k + v₀t + ½g₀t².
    static func centres(_ rays: [Ray], _ theta: [Double]) -> [Vector3] {
        let v0 = Vector3(theta[0], theta[1], theta[2]), g0 = Vector3(theta[3], theta[4], theta[5])
        return rays.map { $0.k + v0 * $0.t + g0 * (0.5 * $0.t * $0.t) }
    }

    /// The point closest to the rays from `centres` (midpoint least squares), then `reweightings`
    /// passes weighting each ray by 1/‖X − c‖² (angular error); nil for a degenerate ray set.
    static func triangulate(_ rays: [Ray], centres: [Vector3], reweightings: Int) -> Vector3? {
        var x: Vector3?
        for _ in 0...reweightings {
            var a = Matrix3.zero, rhs = Vector3.zero
            for (ray, c) in zip(rays, centres) {
                let w = x.map { 1 / max(0.01, ($0 - c).squaredNorm) } ?? 1
                let m = (Matrix3.identity - Matrix3.outer(ray.d, ray.d)) * w
                a += m
                rhs += m * c
            }
            guard let ai = a.inverse else { return x }
            x = ai * rhs
        }
        return x
    }

    /// The linear system minimises ray-to-point *distances*, which favours shrinking the camera
    /// path (velocity towards zero) when the acceleration is weak: the scale direction is then the
    /// weakest eigenvector of H, and the least-squares answer slides along it. This searches that
    /// direction (gravity kept at `magnitude`) for the smallest angular error instead.
    /// Returns nil when no point along it does better than θ.
    static func refineAlongWeakestDirection(_ theta: [Double], h: Matrix, rays table: AlignmentRayTable,
                                            magnitude: Double) -> [Double]? {
        guard let eigen = try? SymmetricEigen(h) else { return nil }
        var e = (0..<6).map { eigen.vectors[$0, 0] }
        // Scale the direction so one unit changes the velocity by 1 m/s.
        let vNorm = Vector3(e[0], e[1], e[2]).norm
        guard vNorm > 1e-6 else { return nil }
        e = e.map { $0 / vNorm }
        func point(_ alpha: Double) -> [Double] {
            var th = (0..<6).map { theta[$0] + alpha * e[$0] }
            let g = Vector3(th[3], th[4], th[5])
            guard g.norm > 1e-9 else { return th }
            let gs = g * (magnitude / g.norm)
            th[3] = gs.x; th[4] = gs.y; th[5] = gs.z
            return th
        }
        func error(_ alpha: Double) -> Double { table.angularError(point(alpha)) }
        // Coarse grid over ±3 m/s, then golden-section refinement around the best node.
        let step = 0.05
        var best = 0.0, bestError = error(0)
        let base = bestError
        for k in -60...60 where k != 0 {
            let alpha = Double(k) * step
            let err = error(alpha)
            if err < bestError { best = alpha; bestError = err }
        }
        var lo = best - step, hi = best + step
        let ratio = (5.0.squareRoot() - 1) / 2
        var x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo)
        var f1 = error(x1), f2 = error(x2)
        for _ in 0..<30 {
            if f1 < f2 { hi = x2; x2 = x1; f2 = f1; x1 = hi - ratio * (hi - lo); f1 = error(x1) }
            else { lo = x1; x1 = x2; f1 = f2; x2 = lo + ratio * (hi - lo); f2 = error(x2) }
        }
        let alpha = f1 < f2 ? x1 : x2
        guard min(f1, f2) < base else { return nil }
        return point(alpha)
    }

    /// Minimises the (truncated) angular error over velocity and gravity direction with the
    /// Nelder–Mead simplex (Nelder & Mead 1965; 5 unknowns: v₀ and a tangent rotation of g₀, and
    /// the pair's disparity offset as a sixth under `disparityOffsetSigma` when cam1's rays are in),
    /// starting from θ. The truncation makes the error non-smooth, hence a derivative-free method;
    /// it runs once per initialisation attempt on a few hundred rays. Returns the answer and the
    /// offset (0 when not solved).
    static func refineAngular(_ theta: [Double], rays table: AlignmentRayTable, magnitude: Double, disparityOffsetSigma: Double = 0,
                              iterations: Int = 400) -> (theta: [Double], disparityOffset: Double) {
        let v0 = Vector3(theta[0], theta[1], theta[2]), g0 = Vector3(theta[3], theta[4], theta[5])
        guard g0.norm > 1e-9 else { return (theta, 0) }
        // The pair's disparity offset is a sixth unknown where cam1's rays are in and it may move.
        let withOffset = disparityOffsetSigma > 0 && table.hasSecondCameraRays
        let dimensions = withOffset ? 6 : 5
        let rayCount = Double(table.rayCount)
        let e0 = withOffset ? table.angularError(theta) : 0
        // Tangent basis of the gravity direction.
        let gHat = g0.normalized
        let helper = abs(gHat.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let e1 = gHat.cross(helper).normalized, e2 = gHat.cross(e1)
        func unpack(_ x: [Double]) -> [Double] {
            let v = v0 + Vector3(x[0], x[1], x[2])
            let g = SO3.exp(e1 * x[3] + e2 * x[4]) * gHat * magnitude
            return [v.x, v.y, v.z, g.x, g.y, g.z]
        }
        func cost(_ x: [Double]) -> Double {
            guard withOffset else { return table.angularError(unpack(x)) }
            // The offset's prior as one more squared error among the rays' (their error e₀ per σ
            // of offset). Counted once per feature seen by cam1 instead, the offsets came closer
            // to the simulator's on six sets but 70 stereo starts did worse (53.2 against 50.7 cm
            // summed): the free offset also takes up the pair's other relative errors.
            let e = table.angularError(unpack(x), disparityOffset: x[5])
            let prior = e0 * x[5] / disparityOffsetSigma
            return ((e * e * rayCount + prior * prior) / rayCount).squareRoot()
        }
        let steps = [0.1, 0.1, 0.1, 0.02, 0.02, 0.5 * disparityOffsetSigma]
        var simplex: [[Double]] = [[Double](repeating: 0, count: dimensions)]
        for i in 0..<dimensions {
            var x = [Double](repeating: 0, count: dimensions)
            x[i] = steps[i]
            simplex.append(x)
        }
        var values = simplex.map(cost)
        let n = dimensions   // the worst vertex's index once sorted
        for _ in 0..<iterations {
            let order = values.indices.sorted { values[$0] < values[$1] }
            simplex = order.map { simplex[$0] }
            values = order.map { values[$0] }
            if values[n] - values[0] < 1e-12 { break }
            var centroid = [Double](repeating: 0, count: n)
            for p in simplex.prefix(n) { for i in 0..<n { centroid[i] += p[i] / Double(n) } }
            func along(_ t: Double) -> [Double] { (0..<n).map { centroid[$0] + t * (simplex[n][$0] - centroid[$0]) } }
            let reflected = along(-1), fr = cost(reflected)
            if fr < values[0] {
                let expanded = along(-2), fe = cost(expanded)
                if fe < fr { simplex[n] = expanded; values[n] = fe } else { simplex[n] = reflected; values[n] = fr }
            } else if fr < values[n - 1] {
                simplex[n] = reflected; values[n] = fr
            } else {
                let contracted = fr < values[n] ? along(-0.5) : along(0.5)
                let fc = cost(contracted)
                if fc < min(fr, values[n]) {
                    simplex[n] = contracted; values[n] = fc
                } else {
                    // Shrink towards the best vertex.
                    for k in 1...n {
                        simplex[k] = (0..<n).map { simplex[0][$0] + 0.5 * (simplex[k][$0] - simplex[0][$0]) }
                        values[k] = cost(simplex[k])
                    }
                }
            }
        }
        let best = values.indices.min { values[$0] < values[$1] } ?? 0
        return (unpack(simplex[best]), withOffset ? simplex[best][5] : 0)
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

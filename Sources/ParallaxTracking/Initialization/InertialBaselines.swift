import ParallaxMath

/// Each frame pair's baseline direction predicted from the IMU, for the start's timing solve.
///
/// ``GyroBiasFromImages`` gives every pair its own free baseline direction. Where the translation
/// is small against the points' depth (a drone among a hall's far points, a hand turning more than
/// it moves), a rotation error about an axis across the view moves the image almost as a
/// translation does, so each free baseline takes up part of the rotation a time shift causes: the
/// shift and the readout came out low and scattered (on a simulated MH_01 start from 7 s, 4.3 ms for
/// 10 and 7.8 ms for 20, moving by 5 ms as single frames joined; on the ideal set −3.7 ms and −9.5 ms
/// for 0 and 0). With the true baselines held the same solves give 8.9 / 16.1 ms and
/// −0.02 ± 0.12 / −0.11 ± 0.36 ms.
///
/// The baselines are not free: over the one-second window they follow from the body's velocity at
/// the window's start and gravity, both in the body frame there, and the IMU's preintegrated
/// motion (Forster et al. 2017). With `τᵢ` the pair's start after the window's, `Δt` its span,
/// `Qᵢ = R_b0_bi`, `Δv₀ᵢ` the velocity preintegrated from the window's start and `Δpᵢⱼ` the position
/// preintegrated over the pair,
///
///     p_bj − p_bi = Δt v₀ + (τᵢ Δt + ½ Δt²) g + Δv₀ᵢ Δt + Qᵢ Δpᵢⱼ          (body-0 frame)
///     dᵢⱼ = (Qᵢ R_bc)ᵀ (p_bj − p_bi + (Qⱼ − Qᵢ) p_bc)                    (cam0 of frame i)
///
/// which is linear in x = (v₀, g): `dᵢⱼ = Aᵢⱼ x + bᵢⱼ`. The accelerometer bias is left out (0.05 m/s²
/// moves a 0.3 s baseline by 2 mm). Six unknowns shared by every pair replace two per pair, and the
/// rotation can no longer hide in the baselines. This is the coplanarity form of a visual–inertial
/// alignment (Kneip, Martinelli, Weiss, Scaramuzza & Siegwart, "Closed-form solution for absolute
/// scale velocity determination combining inertial measurements and a single feature
/// correspondence", ICRA 2011, use the same epipolar constraint with the IMU's motion).
struct InertialBaselines {
    /// One pair's baseline as an affine function of x = (v₀, g): `d = A x + b` with `A = [A_v | A_g]`.
    struct Affine {
        var velocity: Matrix3
        var gravity: Matrix3
        var offset: Vector3
        /// Body-0 → cam0 of frame i, the pair's start and end after the window's start (s), and the
        /// velocity preintegrated from the window's start to each (body-0 frame).
        var toCamera: Matrix3
        var startTime: Double, endTime: Double
        var startVelocity: Vector3, endVelocity: Vector3

        /// The baseline for `motion`.
        func baseline(_ motion: Motion) -> Vector3 {
            velocity * motion.velocity + gravity * motion.gravity + offset
        }

        /// The baseline between the camera centres when a point's rows were read `firstDelay` and
        /// `secondDelay` s after the frame times (a rolling shutter: the body moves on meanwhile by
        /// its velocity times the delay; Li, Kim & Mourikis, ICRA 2013), with its derivatives by the
        /// velocity, gravity and per second of either delay.
        func rowBaseline(_ motion: Motion, firstDelay: Double, secondDelay: Double)
            -> (baseline: Vector3, byVelocity: Matrix3, byGravity: Matrix3, byFirstDelay: Vector3, bySecondDelay: Vector3) {
            let vi = toCamera * (motion.velocity + motion.gravity * startTime + startVelocity)
            let vj = toCamera * (motion.velocity + motion.gravity * endTime + endVelocity)
            return (baseline(motion) + vj * secondDelay - vi * firstDelay,
                    velocity + toCamera * (secondDelay - firstDelay),
                    gravity + toCamera * (endTime * secondDelay - startTime * firstDelay),
                    -1 * vi, vj)
        }
    }

    /// The shared unknowns: velocity and gravity (m/s, m/s²) in the body frame at the window's start.
    struct Motion {
        var velocity: Vector3
        var gravity: Vector3
    }

    /// Per pair, in the order given.
    private(set) var pairs: [Affine] = []
    /// Gravity's first guess: minus the window's mean specific force (the body's own acceleration
    /// averages out over a second of hand or drone motion to well under 1 m/s²).
    private(set) var gravityGuess = Vector3.zero

    /// The baselines of pairs `(from, to)` (IMU times, already shifted) for gyro bias `bias`;
    /// nil where the IMU leaves a gap. One pass over the window integrates the motion from its
    /// start (the deltas alone, without their uncertainty) and keeps it at every pair's two times.
    init?(times: [(from: Double, to: Double)], samples: ArraySlice<IMUMeasurement>, bias: Vector3,
          noise: IMUNoise, rig: CameraRig) {
        guard let start = times.map(\.from).min() else { return nil }
        let stops = Array(Set(times.flatMap { [$0.from, $0.to] })).sorted()
        var running = Preintegration(biasGyro: bias, biasAccel: .zero, noise: noise, tracksUncertainty: false)
        var motionAt: [Double: (rotation: Matrix3, velocity: Vector3, position: Vector3)] = [:]
        var reached = start
        for time in stops {
            for segment in IMUSegment.split(samples, from: reached, to: time, maxGap: 0.05) {
                guard !segment.isGap else { return nil }
                running.integrate(gyro: segment.gyro, accel: segment.accel, dt: segment.duration)
            }
            reached = max(reached, time)
            motionAt[time] = (running.deltaRotation, running.deltaVelocity, running.deltaPosition)
        }
        guard running.deltaTime > 0 else { return nil }
        gravityGuess = -1 * running.deltaVelocity / running.deltaTime
        let rbc = rig.R_body_cam0, pbc = rig.p_body_cam0
        for (from, to) in times {
            guard let i = motionAt[from], let j = motionAt[to] else { return nil }
            let span = to - from, tau = from - start
            let toCamera = (i.rotation * rbc).transpose
            // p_bj − p_bi without the unknowns: the preintegrated position change less the part
            // the velocity at i carries (that part is Δt v₀ + τ Δt g + Δv₀ᵢ Δt, below).
            let known = j.position - i.position + (j.rotation - i.rotation) * pbc
            pairs.append(Affine(velocity: toCamera * span, gravity: toCamera * (tau * span + 0.5 * span * span),
                                offset: toCamera * known, toCamera: toCamera, startTime: tau, endTime: tau + span,
                                startVelocity: i.velocity, endVelocity: j.velocity))
        }
    }

    /// How each pair's baseline for `motion` moves with the gyro bias (per rad/s, by column) and
    /// with a shift of the frame times (per s), by differences of models `rebuild` makes at a
    /// nudged bias or shift (the bias turns, and the shift moves, the frames that carry the
    /// velocity and gravity to each pair); nil where one cannot be built.
    func sensitivities(_ motion: Motion, bias: Vector3, shift: Double,
                       rebuild: (Vector3, Double) -> InertialBaselines?) -> (byBias: [Matrix3], byShift: [Vector3])? {
        let step = 1e-4
        var nudged: [InertialBaselines] = []
        for axis in 0..<3 {
            var e = Vector3.zero
            e[axis] = step
            guard let model = rebuild(bias + e, shift) else { return nil }
            nudged.append(model)
        }
        guard let shifted = rebuild(bias, shift + step) else { return nil }
        var byBias: [Matrix3] = [], byShift: [Vector3] = []
        for p in pairs.indices {
            let d = pairs[p].baseline(motion)
            let columns = nudged.map { ($0.pairs[p].baseline(motion) - d) / step }
            byBias.append(Matrix3(columns: columns[0], columns[1], columns[2]))
            byShift.append((shifted.pairs[p].baseline(motion) - d) / step)
        }
        return (byBias, byShift)
    }

    /// The velocity whose baselines best line up with `directions` (one per pair, sign free: the
    /// free eigenvector fits), gravity held at ``gravityGuess``: least squares on
    /// `t × (A_v v₀ + A_g g + b) = 0`, linear in `v₀`.
    func motion(lineUpWith directions: [Vector3]) -> Motion? {
        guard directions.count == pairs.count else { return nil }
        var h = Matrix3.zero, g = Vector3.zero
        for (pair, t) in zip(pairs, directions) {
            let cross = Matrix3.skew(t)
            let a = cross * pair.velocity
            let r = cross * (pair.gravity * gravityGuess + pair.offset)
            h += a.transpose * a
            g = g - a.transpose * r
        }
        guard let inverse = h.inverse else { return nil }
        let v = inverse * g
        guard v.x.isFinite, v.y.isFinite, v.z.isFinite else { return nil }
        return Motion(velocity: v, gravity: gravityGuess)
    }
}

/// The coupled timing solve's model at one estimate (``GyroBiasFromImages/coupledBaselines``).
struct CoupledBaselines {
    var model: InertialBaselines
    var motion: InertialBaselines.Motion
    /// Each pair's baseline by the gyro bias (columns) and by the shift (``InertialBaselines/sensitivities``).
    var byBias: [Matrix3], byShift: [Vector3]
    /// Sums of squared residuals with these baselines and with free ones; the residuals' robust
    /// spread with these.
    var cost: Double, freeCost: Double, scale: Double
}

extension GyroBiasFromImages {
    /// Builds the baselines' model at `bias` and `shift` for pairs whose bearings are turned back
    /// for `lineDelay` and whose free baselines (`fitBaselines`) are set, starts `motion` from the
    /// velocity those line up with when there is none yet, and gives each pair its predicted
    /// baseline; nil where the IMU leaves a gap or a baseline vanishes.
    func coupledBaselines(_ pairs: inout [Pair], rotations: [Matrix3], motion start: InertialBaselines.Motion?,
                          bias: Vector3, shift: Double, lineDelay: Double, samples: ArraySlice<IMUMeasurement>,
                          noise: IMUNoise) -> CoupledBaselines? {
        let times = pairs.map { ($0.from, $0.to) }
        func build(_ bias: Vector3, _ shift: Double) -> InertialBaselines? {
            InertialBaselines(times: times.map { ($0.0 + shift, $0.1 + shift) }, samples: samples, bias: bias, noise: noise, rig: rig)
        }
        guard let model = build(bias, shift), let motion = start ?? model.motion(lineUpWith: pairs.map(\.baseline)) else { return nil }
        var freeCost = 0.0
        for (pair, r) in zip(pairs, rotations) {
            for (f, g) in zip(pair.first, pair.second) { let e = pair.baseline.dot(f.cross(r * g)); freeCost += e * e }
        }
        var residuals: [Double] = []
        for p in pairs.indices {
            let d = model.pairs[p].baseline(motion)
            guard d.norm > 1e-9 else { return nil }
            pairs[p].baseline = d.normalized
            for k in pairs[p].first.indices {
                let row = model.pairs[p].rowBaseline(motion, firstDelay: pairs[p].firstRows[k] * lineDelay,
                                                     secondDelay: pairs[p].secondRows[k] * lineDelay).baseline
                guard row.norm > 1e-9 else { return nil }
                residuals.append(row.normalized.dot(pairs[p].first[k].cross(rotations[p] * pairs[p].second[k])))
            }
        }
        let cost = residuals.reduce(0) { $0 + $1 * $1 }
        guard let moves = model.sensitivities(motion, bias: bias, shift: shift, rebuild: build) else { return nil }
        return CoupledBaselines(model: model, motion: motion, byBias: moves.byBias, byShift: moves.byShift, cost: cost,
                                freeCost: freeCost, scale: max(1e-6, 1.4826 * upperMedian(residuals.map { abs($0) })))
    }
}

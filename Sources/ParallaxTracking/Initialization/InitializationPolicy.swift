import Foundation
import ParallaxVision
import ParallaxMath

extension EstimatorCore {
    /// Tries to initialise the filter at frame time `t`:
    /// 1. from rest (``StaticInitializer``: gravity, gyro bias, accelerometer bias along gravity);
    /// 2. otherwise, once `motionInitializationDelay` seconds of IMU exist, from motion: roll and pitch
    ///    from the mean specific force over that span (the mean acceleration of hand-held or hovering
    ///    motion is small against g), zero velocity with a wide prior; the MSCKF updates of the next
    ///    frames make velocity, tilt and biases converge (reported `limited(initializing)` meanwhile).
    ///    The gyro bias of a start in motion comes from the start window's images
    ///    (``GyroBiasFromImages``) when they pin it, zero otherwise.
    mutating func initialize(at t: Double, frame: FeatureFrame?, previousFrameTime: Double) {
        guard let samples = imu.prefix(through: t), let newest = samples.last, let first = startWindowBegin else { return }
        // IMU seconds since the start window began: what every wait below is measured in.
        let elapsed = newest.timestamp - first
        let priors = configuration.initializationPriors
        var nav: NavigationState
        var uncertainty: TrackerConfiguration.InitialUncertainty
        // The alignment's answer when the start takes its velocity and gravity from it.
        var answer: VisualInertialAlignment.Solution?
        var gyroBias = Vector3.zero
        var biasAccel = Vector3.zero
        let visuallyStill = startup.stillSince.map { t - $0 >= configuration.staticInitializer.window * 0.5 } ?? false
        // A steady-looking start whose images show parallax may be a slow translation past far
        // points rather than a hand: it waits for the alignment, up to the alignment's timeout.
        // Judged only where the hand-held branch below is reached (mono, no alignment).
        func handheldSteady() -> Bool {
            startup.isSteady(window: configuration.steadinessWindow)
                && ((startParallax() ?? 0) <= configuration.steadyStartMaximumParallax
                    || elapsed >= configuration.alignmentTimeout)
        }
        if visuallyStill, let r = StaticInitializer(configuration: configuration.staticInitializer).initialize(from: samples) {
            nav = r.state
            uncertainty = priors.fromRest
        } else {
            let span = configuration.motionInitializationDelay
            guard elapsed >= span else { return }
            // A readout or time shift the images hint at but do not settle yet, or a gyro bias they
            // do not give yet or show clearly but not precisely enough to use (the start would
            // otherwise begin from a zero bias): more frames first, up to the alignment's window.
            if startup.timingUndecided || startup.gyroBiasUndecided, !startWindowIsOver(at: newest.timestamp) { return }
            // Average over everything since the start (up to 1 s): the longer the span, the smaller
            // the mean acceleration of hand-held motion against gravity. Each sample is turned into
            // the newest body frame with the gyro (and the images' bias when known), so a body that
            // turned meanwhile does not average its earlier gravity directions in: a drone that
            // pitched 15° in the second before a start otherwise began 7° tilted and reset.
            let from = newest.timestamp - max(span, min(1.0, elapsed))
            guard let mean = Self.meanSpecificForce(samples.drop { $0.timestamp < from },
                                                    gyroBias: startup.gyroBias?.bias ?? .zero) else { return }
            var up = mean.normalized
            uncertainty = priors.fromMotion
            var vNow: Vector3?
            // The gyro bias first: the alignment's rays and the filter's first turns depend on it.
            if let images = startup.gyroBias {
                gyroBias = images.bias
                uncertainty.gyroBias = priors.imageGyroBias
            }
            var alignment = VisualInertialAlignment(rig: rig)
            alignment.biasGyro = gyroBias
            alignment.covarianceBiasSigma = priors.fromMotion.accelBias
            alignment.covarianceRayAngleSigma = priors.alignedRayAngleSigma
            // An answer whose rays miss by more than the images' noise explains: no answer yet.
            let maximumError = isStereo ? configuration.alignmentMaximumErrorStereo : configuration.alignmentMaximumError
            alignment.maximumAngularError = maximumError / camera0MeanFocal
            if isStereo { alignment.disparityOffsetSigma = configuration.alignmentDisparityOffsetSigma }
            // Two answers (bias solved, bias zero) that disagree on gravity: no answer yet, in mono
            // while the moving start may still wait for one.
            if !isStereo, elapsed < configuration.movingStartTimeout {
                alignment.maximumModelDisagreement = configuration.alignmentModelDisagreement * .pi / 180
            }
            let (outcome, elsewhere) = alignment.attemptCounted(frames: startup.alignmentFrames, samples: samples, noise: noise)
            startup.elsewhereMilliseconds += elsewhere
            var aligned: VisualInertialAlignment.Solution?
            // Two answers that disagree on gravity but both say the body moves faster than a hand
            // does: not a hand turning in place, whatever the image motion looks like.
            var alignmentSaysMoving = false
            switch outcome {
            case .answer(let solution): aligned = solution
            case .disagreement(let withBias, let withoutBias):
                // After a divergence reset the old filter's velocity, carried on with the IMU, may
                // tell the two apart (``restartVelocityTolerance``).
                aligned = restartChoice(withBias, withoutBias, at: newest.timestamp)
                startup.disagreeingAnswers.append((withBias, withoutBias))
                // Only the latest attempts are read; a 2 s wait would otherwise keep 40 of them.
                startup.disagreeingAnswers = Array(startup.disagreeingAnswers.suffix(max(1, configuration.steadyAnswerAttempts)))
                if aligned == nil {
                    aligned = Self.steadyAnswer(startup.disagreeingAnswers[...], configuration: configuration)
                }
                let slower = min(withBias.velocity.norm, withoutBias.velocity.norm)
                alignmentSaysMoving = aligned == nil && slower > configuration.handheldStartMaximumAlignedSpeed
            case .none: break
            }
            if case .disagreement = outcome {} else { startup.disagreeingAnswers.removeAll() }
            // A weakly conditioned answer waits for a longer window while there is time for one.
            if !isStereo, let aligned, elapsed < configuration.weakAnswerWaitLimit,
               Self.isWeaklyConditioned(aligned, configuration: configuration) {
                return
            }
            if let aligned {
                // Velocity and gravity from the closed-form alignment of the last frames.
                up = -aligned.gravity.normalized
                vNow = aligned.velocity
                answer = aligned
                biasAccel = aligned.biasAccel
                uncertainty.tilt = priors.alignedTilt
                uncertainty.velocity = priors.alignedVelocity
            } else if isStereo {
                vNow = frame.flatMap { stereoVelocity($0, dt: t - previousFrameTime) }
                if let vNow, let g = stereoGravity(velocityNow: vNow, at: t, biasGyro: gyroBias) {
                    up = -g.normalized
                    uncertainty.tilt = priors.alignedTilt
                }
                if vNow != nil { uncertainty.velocity = priors.stereoVelocity }
            } else if !alignmentSaysMoving, handheldSteady() {
                // Mono, turning in place (a hand): no parallax to align, but the velocity is small.
                vNow = .zero
                uncertainty.tilt = priors.alignedTilt
                uncertainty.velocity = configuration.handheldHoldVelocitySigma
            } else if elapsed < configuration.movingStartTimeout {
                return   // mono, moving: wait for an alignment (a blind start here diverges)
            }
            let rotation = StaticInitializer.gravityAlignedRotation(upInBody: up)
            nav = NavigationState(timestamp: newest.timestamp,
                                  T_world_body: RigidTransform(rotationMatrix: rotation, translation: .zero))
            if let v = vNow { nav.velocity = rotation * v }
            nav.biasGyro = gyroBias
            nav.biasAccel = biasAccel
        }
        if startup.anchor == nil, let attitude = startup.attitude {
            // The first start keeps the heading the attitude shown so far has (``StartAttitude``):
            // the world turns about its vertical, which no measurement can tell.
            let turn = attitude.headingTurn(from: nav.T_world_body.rotationMatrix)
            nav.T_world_body = RigidTransform(rotationMatrix: turn * nav.T_world_body.rotationMatrix,
                                              translation: nav.T_world_body.translation)
            nav.velocity = turn * nav.velocity
        }
        if let anchor = startup.anchor {
            // Re-initialisation after a reset: the world frame stays put (heading and position
            // bridged from the old filter's anchor with the IMU).
            ResetBridge(maximumSpan: configuration.resetBridgeMaximumSpan)
                .place(&nav, velocitySigma: uncertainty.velocity, anchor: anchor, samples: imu.slice(from: anchor.time),
                       gyroCorrection: imuIntrinsics.gyroCorrection, accelCorrection: imuIntrinsics.accelCorrection)
        }
        let offset = configuration.timeOffset, extrinsics = configuration.extrinsics
        let mode: TrackerConfiguration.Mode = isStereo ? .stereo : .mono
        // A stated offset is held while a mono start from the alignment settles: the start's
        // velocity error would otherwise go into the offset (a ray moves by velocity × offset).
        let holdsOffset = offset.estimate && !isStereo && answer != nil && timeOffsetStated
            && startup.timeOffset == nil && offset.statedHoldAfterMonoStart > 0
        var s = FilterState(navigation: nav, uncertainty: uncertainty, timeOffset: startup.timeOffset ?? initialTimeOffset,
                            timeOffsetSigma: offset.estimate && !holdsOffset ? offset.priorSigma : 0,
                            readout: rollingShutter?.readout ?? 0,
                            readoutSigma: readoutEstimatedByFilter ? configuration.readoutPriorSigma : 0, rig: rig,
                            extrinsicSigmas: extrinsics.isEstimated(in: mode)
                                ? (extrinsics.rotationSigma, extrinsics.translationSigma(in: mode)) : nil,
                            intrinsicOffsets: intrinsicOffsets,
                            intrinsicSigmas: configuration.intrinsics.isEstimated(in: mode)
                                ? configuration.intrinsics.standardDeviations : nil,
                            imuIntrinsics: imuIntrinsics,
                            imuIntrinsicSigmas: configuration.imuIntrinsics.standardDeviations(in: mode))
        s.timestamp = min(nav.timestamp, t)
        if priors.alignedJointCovarianceModes.contains(mode), let answer, let covariance = answer.covariance {
            // The answer's tilt, velocity and bias errors are correlated (``VisualInertialAlignment/answerCovariance(information:raySigma:gravity:last:)``).
            StateHelper.setAlignedStartCovariance(&s, answer: covariance, gravityInBody: answer.gravity,
                                                  floor: priors.alignedJointFloor)
        }
        state = s
        startup.alignedStartTime = answer != nil ? t : nil
        startup.timeOffsetRelease = holdsOffset ? s.timestamp + offset.statedHoldAfterMonoStart : nil
        health.framesSinceInit = 0
        health.clearUpdates()
        features.removeAll()
        startup.alignmentFrames.removeAll()
        startup.disagreeingAnswers.removeAll()
        startup.attitude = nil
    }

    /// The answer's speed σ (its covariance's velocity block) exceeds
    /// ``TrackerConfiguration/weakAnswerRelativeSpeedSigma`` of its speed and
    /// ``TrackerConfiguration/weakAnswerSpeedSigmaFloor``: the window's motion barely fixes the scale.
    static func isWeaklyConditioned(_ answer: VisualInertialAlignment.Solution,
                                    configuration: TrackerConfiguration) -> Bool {
        guard let c = answer.covariance else { return false }
        let speedSigma = (c[3, 3] + c[4, 4] + c[5, 5]).squareRoot()
        return speedSigma > max(configuration.weakAnswerRelativeSpeedSigma * answer.velocity.norm,
                                configuration.weakAnswerSpeedSigmaFloor)
    }

    /// The answer of the model (bias solved, or bias zero) that fitted its rays clearly better
    /// (``TrackerConfiguration/steadyAnswerFitRatio``) in each of `pairs`, the last
    /// ``TrackerConfiguration/steadyAnswerAttempts`` attempts refused for disagreement, when that
    /// model's answers agree with each other on the accelerometer bias and the speed; nil otherwise.
    /// Why: a start whose two answers stay apart waited up to ``TrackerConfiguration/movingStartTimeout``
    /// for them to agree, and its first pose came after 1.05–2 s on 10 of 192 mono sweep starts
    /// (docs/tracking-design.md, "A steady answer ends the wait").
    static func steadyAnswer(
        _ pairs: ArraySlice<(withBias: VisualInertialAlignment.Solution, withoutBias: VisualInertialAlignment.Solution)>,
        configuration: TrackerConfiguration
    ) -> VisualInertialAlignment.Solution? {
        guard configuration.steadyAnswerAttempts > 0, pairs.count == configuration.steadyAnswerAttempts else { return nil }
        let answers: [VisualInertialAlignment.Solution]
        let ratio = configuration.steadyAnswerFitRatio
        if pairs.allSatisfy({ $0.withBias.angularError < ratio * $0.withoutBias.angularError }) {
            answers = pairs.map(\.withBias)
        } else if pairs.allSatisfy({ $0.withoutBias.angularError < ratio * $0.withBias.angularError }) {
            answers = pairs.map(\.withoutBias)
        } else {
            return nil
        }
        guard let newest = answers.last else { return nil }
        let speedLimit = max(configuration.steadyAnswerSpeedTolerance,
                             configuration.steadyAnswerRelativeSpeedTolerance * newest.velocity.norm)
        let steady = answers.allSatisfy {
            ($0.biasAccel - newest.biasAccel).norm <= configuration.steadyAnswerBiasTolerance
                && abs($0.velocity.norm - newest.velocity.norm) <= speedLimit
        }
        return steady ? newest : nil
    }

    /// Of two alignment answers refused for disagreeing on gravity, the one whose velocity the old
    /// filter's carries on to (``ResetBridge/predictedBodyVelocity(anchor:at:samples:gyroCorrection:accelCorrection:)``)
    /// when the other lies much farther from it: nil on a first start, after a reset whose anchor is
    /// not settled, or when neither is within ``TrackerConfiguration/restartVelocityTolerance`` or
    /// the two are not ``TrackerConfiguration/restartVelocitySeparation`` apart in distance.
    func restartChoice(_ a: VisualInertialAlignment.Solution, _ b: VisualInertialAlignment.Solution,
                       at time: Double) -> VisualInertialAlignment.Solution? {
        guard let anchor = startup.anchor,
              let predicted = ResetBridge(maximumSpan: configuration.resetBridgeMaximumSpan)
                .predictedBodyVelocity(anchor: anchor, at: time, samples: imu.slice(from: anchor.time),
                                       gyroCorrection: imuIntrinsics.gyroCorrection,
                                       accelCorrection: imuIntrinsics.accelCorrection) else { return nil }
        return Self.closer(a, b, to: predicted, configuration: configuration)
    }

    /// Of `a` and `b`, the one near `carried` (within ``TrackerConfiguration/restartVelocityTolerance``)
    /// while the other lies ``TrackerConfiguration/restartVelocitySeparation`` times farther; nil
    /// otherwise.
    static func closer(_ a: VisualInertialAlignment.Solution, _ b: VisualInertialAlignment.Solution, to carried: Vector3,
                       configuration: TrackerConfiguration) -> VisualInertialAlignment.Solution? {
        let limit = max(configuration.restartVelocityTolerance,
                        configuration.restartVelocityRelativeTolerance * carried.norm)
        let (da, db) = ((a.velocity - carried).norm, (b.velocity - carried).norm)
        let (near, dNear, dFar) = da <= db ? (a, da, db) : (b, db, da)
        return dNear <= limit && dFar >= configuration.restartVelocitySeparation * dNear ? near : nil
    }

    /// The mean specific force (m/s²) of `samples` in the body frame of the last one: each sample
    /// turned there with the gyro (less `gyroBias`) integrated between them. Nil for fewer than
    /// three samples or a mean of zero.
    static func meanSpecificForce<Samples: Collection>(_ samples: Samples, gyroBias: Vector3) -> Vector3?
        where Samples.Element == IMUMeasurement {
        var sum = Vector3.zero
        var rFirstCurrent = Matrix3.identity   // each sample's body frame in the first one's
        var previous: IMUMeasurement?
        for s in samples {
            if let p = previous { rFirstCurrent = rFirstCurrent * SO3.exp((p.gyro - gyroBias) * (s.timestamp - p.timestamp)) }
            sum += rFirstCurrent * s.accel
            previous = s
        }
        guard samples.count >= 3, sum.norm > 1e-6 else { return nil }
        return rFirstCurrent.transpose * (sum / Double(samples.count))
    }

    /// The parallax (pixels) of the start window (``StartParallax``) between the frame
    /// ``TrackerConfiguration/steadinessWindow`` frames back and the newest, the gyro's rotation
    /// between them removed (with the images' gyro bias when known). Nil with too few frames.
    func startParallax() -> Double? {
        let frames = startup.alignmentFrames
        let back = configuration.steadinessWindow
        guard back > 0, frames.count > back, let newest = frames.last else { return nil }
        let oldest = frames[frames.count - 1 - back]
        guard let R = predictedCameraRotation(from: oldest.time, to: newest.time) else { return nil }
        return StartParallax.median(from: oldest.observations.map { ($0.id, $0.left) },
                                    to: newest.observations.map { ($0.id, $0.left) },
                                    rotation: R, focalLength: camera0MeanFocal,
                                    minimumFeatures: configuration.minimumFeatures)
    }

    /// Body velocity (in the body frame) from stereo points seen in the previous and current frame:
    /// with the gyro rotation R and P_cur = R P_prev + t, the camera moved by −t (median over points).
    func stereoVelocity(_ frame: FeatureFrame, dt: Double) -> Vector3? {
        guard isStereo, dt > 0, dt < 0.5,
              let rCurPrev = predictedCameraRotation(from: memory.lastIMUTime - dt, to: memory.lastIMUTime)
        else { return nil }
        var prev: [Int: TrackedFeature] = [:]
        for f in memory.previousFeatures where f.rightNormalized != nil { prev[f.id] = f }
        let rbc = rig.R_body_cam0
        func point(_ f: TrackedFeature) -> Vector3? {
            guard let rn = f.rightNormalized else { return nil }
            let obs = [Observation(frame: 0, left: f.normalized, right: rn)]
            guard let xb = Triangulation.triangulate(obs, poses: [(.identity, .zero)], rig: rig, iterations: 3) else { return nil }
            return rbc.transpose * (xb - rig.p_body_cam0)
        }
        var tx: [Double] = [], ty: [Double] = [], tz: [Double] = []
        for f in frame.features {
            guard let p = prev[f.id], let a = point(p), let b = point(f), a.z < 8, b.z < 8 else { continue }
            let t = b - rCurPrev * a
            tx.append(t.x); ty.append(t.y); tz.append(t.z)
        }
        guard tx.count >= 10 else { return nil }
        let tCam = Vector3(upperMedian(tx), upperMedian(ty), upperMedian(tz))
        // Camera displacement in the current camera frame is −t; in the body frame R_bc (−t).
        return rbc * (-tCam) / dt
    }

    /// Gravity in the current body frame from two stereo velocities (Dong-Si & Mourikis 2012 style
    /// closed form): with body velocities v_a, v_b and the IMU deltas ΔR, Δv over [a, b],
    /// R_aᵀ g Δt = ΔR v_b − v_a − Δv. Uses the oldest stored velocity at least 0.3 s old; nil when
    /// none exists or the magnitude is implausible.
    func stereoGravity(velocityNow vb: Vector3, at t: Double, biasGyro: Vector3) -> Vector3? {
        guard let a = startup.stereoVelocities.first(where: { t - $0.time >= 0.3 }) else { return nil }
        var pre = Preintegration(biasGyro: biasGyro, biasAccel: .zero, noise: noise, tracksCovariance: false)
        let samples = imu.slice(from: a.time)
        for segment in IMUSegment.split(samples, from: a.time, to: t, maxGap: 0.05) {
            pre.integrate(gyro: segment.gyro, accel: segment.accel, dt: segment.duration)
        }
        guard pre.deltaTime > 0.25 else { return nil }
        let ga = (pre.deltaRotation * vb - a.velocity - pre.deltaVelocity) / pre.deltaTime
        guard abs(ga.norm - 9.81) < 1.0 else { return nil }
        return pre.deltaRotation.transpose * ga      // in the current body frame
    }

    /// What the start window's images ask for, when large and certain enough to act on: a shift of
    /// the frame times (s; ``TrackerConfiguration/TimeOffsetEstimation/solvesAtStart``) and, for a
    /// camera whose readout is not known yet, a line delay (s per row;
    /// ``TrackerConfiguration/startReadoutSignificance``, or short of it once the start window is
    /// over), solved together with the gyro bias.
    /// `undecided`: a plausible readout or a shift short of its significance, for which the start
    /// waits (``TrackerConfiguration/startReadoutWaitSignificance``,
    /// ``TrackerConfiguration/TimeOffsetEstimation/startWaitSignificance``).
    func imageTiming(_ solver: GyroBiasFromImages, samples: ArraySlice<IMUMeasurement>, bias: Vector3)
        -> (shift: Double?, lineDelay: Double?, undecided: Bool) {
        let c = configuration.timeOffset
        let solvesShift = c.estimate && c.solvesAtStart
        let height = Double(imageHeights.0)
        let readoutUnknown = startReadoutUnknown && configuration.startReadoutPriorSigma > 0
        guard solvesShift || readoutUnknown else { return (nil, nil, false) }
        func solve(readout: Bool, maximumShift: Double, prior: Double) -> GyroBiasFromImages.TimeShift? {
            solver.solveTimeShift(frames: startup.alignmentFrames, samples: samples, noise: noise, bias: bias,
                                  maximumShift: maximumShift, priorSigma: solvesShift ? prior : 1e-6,
                                  lineDelayPriorSigma: readout ? configuration.startReadoutPriorSigma / height : nil)
        }
        // The readout is an unknown more, and a solve that fails with it (an offset beyond the
        // search, a start too still to show rows) still has the shift to give.
        func search(_ maximumShift: Double, prior: Double) -> GyroBiasFromImages.TimeShift? {
            (readoutUnknown ? solve(readout: true, maximumShift: maximumShift, prior: prior) : nil)
                ?? (solvesShift ? solve(readout: false, maximumShift: maximumShift, prior: prior) : nil)
        }
        // The wide search only where the first found nothing, came out near its edge or stayed
        // under its wait significance (shrunk by the prior), and its answer only where it lies
        // beyond the first search's reach: a wider search keeps fewer pairs. Its prior is half its
        // reach: under the offset's own 5 ms prior an offset 40 ms off came out −10.7 ms at 2.5 σ,
        // and over ±60 ms under 30 ms, −46.9 ms.
        let narrow = search(c.startMaximumShift, prior: c.priorSigma)
        let wideReach = solvesShift ? c.startWideMaximumShift : 0
        let inDoubt = narrow.map { abs($0.shift) >= 0.75 * c.startMaximumShift
                                   || abs($0.shift) < c.startWaitSignificance * $0.sigma } ?? true
        let wide = wideReach > c.startMaximumShift && inDoubt ? search(wideReach, prior: wideReach / 2) : nil
        let beyond = wide.flatMap { abs($0.shift) > c.startMaximumShift ? $0 : nil }
        guard let found = beyond ?? narrow else { return (nil, nil, false) }
        let shiftLargeEnough = solvesShift && abs(found.shift) >= c.startMinimumShift
        let shifts = shiftLargeEnough && abs(found.shift) >= c.startSignificance * found.sigma
        let readout = found.lineDelay * height
        let plausible = readout >= configuration.startMinimumReadout && readout <= (readoutEstimator?.candidates.last ?? 0)
        let hinted = readoutUnknown && plausible
            && found.lineDelay >= configuration.startReadoutWaitSignificance * found.lineDelaySigma
        // Past the window a hinted readout is used: rows left uncorrected cost more than a readout
        // the filter then refines.
        let windowOver = samples.last.map { startWindowIsOver(at: $0.timestamp) } ?? false
        let reads = hinted && (found.lineDelay >= configuration.startReadoutSignificance * found.lineDelaySigma || windowOver)
        let readoutUndecided = hinted && !reads
        let shiftUndecided = shiftLargeEnough && !shifts && abs(found.shift) >= c.startWaitSignificance * found.sigma
        return (shifts ? found.shift : nil, reads ? found.lineDelay : nil, readoutUndecided || shiftUndecided)
    }

    /// IMU time the start window counts from: the first sample, or the last divergence reset.
    var startWindowBegin: Double? {
        imu.firstTime.map { max($0, startup.resetTime ?? $0) }
    }

    /// Whether IMU time `time` lies a whole ``TrackerConfiguration/alignmentWindow`` past
    /// ``startWindowBegin``: no more waiting for the start's timing.
    func startWindowIsOver(at time: Double) -> Bool {
        startWindowBegin.map { time - $0 >= configuration.alignmentWindow } ?? false
    }

    /// True before the start while the camera may have a rolling shutter the calibration does not
    /// state: ``readoutEstimator`` runs and has not decided yet.
    var startReadoutUnknown: Bool {
        rollingShutter == nil && readoutEstimator.map { !$0.isFinal && $0.estimate == nil } ?? false
    }

    /// Moves the start to the time offset `shift` later than the current one: every time the start
    /// holds on the IMU clock moves with it.
    mutating func applyStartTimeShift(_ shift: Double) {
        startup.timeOffset = (startup.timeOffset ?? initialTimeOffset) + shift
        for k in startup.alignmentFrames.indices { startup.alignmentFrames[k].time += shift }
        // A frame moved before the first IMU sample has no rotation to align with.
        if let first = imu.firstTime { startup.alignmentFrames.removeAll { $0.time < first } }
        for k in startup.stereoVelocities.indices { startup.stereoVelocities[k].time += shift }
        startup.stillSince = startup.stillSince.map { $0 + shift }
        memory.lastIMUTime += shift
    }
}

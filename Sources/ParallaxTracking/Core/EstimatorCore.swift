import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// The estimator's machinery behind ``VisualInertialOdometry``, as a few owned components: the
/// front-end (`tracker`), the IMU buffer, the filter state, the feature database, the start-up
/// window, the health monitor and the previous frame. One frame runs: front-end → (initialise) →
/// propagate → zero-velocity update or clone + MSCKF update → marginalise → health check.
struct EstimatorCore {
    let configuration: TrackerConfiguration
    let isStereo: Bool
    /// The camera extrinsics: the calibration's, then the filter's latest estimates when they are
    /// estimated online (kept across resets, like the time offset).
    var rig: CameraRig
    /// The cameras' calibrated models, for online intrinsic calibration.
    let lenses: [LensIntrinsics]
    /// Intrinsic offsets from the calibration: the filter's latest estimates when the intrinsics
    /// are estimated online (kept across resets, like the extrinsics), empty otherwise.
    var intrinsicOffsets: [SIMD8<Double>] = []
    /// The IMU's scale and misalignment corrections: the filter's latest estimates when they are
    /// estimated online (kept across resets, like the camera intrinsics).
    var imuIntrinsics = IMUIntrinsics()
    let camera0Model: any CameraModel
    let noise: IMUNoise
    /// Camera–IMU time offset before any estimate: the calibration's `timeshift_cam_imu`, or 0.
    let initialTimeOffset: Double
    /// Whether the calibration states `timeshift_cam_imu` (rather than leaving it to the tracker).
    let timeOffsetStated: Bool
    /// Rolling-shutter correction when the calibration states a line delay, or once
    /// ``readoutEstimator`` has found one.
    var rollingShutter: RollingShutterCorrection?
    /// Finds the readout when the calibration states none (nil when it does, or when estimation is
    /// off); kept across resets, like the calibration estimates.
    var readoutEstimator: ReadoutEstimator?
    /// True once the filter's readout state took over from ``readoutEstimator``
    /// (``TrackerConfiguration/readoutPriorSigma``).
    var readoutEstimatedByFilter = false
    /// cam0's turn rate and uncorrected features at the previous frame (for ``readoutEstimator``).
    var previousCameraRate: Vector3?
    var previousRawFeatures: [TrackedFeature] = []
    /// Image heights of cam0 and cam1.
    let imageHeights: (Int, Int?)
    private let makeTracker: () -> FeatureTracker

    var tracker: FeatureTracker
    var imu = IMUBuffer()
    var state: FilterState?
    var features = FeatureDatabase()
    var startup = StartupWindow()
    var health = EstimatorHealth()
    var memory = FrameMemory()
    /// The filter's pose at the latest frames (the anchor of a start after a divergence reset).
    var recentPoses = PoseHistory(span: 2.0)
    /// Older views of tracked features for the reported feature points (output only).
    var pointHistory = FeaturePointHistory()
    /// Diagnostics only: rewrites each front-end frame before the back-end sees it (experiments
    /// that replace measured tracks by ideal ones to separate front-end and estimator errors).
    var frameFilter: ((FeatureFrame) -> FeatureFrame)?

    init(configuration: TrackerConfiguration, camera0: CameraCalibration, camera1: CameraCalibration?,
         imu: IMUCalibration) throws {
        self.configuration = configuration
        let cam0 = try camera0.makeCameraModel()
        camera0Model = cam0
        initialTimeOffset = camera0.timeOffset ?? 0
        timeOffsetStated = camera0.timeOffset != nil
        noise = imu.noiseDensities
        rig = CameraRig(camera0: camera0, camera1: camera1)
        rollingShutter = RollingShutterCorrection(camera0: camera0, camera1: camera1, rig: rig)
        imageHeights = (camera0.height, camera1?.height)
        if rollingShutter == nil, configuration.estimatesReadout {
            readoutEstimator = ReadoutEstimator(height: camera0.height)
        }
        let frontEnd = configuration.frontEnd
        if let camera1 {
            let cam1 = try camera1.makeCameraModel()
            lenses = [LensIntrinsics(model: cam0), LensIntrinsics(model: cam1)]
            let T_c1_c0 = camera1.T_body_camera.inverse * camera0.T_body_camera
            isStereo = true
            makeTracker = { FeatureTracker(camera: cam0, rightCamera: cam1, T_right_left: T_c1_c0, configuration: frontEnd) }
        } else {
            isStereo = false
            lenses = [LensIntrinsics(model: cam0)]
            makeTracker = { FeatureTracker(camera: cam0, configuration: frontEnd) }
        }
        tracker = makeTracker()
    }

    mutating func reset() {
        tracker = makeTracker()
        imu = IMUBuffer()
        state = nil
        features.removeAll()
        startup = StartupWindow()
        health = EstimatorHealth()
        memory = FrameMemory()
        recentPoses.removeAll()
    }

    mutating func addIMU(_ m: IMUMeasurement) {
        // After a divergence reset the samples since the anchor are kept for the bridge
        // (``ResetBridge``), over no more than the span it bridges.
        imu.add(m, filterTime: state?.timestamp
                    ?? startup.anchor.flatMap { $0.isSettled ? max($0.time, m.timestamp - configuration.resetBridgeMaximumSpan) : nil })
    }

    // MARK: - Frames

    mutating func processFrame(timestamp: Double, timestampNs: Int64, left: GrayImage?, right: GrayImage?)
        -> TrackingResult {
        // Duplicated or out-of-order frame: answer with the previous result (nothing new to learn).
        if timestamp <= memory.lastFrameTime, var again = memory.lastResult {
            again.timings = TrackingTimings()
            return again
        }
        memory.lastFrameTime = timestamp
        // A camera that repeats its last image (a stalled driver, a recording that duplicated its
        // frames) shows nothing new, and taken as an image it reads as a camera at rest: a second
        // of one held frame in a slow turn asked for zero-velocity updates the moving filter
        // refused, and it reset. The repeat is treated as a dropped frame (IMU only). A real
        // sensor's noise makes two exposures differ even when nothing moves.
        var left = left, right = right
        if let image = left, let previous = memory.previousImage, image.width == previous.width,
           image.height == previous.height, image.pixels == previous.pixels {
            left = nil
            right = nil
        } else if let image = left {
            memory.previousImage = image
        }
        // The back-end works on the IMU clock: the frame was exposed at t_cam + t_d.
        let timeOffset = state?.timeOffset ?? startup.timeOffset ?? initialTimeOffset
        var frameTime = memory.clock.captureTime(timestamp) + timeOffset
        let previousFrameTime = memory.lastIMUTime
        memory.lastIMUTime = frameTime

        // Front-end with a gyro-predicted rotation.
        let t0 = ThreadClock.milliseconds()
        let wallStart = DispatchTime.now().uptimeNanoseconds
        var frame: FeatureFrame?
        let predicted = predictedCameraRotation(from: previousFrameTime, to: frameTime)
        // The front-end's epipolar test sees uncorrected rows: a rolling shutter moves the top and
        // bottom rows by pixels in a changing turn, so its threshold widens once one is known (less
        // before the start, whose alignment has no outlier test of its own).
        tracker.epipolarThreshold = rollingShutter == nil ? configuration.frontEnd.ransacThreshold
            : state == nil ? configuration.rollingShutterStartRansacThreshold : configuration.rollingShutterRansacThreshold
        if let left, let plane = FloatPlane(width: left.width, height: left.height, gray8: left.pixels) {
            let rightPlane = right.flatMap { FloatPlane(width: $0.width, height: $0.height, gray8: $0.pixels) }
            frame = tracker.process(image: plane, timestamp: timestamp, rightImage: isStereo ? rightPlane : nil,
                                    predictedRotation: predicted,
                                    translation: predicted.flatMap { predictedCameraTranslation(to: frameTime, rotation: $0) })
        }
        if let frameFilter, let f = frame { frame = frameFilter(f) }
        let gyroNow = imu.gyro(at: frameTime)
        if readoutEstimator != nil, let f = frame, let gyroNow { estimateReadout(f, gyro: gyroNow, rotation: predicted) }
        // A rolling shutter's rows are turned back with the rate fitted over the readout, which also
        // gives its rate of change (``IMUBuffer/gyroFit(at:halfWidth:)``).
        let rowTurn = rollingShutter.flatMap { imu.gyroFit(at: frameTime, halfWidth: 0.5 * $0.readout) }
        let gyroCorrection = state?.gyroCorrection ?? .identity
        let rowAcceleration = gyroCorrection * (rowTurn?.acceleration ?? .zero)
        if let rollingShutter, let f = frame {
            let turnRate = gyroCorrection * ((rowTurn?.rate ?? gyroNow ?? .zero) - (state?.biasGyro ?? .zero))
            frame = rollingShutter.apply(f, angularVelocity: turnRate, angularAcceleration: rowAcceleration)
        }
        let t1 = ThreadClock.milliseconds()
        let featureCount = frame?.features.count ?? 0

        // Back-end.
        let motion = frame.flatMap { imageMotion($0, rotation: predicted) }
        if state == nil { prepareStart(at: &frameTime, frame: frame, motion: motion, previousFrameTime: previousFrameTime) }
        if var s = state {
            if health.framesSinceInit == 0 { health.startTime = frameTime }
            let interval = max(0, frameTime - s.timestamp)
            Propagator(noise: noise, gap: configuration.imuGaps).propagate(&s, to: frameTime, samples: imu.slice(from: s.timestamp))
            if let release = startup.timeOffsetRelease, s.timestamp >= release {
                StateHelper.releaseTimeOffset(&s, sigma: configuration.timeOffset.priorSigma)
                startup.timeOffsetRelease = nil
            }
            // A dropped image only propagates: the front-end did not see it, so no track ended.
            // A still camera (no image motion) gets a zero-velocity update instead of a clone, so the
            // window keeps frames with parallax (OpenVINS's ZUPT, Geneva et al. ICRA 2020).
            let still = motion?.isStill(configuration) ?? false
            if still {
                let accepted = ZeroVelocityUpdater(sigma: configuration.zeroVelocitySigma).update(&s)
                recordUpdate(used: accepted ? 1 : 0, rejected: accepted ? 0 : configuration.zeroVelocityRejectionWeight)
                if accepted { s.lastHoldTime = s.timestamp }
            } else if motion?.isTurningInPlace(configuration) == true, lacksTranslationConstraint(s) {
                // A hand holding the device: the image moves, but only as the gyro says it turns.
                // Without tracks that triangulate, nothing else keeps the velocity from drifting.
                // The hold is an assumption about a hand, not a reading of the IMU. A drone carried
                // off past far points moves the image the same way, and there holds that updated
                // still-unobserved biases took up the unmodelled acceleration (0.8 m/s² on simulated
                // EuRoC MH_03) until the filter reset: a hold leaves them alone.
                var hold = ZeroVelocityUpdater(sigma: configuration.handheldHoldVelocitySigma)
                hold.keepsBiases = s.accelBiasSigma > configuration.handheldHoldObservedBiasSigma
                if hold.update(&s) { s.lastHoldTime = s.timestamp }
            }
            if let held = s.lastHoldTime, s.timestamp - held <= configuration.heldSettleTime { s.heldTime += interval }
            health.framesSinceTrackUpdate += 1
            if let frame, !still {
                memory.frameCounter += 1
                let rate = s.bodyRate(gyro: gyroNow ?? s.biasGyro)
                StateHelper.augmentClone(&s, frame: memory.frameCounter, angularVelocityWorld: s.rotation * rate)
                let turnNoise = configuration.turnRateNoise + configuration.readoutTurnRateNoise * (rollingShutter?.readout ?? 0)
                if turnNoise > 0 {
                    let extra = turnNoise * rate.norm / configuration.pixelNoiseSigma
                    s.clones[s.clones.count - 1].noiseScale = (1 + extra * extra).squareRoot()
                }
                // The rows' turn as the correction applied it (the rate fitted over the readout).
                let rowRate = rowTurn.map { gyroCorrection * ($0.rate - s.biasGyro) } ?? rate
                features.append(frame, frameNumber: memory.frameCounter, stereo: isStereo, readout: rollingShutter,
                                angularVelocity: rowRate, angularAcceleration: rowAcceleration)
                runUpdates(&s, current: frame)
                followReadoutEstimate(s)
                rig = s.rig
                intrinsicOffsets = s.intrinsicOffsets
                imuIntrinsics = s.imuIntrinsics
            }
            health.framesSinceInit += 1
            if isDiverged(s) || isVisuallyInconsistent {
                resetAfterDivergence(s, at: frameTime)
            } else {
                state = s
                recentPoses.add(ResetBridge.Anchor(time: s.timestamp, rotation: s.rotation, position: s.position,
                                                   velocity: s.velocity, velocitySigma: s.velocitySigma,
                                                   biasGyro: s.biasGyro, biasAccel: s.biasAccel))
            }
        }

        if let frame {
            memory.previousPixels = Dictionary(uniqueKeysWithValues: frame.features.map { ($0.id, ($0.pixel, $0.normalized)) })
            memory.previousFeatures = frame.features
        }
        let points = state != nil ? featurePoints(frame) : []
        let t3 = ThreadClock.milliseconds()
        let elsewhere = startup.elsewhereMilliseconds
        startup.elsewhereMilliseconds = 0
        let result = makeResult(timestamp: timestamp, timestampNs: timestampNs, frame: frame, featureCount: featureCount,
                                points: points,
                                timings: TrackingTimings(frontEnd: t1 - t0, backEnd: t3 - t1 + elsewhere,
                                                         wall: Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e6))
        memory.lastResult = result
        return result
    }

    /// Before the first state: tracks stillness and the alignment's frames, then tries to start.
    private mutating func prepareStart(at timestamp: inout Double, frame: FeatureFrame?, motion: ImageMotion?,
                                       previousFrameTime: Double) {
        var previousFrameTime = previousFrameTime
        // Visual stillness gates the static initialiser: a hovering drone or a smooth hand-held
        // motion can have a quiet IMU while moving at constant velocity.
        if motion?.isStill(configuration) == true {
            if startup.stillSince == nil { startup.stillSince = previousFrameTime }
        } else {
            startup.stillSince = nil
        }
        if let motion {
            startup.recentSteadiness.append(motion.isStill(configuration) || motion.isTurningInPlace(configuration))
            if startup.recentSteadiness.count > configuration.steadinessWindow { startup.recentSteadiness.removeFirst() }
        }
        var readoutFound = false
        if let frame {
            let observations = frame.features.map { ($0.id, $0.normalized, isStereo ? $0.rightNormalized : nil) }
            var aligned = VisualInertialAlignment.Frame(time: timestamp, observations: observations)
            if startReadoutUnknown {
                let middle0 = RollingShutterCorrection.middleRow(height: imageHeights.0)
                let middle1 = RollingShutterCorrection.middleRow(height: imageHeights.1 ?? imageHeights.0)
                aligned.rowOffsets = frame.features.map { ($0.pixel.y - middle0, isStereo ? $0.rightPixel.map { $0.y - middle1 } : nil) }
            }
            startup.alignmentFrames.append(aligned)
            let window = configuration.alignmentWindow
            startup.alignmentFrames.removeAll { timestamp - $0.time > window + 1e-6 }
            if let samples = imu.prefix(through: timestamp) {
                let solver = GyroBiasFromImages(rig: rig)
                var solution = solver.solve(frames: startup.alignmentFrames, samples: samples, noise: noise)
                let timing = imageTiming(solver, samples: samples, bias: solution?.bias ?? .zero)
                startup.timingUndecided = timing.undecided
                if let shift = timing.shift {
                    applyStartTimeShift(shift)
                    timestamp += shift
                    previousFrameTime += shift
                }
                if let lineDelay = timing.lineDelay {
                    applyStartReadout(lineDelay: lineDelay)
                    readoutFound = true
                }
                if timing.shift != nil || readoutFound {
                    solution = solver.solve(frames: startup.alignmentFrames, samples: samples, noise: noise)
                }
                let usable = configuration.initializationPriors.imageGyroBiasMaximumSigma
                startup.gyroBias = solution.flatMap { $0.sigma <= usable ? $0 : nil }
                let wait = configuration.startGyroBiasWaitSignificance
                startup.gyroBiasUndecided = wait > 0
                    && (solution.map { $0.sigma > usable && $0.bias.norm >= wait * $0.sigma } ?? true)
            }
        }
        if startup.anchor == nil { followStartAttitude(through: timestamp) }
        // This frame's tracks went to the front-end's test and are read by the filter uncorrected;
        // from the next frame on every frame is corrected, so the start waits for it.
        if readoutFound { return }
        initialize(at: timestamp, frame: frame, previousFrameTime: previousFrameTime)
        if state == nil, let frame, let v = stereoVelocity(frame, dt: timestamp - previousFrameTime) {
            startup.stereoVelocities.append((timestamp, v))
            if startup.stereoVelocities.count > 40 { startup.stereoVelocities.removeFirst() }
        }
    }

    /// Advances the attitude shown before the first start (``StartAttitude``) to the newest IMU
    /// sample at or before `t`, its tilt from the mean specific force of the last
    /// ``StartAttitude/tiltWindow`` seconds. It begins
    /// once ``TrackerConfiguration/startAttitudeMinimumIMU`` seconds of IMU exist.
    private mutating func followStartAttitude(through t: Double) {
        guard let samples = imu.prefix(through: t), let newest = samples.last, let first = imu.firstTime,
              newest.timestamp - first >= configuration.startAttitudeMinimumIMU else { return }
        let bias = startup.gyroBias?.bias ?? .zero
        let up = Self.meanSpecificForce(samples.drop { $0.timestamp < newest.timestamp - StartAttitude.tiltWindow }, gyroBias: bias)
        if var attitude = startup.attitude {
            attitude.advance(with: samples.drop { $0.timestamp <= attitude.time }, gyroBias: bias, up: up)
            startup.attitude = attitude
        } else if let up {
            startup.attitude = StartAttitude(up: up, time: newest.timestamp)
        }
    }

    /// Drops the filter after a divergence, keeping a pose from before the divergence showed
    /// (``TrackerConfiguration/resetAnchorLookback``) as the anchor of the next start, which bridges
    /// to it with the IMU (``ResetBridge``). Internal rather than private so that a test can stand
    /// in for a divergence.
    mutating func resetAfterDivergence(_ s: FilterState, at timestamp: Double) {
        // Unsettled: the last pose, kept as it is.
        var anchor = ResetBridge.Anchor(time: s.timestamp, rotation: s.clones.last?.rotation ?? s.rotation,
                                        position: s.clones.last?.position ?? s.position)
        if let first = recentPoses.firstTime,
           var settled = recentPoses.pose(atOrBefore: s.timestamp - configuration.resetAnchorLookback),
           settled.time - first >= configuration.resetBridgeMinimumRun {
            settled.last = (anchor.rotation, anchor.position)
            anchor = settled
        }
        startup.anchor = anchor
        recentPoses.removeAll()
        state = nil
        features.removeAll()
        startup.alignmentFrames.removeAll()
        startup.disagreeingAnswers.removeAll()
        startup.gyroBias = nil
        startup.attitude = nil
        health.relocalizingFrames = configuration.relocalizingFrames
        health.framesSinceInit = 0
        startup.resetTime = timestamp
        startup.timeOffset = s.timeOffset
    }

    /// Feeds the readout estimator with this frame and the previous one (uncorrected tracks). Its
    /// first readout corrects every later frame and becomes the prior of the filter's readout state
    /// (``TrackerConfiguration/readoutPriorSigma``), which refines it from then on; the estimator
    /// then only decides, when final, that the camera is a global shutter after all. With the
    /// prior σ at 0 the estimator's value is used as before, updated while it is refined (a change
    /// under 0.5 ms keeps the correction in use).
    private mutating func estimateReadout(_ frame: FeatureFrame, gyro: Vector3, rotation R_cur_prev: Matrix3?) {
        let rate = rig.R_body_cam0.transpose * (gyro - (state?.biasGyro ?? .zero))
        let raw = previousRawFeatures
        defer {
            previousCameraRate = rate
            previousRawFeatures = frame.features  // before any correction (memory.previousFeatures is after it)
        }
        guard var estimator = readoutEstimator, !estimator.isFinal, let R_cur_prev, let ratePrevious = previousCameraRate else { return }
        // The pairs compare rows at times the time offset places: wait for the filter to know it.
        guard let s = state else { return }
        let td = s.timeOffsetColumn
        guard s.covariance[td * s.dimension + td].squareRoot() <= configuration.readoutTimeOffsetSigma else { return }
        var before: [Int: TrackedFeature] = [:]
        for f in raw { before[f.id] = f }
        var previous: [(normalized: Vector2, row: Double)] = [], current: [(normalized: Vector2, row: Double)] = []
        for f in frame.features {
            guard let p = before[f.id] else { continue }
            previous.append((p.normalized, p.pixel.y))
            current.append((f.normalized, f.pixel.y))
        }
        let pairsBefore = estimator.pairs
        let estimate = estimator.add(previous: previous, current: current, ratePrevious: ratePrevious, rateCurrent: rate, rotation: R_cur_prev)
        readoutEstimator = estimator
        guard estimator.pairs > pairsBefore, let readout = estimate else { return }
        let prior = configuration.readoutPriorSigma
        if prior > 0, readoutEstimatedByFilter {
            // The filter refines its own readout; the estimator only decides a global shutter.
            guard estimator.isFinal, readout == 0 else { return }
            rollingShutter = nil
            if var s = state { StateHelper.resetReadout(&s, value: 0, sigma: 0); state = s }
            readoutEstimatedByFilter = false
            return
        }
        if abs(readout - (rollingShutter?.readout ?? 0)) < 0.0005 { return }
        useReadout(readout)
        if prior > 0, readout > 0, var s = state {
            StateHelper.resetReadout(&s, value: readout, sigma: prior)
            state = s
            readoutEstimatedByFilter = true
        }
    }

    /// Takes the readout the start window's images gave (``imageTiming``): later frames are
    /// corrected with it, the window's frames kept so far are corrected now (at their IMU times), and
    /// the filter will refine it from its start (``TrackerConfiguration/readoutPriorSigma``), as it
    /// does an estimate of ``ReadoutEstimator``. The window's frames are turned as the frames after
    /// them will be before the filter starts, with the raw gyro: the alignment must see one model.
    private mutating func applyStartReadout(lineDelay: Double) {
        useReadout(lineDelay * Double(imageHeights.0))
        guard let rs = rollingShutter else { return }
        for k in startup.alignmentFrames.indices {
            let time = startup.alignmentFrames[k].time
            guard let turn = imu.gyroFit(at: time, halfWidth: 0.5 * rs.readout) else { continue }
            startup.alignmentFrames[k] = rs.apply(startup.alignmentFrames[k], angularVelocity: turn.rate,
                                                  angularAcceleration: turn.acceleration)
        }
        readoutEstimatedByFilter = configuration.readoutPriorSigma > 0
    }

    /// Corrects later frames with readout `t` (0: global shutter).
    private mutating func useReadout(_ t: Double) {
        rollingShutter = t > 0 ? RollingShutterCorrection(lineDelay: t / Double(imageHeights.0), height0: imageHeights.0,
                                                          height1: imageHeights.1, rig: rig) : nil
    }

    /// After an update, later frames are corrected with the filter's readout when it estimates it.
    private mutating func followReadoutEstimate(_ s: FilterState) {
        // A readout at or below zero has no meaning; the state may dip there, but the correction
        // keeps a small one so the rows keep their place in the readout and the state can recover.
        let t = max(1e-4, s.readout)
        guard readoutEstimatedByFilter, abs(t - (rollingShutter?.readout ?? 0)) > 1e-5 else { return }
        useReadout(t)
    }

    /// The camera's translation from the last frame to `t1` at the filter's velocity (constant
    /// over the frame interval), and the depths of the last frame's triangulated feature points in
    /// that frame's camera; nil before the filter runs or while its velocity is uncertain.
    /// `R_cur_prev` is the gyro's camera rotation.
    func predictedCameraTranslation(to t1: Double, rotation R_cur_prev: Matrix3) -> TranslationPrediction? {
        guard let s = state, let T_wc = memory.lastResult?.T_world_camera, t1 > s.timestamp else { return nil }
        let dt = t1 - s.timestamp
        // After a gap, or while the velocity is still uncertain (converging, or coasting after a
        // blind stretch), the rotation alone is the safer start.
        guard dt < 0.5, s.velocitySigma <= configuration.convergedVelocitySigma else { return nil }
        // Camera centre displacement (world), then into the current camera: t = −R_wc_curᵀ Δc.
        let R_wc_cur = T_wc.rotationMatrix * R_cur_prev.transpose
        let t = -1.0 * (R_wc_cur.transpose * (s.velocity * dt))
        var prediction = TranslationPrediction(t_cur_prev: t, depths: lastFeatureDepths())
        guard let depth = prediction.typicalDepth else { return nil }
        // A shift of a few pixels is inside KLT's basin whatever the start; only a large one needs
        // the translated starts (otherwise the starts, and the figures, stay those of the rotation
        // alone). The patch warps use the prediction whatever the shift.
        prediction.shiftsStarts = camera0Model.fx * Vector2(t.x, t.y).norm / depth >= configuration.translationPredictionMinimumShift
        return prediction
    }

    /// Depths of the last frame's triangulated feature points in that frame's camera, by id
    /// (empty before the filter reports a pose).
    func lastFeatureDepths() -> [Int: Double] {
        guard let last = memory.lastResult, let T_wc = last.T_world_camera else { return [:] }
        let T_cw = T_wc.inverse
        var depths: [Int: Double] = [:]
        for p in last.featurePoints { depths[p.id] = (T_cw * p.position_world).z }
        return depths
    }

    /// Gyro-integrated rotation of cam0 between two frame times (`p_cur = R p_prev`), for KLT.
    func predictedCameraRotation(from t0: Double, to t1: Double) -> Matrix3? {
        guard t0.isFinite, t1 > t0 else { return nil }
        // Before the filter exists, the start window's images may already know the bias.
        let bg = state?.biasGyro ?? startup.gyroBias?.bias ?? .zero
        let correction = state?.gyroCorrection ?? .identity
        let segments = IMUSegment.split(imu.slice(from: t0), from: t0, to: t1, maxGap: .infinity)
        guard !segments.isEmpty else { return nil }
        var r = Matrix3.identity
        for segment in segments { r = r * SO3.exp(correction * (segment.gyro - bg) * segment.duration) }
        // Body: R_prev_cur = r. Camera: R_cur_prev = R_bcᵀ rᵀ R_bc.
        let rbc = rig.R_body_cam0
        return rbc.transpose * r.transpose * rbc
    }
}

import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// The estimator's machinery behind ``VisualInertialOdometry``: front-end, IMU buffer,
/// initialisation, MSCKF propagation/update/marginalisation and the tracking-state decision.
struct EstimatorCore {
    let configuration: TrackerConfiguration
    let isStereo: Bool
    let rig: CameraRig
    let camera0Model: any CameraModel
    let noise: IMUNoise
    let T_body_cam0: RigidTransform
    private let makeTracker: () -> FeatureTracker

    var tracker: FeatureTracker
    var imuBuffer: [IMUMeasurement] = []
    var state: FilterState?
    var tracks: [Int: FeatureTrack] = [:]
    var frameCounter = 0
    var lastFrameTime = -Double.infinity
    var lastResult: TrackingResult?
    var framesSinceInit = 0
    var relocalizingFrames = 0
    /// Pose to keep after a divergence reset (position and heading continuity).
    var anchor: (rotation: Matrix3, position: Vector3)?
    var firstIMUTime: Double?
    /// Time of the last divergence reset: a re-initialisation waits as long after it as the first
    /// one waits after the start (the alignment needs the same span of frames).
    var resetTime: Double?
    /// Pixel positions of the previous frame's features, for the stillness test.
    var previousPixels: [Int: Vector2] = [:]
    /// The previous frame's features (stereo velocity at initialisation from motion).
    var previousFeatures: [TrackedFeature] = []
    /// Start of the current visually still stretch (before initialisation).
    var stillSince: Double?
    /// Stereo body velocities of the frames before initialisation (gravity from motion).
    var initVelocities: [(time: Double, velocity: Vector3)] = []
    /// Diagnostics only: rewrites each front-end frame before the back-end sees it (experiments
    /// that replace measured tracks by ideal ones to separate front-end and estimator errors).
    var frameFilter: ((FeatureFrame) -> FeatureFrame)?
    /// Accepted and χ²-rejected track counts of the latest updates (consistency test).
    var recentUpdates: [(used: Int, rejected: Int)] = []
    /// Features of the frames before initialisation (visual–inertial alignment from motion).
    var initFrames: [VisualInertialAlignment.Frame] = []

    init(configuration: TrackerConfiguration, camera0: CameraCalibration, camera1: CameraCalibration?,
         imu: IMUCalibration) throws {
        self.configuration = configuration
        let cam0 = try CameraModels.make(camera0)
        camera0Model = cam0
        T_body_cam0 = camera0.T_body_camera
        noise = imu.noiseDensities
        let frontEnd = configuration.frontEnd
        if let camera1 {
            let cam1 = try CameraModels.make(camera1)
            let T_c1_c0 = camera1.T_body_camera.inverse * camera0.T_body_camera
            isStereo = true
            rig = CameraRig(R_body_cam0: camera0.T_body_camera.rotationMatrix, p_body_cam0: camera0.T_body_camera.translation,
                            R_c1_c0: T_c1_c0.rotationMatrix, t_c1_c0: T_c1_c0.translation, hasRight: true)
            makeTracker = { FeatureTracker(camera: cam0, rightCamera: cam1, T_right_left: T_c1_c0, configuration: frontEnd) }
        } else {
            isStereo = false
            rig = CameraRig(R_body_cam0: camera0.T_body_camera.rotationMatrix, p_body_cam0: camera0.T_body_camera.translation,
                            R_c1_c0: .identity, t_c1_c0: .zero, hasRight: false)
            makeTracker = { FeatureTracker(camera: cam0, configuration: frontEnd) }
        }
        tracker = makeTracker()
    }

    mutating func reset() {
        tracker = makeTracker()
        imuBuffer.removeAll()
        state = nil
        tracks.removeAll()
        frameCounter = 0
        lastFrameTime = -.infinity
        lastResult = nil
        framesSinceInit = 0
        relocalizingFrames = 0
        anchor = nil
        firstIMUTime = nil
        resetTime = nil
        previousPixels = [:]
        previousFeatures = []
        stillSince = nil
        initVelocities = []
        initFrames = []
        recentUpdates = []
    }

    mutating func addIMU(_ m: IMUMeasurement) {
        guard m.timestamp.isFinite, m.gyro.isFinite, m.accel.isFinite else { return }
        if let last = imuBuffer.last, m.timestamp <= last.timestamp { return }   // duplicate or out of order
        if firstIMUTime == nil { firstIMUTime = m.timestamp }
        imuBuffer.append(m)
        // Keep ~2 s before the filter time: enough for the static window and one propagation.
        let keepFrom = (state?.timestamp ?? m.timestamp) - 2.0
        if imuBuffer.count > 1000, let cut = imuBuffer.firstIndex(where: { $0.timestamp >= keepFrom }), cut > 0 {
            imuBuffer.removeFirst(cut)
        }
    }

    // MARK: - Frames

    mutating func processFrame(timestamp: Double, timestampNs: Int64, left: GrayImage?, right: GrayImage?)
        -> TrackingResult {
        // Duplicated or out-of-order frame: answer with the previous result (nothing new to learn).
        if timestamp <= lastFrameTime, var again = lastResult {
            again.timings = TrackingTimings()
            return again
        }
        let previousFrameTime = lastFrameTime
        lastFrameTime = timestamp

        // Front-end with a gyro-predicted rotation.
        let t0 = threadCPUMilliseconds()
        var frame: FeatureFrame?
        if let left, let plane = FloatPlane(width: left.width, height: left.height, gray8: left.pixels) {
            let rightPlane = right.flatMap { FloatPlane(width: $0.width, height: $0.height, gray8: $0.pixels) }
            let predicted = predictedCameraRotation(from: previousFrameTime, to: timestamp)
            frame = tracker.process(image: plane, timestamp: timestamp, rightImage: isStereo ? rightPlane : nil,
                                    predictedRotation: predicted)
        }
        if let frameFilter, let f = frame { frame = frameFilter(f) }
        let t1 = threadCPUMilliseconds()
        let featureCount = frame?.features.count ?? 0

        // Back-end.
        if state == nil {
            // Visual stillness gates the static initialiser: a hovering drone or a smooth hand-held
            // motion can have a quiet IMU while moving at constant velocity.
            if let frame, isStationary(frame) {
                if stillSince == nil { stillSince = previousFrameTime }
            } else {
                stillSince = nil
            }
            if let frame {
                let observations = frame.features.map { ($0.id, $0.normalized, isStereo ? $0.rightNormalized : nil) }
                initFrames.append(.init(time: timestamp, observations: observations))
                let window = configuration.alignmentWindow
                initFrames.removeAll { timestamp - $0.time > window + 1e-6 }
            }
            initialize(at: timestamp, frame: frame, previousFrameTime: previousFrameTime)
            if state == nil, let frame, let v = stereoVelocity(frame, dt: timestamp - previousFrameTime) {
                initVelocities.append((timestamp, v))
                if initVelocities.count > 40 { initVelocities.removeFirst() }
            }
        }
        var diverged = false
        if var s = state {
            Propagator(noise: noise).propagate(&s, to: timestamp, samples: imuSlice(from: s.timestamp))
            // A dropped image only propagates: the front-end did not see it, so no track ended.
            // A still camera (no image motion) gets a zero-velocity update instead of a clone, so the
            // window keeps frames with parallax (OpenVINS's ZUPT, Geneva et al. ICRA 2020).
            let still = frame.map { isStationary($0) } ?? false
            if still {
                // The images say "not moving": a filter sure of the opposite is inconsistent. A
                // rejected zero-velocity update weighs like several rejected tracks.
                let accepted = zeroVelocityUpdate(&s)
                recordUpdate(used: accepted ? 1 : 0, rejected: accepted ? 0 : configuration.inconsistencyMinimumRejections / 6)
            }
            if let frame, !still {
                frameCounter += 1
                s.addClone(frame: frameCounter)
                addObservations(frame, frameNumber: frameCounter)
                runUpdates(&s, current: frame)
            }
            framesSinceInit += 1
            if isDiverged(s) || isVisuallyInconsistent {
                diverged = true
                anchor = (s.clones.last?.rotation ?? s.rotation, s.clones.last?.position ?? s.position)
                state = nil
                tracks.removeAll()
                initFrames.removeAll()
                relocalizingFrames = configuration.relocalizingFrames
                framesSinceInit = 0
                resetTime = timestamp
            } else {
                state = s
            }
        }

        _ = diverged

        if let frame {
            previousPixels = Dictionary(uniqueKeysWithValues: frame.features.map { ($0.id, $0.pixel) })
            previousFeatures = frame.features
        }
        let points = state != nil ? featurePoints(frame) : []
        let t3 = threadCPUMilliseconds()
        let result = makeResult(timestamp: timestamp, timestampNs: timestampNs, frame: frame, featureCount: featureCount,
                                points: points,
                                timings: TrackingTimings(frontEnd: t1 - t0, backEnd: t3 - t1))
        lastResult = result
        return result
    }

    /// IMU samples from the one in force at `t` onwards.
    func imuSlice(from t: Double) -> ArraySlice<IMUMeasurement> {
        let i = imuBuffer.lastIndex { $0.timestamp <= t } ?? 0
        return imuBuffer[i...]
    }

    /// Gyro-integrated rotation of cam0 between two frame times (`p_cur = R p_prev`), for KLT.
    func predictedCameraRotation(from t0: Double, to t1: Double) -> Matrix3? {
        guard t0.isFinite, t1 > t0 else { return nil }
        let bg = state?.biasGyro ?? .zero
        let segments = IMUSegment.split(imuSlice(from: t0), from: t0, to: t1, maxGap: .infinity)
        guard !segments.isEmpty else { return nil }
        var r = Matrix3.identity
        for segment in segments { r = r * SO3.exp((segment.gyro - bg) * segment.duration) }
        // Body: R_prev_cur = r. Camera: R_cur_prev = R_bcᵀ rᵀ R_bc.
        let rbc = rig.R_body_cam0
        return rbc.transpose * r.transpose * rbc
    }

    // MARK: - Features

    mutating func addObservations(_ frame: FeatureFrame, frameNumber: Int) {
        for f in frame.features {
            let o = Observation(frame: frameNumber, left: f.normalized, right: isStereo ? f.rightNormalized : nil)
            tracks[f.id, default: FeatureTrack(id: f.id, observations: [])].observations.append(o)
        }
    }

    /// Chooses the tracks to use this frame, updates, and marginalises the oldest clone when full.
    mutating func runUpdates(_ s: inout FilterState, current frame: FeatureFrame) {
        let currentIds = Set(frame.features.map(\.id))
        let minFrames = isStereo ? 2 : 3
        var selected: [FeatureTrack] = []
        var finished: [Int] = []
        let oldest = s.clones.count > configuration.windowSize ? s.clones.first?.frame : nil
        var oldestCandidates: [FeatureTrack] = []
        for id in tracks.keys.sorted() {
            guard let t = tracks[id] else { continue }
            if !currentIds.contains(id) {
                if t.observations.count >= minFrames { selected.append(t) }
                finished.append(id)
            } else if oldest != nil, t.observations.first?.frame == oldest, t.observations.count >= minFrames {
                oldestCandidates.append(t)
            }
        }
        // Tracks reaching the end of the window: use (and consume) at most `maxWindowTracksPerUpdate`
        // of the longest ones; the others only lose their oldest observation at marginalisation.
        // This bounds the cost of frames where many tracks started together (after initialisation).
        oldestCandidates.sort { ($0.observations.count, $1.id) > ($1.observations.count, $0.id) }
        for t in oldestCandidates.prefix(configuration.maxWindowTracksPerUpdate) {
            selected.append(t)
            tracks[t.id]?.observations.removeAll()
        }
        for id in finished { tracks[id] = nil }
        if !selected.isEmpty {
            let sigma = configuration.pixelNoiseSigma / (0.5 * (camera0Model.fx + camera0Model.fy))
            let updater = MSCKFUpdater(rig: rig, sigma: sigma, chiSquaredProbability: configuration.chiSquaredProbability)
            let (outcome, _) = updater.update(&s, tracks: selected)
            recordUpdate(used: outcome.used, rejected: outcome.rejected)
        }
        while s.clones.count > configuration.windowSize {
            let gone = s.clones[0].frame
            s.removeClone(at: 0)
            for id in tracks.keys.sorted() {
                tracks[id]?.observations.removeAll { $0.frame == gone }
                if tracks[id]?.observations.isEmpty == true, !currentIds.contains(id) { tracks[id] = nil }
            }
        }
    }

    /// Well-triangulated currently tracked features, for the AR layer (planes, hit tests).
    func featurePoints(_ frame: FeatureFrame?) -> [TrackedFeaturePoint] {
        guard let frame, let s = state else { return [] }
        var cloneByFrame: [Int: Clone] = [:]
        for c in s.clones { cloneByFrame[c.frame] = c }
        var out: [TrackedFeaturePoint] = []
        for f in frame.features {
            guard let t = tracks[f.id] else { continue }
            let obs = t.observations.filter { cloneByFrame[$0.frame] != nil }
            guard obs.count >= 2 || (obs.count == 1 && obs[0].right != nil) else { continue }
            let poses = obs.map { o -> (Matrix3, Vector3) in
                let c = cloneByFrame[o.frame]!
                return (c.rotation, c.position)
            }
            if let x = Triangulation.triangulate(obs, poses: poses, rig: rig, iterations: 3, minParallax: 0.03) {
                out.append(TrackedFeaturePoint(id: f.id, position_world: x))
            }
        }
        return out
    }
}

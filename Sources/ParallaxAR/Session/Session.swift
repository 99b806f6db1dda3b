import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking

/// An AR session replaying a dataset (`ARSession`).
///
/// ARKit pushes frames from the camera; here the dataset is the camera, and the caller pulls:
/// ``nextFrame()`` processes replay events up to the next camera frame and returns it (the
/// delegate hears of it too), ``frames`` is the same as an `AsyncSequence`, ``advance(to:)``
/// replays up to a time. Everything runs on the caller's thread; the session is not `Sendable`.
///
/// **Determinism**: with ``ReplayPace/asFastAsPossible`` (the default) the same dataset,
/// configuration and seed give the same frames, anchors and identifiers, bit for bit.
public final class Session {
    /// How far beyond the ends of the ground truth (ns) the ground-truth pose source still gives a
    /// frame the end pose (``GroundTruthPoses/T_world_body(at:holdingEndsFor:)``): 50 ms, so the
    /// first and last camera frames of a recording are not lost to a slightly shorter mocap log.
    public static let groundTruthEndHoldNs: Int64 = 50_000_000

    /// The sensor source replayed (a dataset folder, a recording or a live source).
    public let dataset: any SensorSource
    /// Source, pace, time window and seed. Changes take effect at the next reset.
    public var replayOptions: ReplayOptions
    /// Receiver of events (held weakly, like ARKit).
    public weak var delegate: (any SessionDelegate)?
    /// Fills ``Frame/lightEstimate`` when the configuration enables light estimation.
    public var lightEstimator: (any LightEstimator)?
    /// The configuration of the last ``run(_:options:)``; nil before.
    public private(set) var configuration: WorldTrackingConfiguration?
    /// The latest frame.
    public private(set) var currentFrame: Frame?
    /// True between ``run(_:options:)`` and ``pause()`` (or the end of the replay).
    public private(set) var isRunning = false

    private var iterator: (any SensorEventIterator)?
    /// The tracker's latest camera–IMU time offset (s): frames wait for the IMU to pass t_cam + it.
    private var timeOffset = 0.0
    private var source: (any PoseSource)?
    /// True when the visual-inertial tracker runs on both cameras (the world mapper weighs its odometry by it).
    var tracksInStereo: Bool { (source as? TrackerPoseSource)?.usesRightImage ?? false }
    private var undistorter: ImageUndistorter?
    var T_A_W: RigidTransform?
    /// The world-map layer (Session+WorldMap.swift); nil until the first frame.
    var worldMapping: SessionWorldMapping?
    private var identifiers: AnchorIdentifierGenerator
    var userAnchors: [WorldAnchor] = []
    var planes: PlaneTracker?
    var planeAnchors: [Int: PlaneAnchor] = [:]
    var landmarks = LandmarkMap()
    /// ``LandmarkMap/revision`` at the last plane update.
    var lastPlaneRevision = -1
    /// Shortest data time (s) between two plane updates; the points still enter the map every
    /// frame. ARKit and ARCore update plane anchors at a lower rate than frames arrive; here the
    /// plane tracker was the largest per-frame cost of a long session (docs/ar-session.md).
    /// 0 updates at every frame.
    public var planeUpdateInterval = 0.1
    /// Largest depth uncertainty, as a fraction of the point's distance from the camera, of a point
    /// that enters the plane map: the square root of its covariance's trace plus its motion depth
    /// variance (``TrackedFeaturePoint/motionDepthSigma``), over that distance. Points triangulated
    /// across a hand-held start, while the tracker held its velocity at zero, carry that doubt and
    /// stay out until later views measure them; planes fitted to them sat 8–43 cm from the true
    /// ceiling. The plane fits still weigh points by their covariance alone.
    /// `.infinity` admits every point.
    public var maximumPlanePointRelativeSigma = PointCloud.defaultMaximumRelativeSigma
    /// Seconds a newly found plane's equation must hold, within ``planeConfirmationTolerance``,
    /// before its anchor is added (0 adds it at once). A plane found on the first points of a
    /// hand-held walk can still move by centimetres while the tracker settles its scale: on a phone
    /// walk through TUM-VI room5 the ceiling was found 7.7 cm from where it settled and moved there
    /// over 2 s, and every hit on it meanwhile was off; a floor found on a steadier start held within
    /// 1 cm from the first update. ARKit and ARCore likewise report a plane once it persists.
    /// Only with estimated poses: with the ground-truth source planes are added when found.
    public var planeConfirmationTime = 1.0
    /// Largest change (m) of a waiting plane's offset, or of its normal (rad, the same number), over
    /// ``planeConfirmationTime`` for it to count as settled.
    public var planeConfirmationTolerance = 0.01
    /// Largest median distance (m) from a waiting plane, once its equation has held, of the newest
    /// frame's points over its outline (those within ``planeAgreementBand`` of it) for its anchor
    /// to be added; otherwise the plane moves onto their median and its wait starts again.
    /// `.infinity` skips the check.
    ///
    /// Why: a plane fitted on early, poorly triangulated points can hold still while the points
    /// the camera measures now lie elsewhere. Nothing in the map moves it: the old points keep it
    /// in place and the new ones, outside its 2.5 cm inlier band, are taken for its noise. On a
    /// phone walk along TUM-VI room2 with the timing left out of `sensor.yaml` the ceiling was
    /// fitted at 5 s on points 6–8 cm above the true ceiling, held still, and was announced at
    /// 6.2 s; from 6 s on, the points the camera triangulated lay within 2 cm of the truth, yet the
    /// plane stayed 9 cm off until 13 s and 27 % of all hits missed. 2 cm is the distance the hit
    /// test is judged by (issue 14).
    public var planeAgreementTolerance = 0.02
    /// Distance (m) from a waiting plane within which the newest frame's points count as measuring
    /// it (``planeAgreementTolerance``): the plane tracker's `duplicateSeparation`, the gap under
    /// which two parallel slabs over one area are one surface.
    public var planeAgreementBand = 0.15
    /// Fewest such points for the check to decide; with fewer (the plane out of view) the plane is
    /// announced on its held equation alone.
    public var planeAgreementMinimumPoints = 8
    /// Planes found but not yet announced: when their current run of agreement began, and the
    /// plane equation at its start.
    var pendingPlanes: [Int: (since: Double, offset: Double, normal: Vector3)] = [:]
    /// The newest frame's points admitted to the plane map (`W`), for ``planeAgreementTolerance``.
    var newestPlanePoints: [Vector3] = []
    /// Data time of the last plane update, and the points seen since it (their sight lines).
    var lastPlaneUpdate: Double?
    var pointsSeenSincePlaneUpdate = Set<UInt64>()
    private var lastTrackingState: TrackingState?
    private var lastFrameNs: Int64?
    private var paceOrigin: (wall: ContinuousClock.Instant, dataNs: Int64)?
    /// Seconds (dataset clock) of the first frame with normal tracking; nil before.
    public private(set) var trackingStartTime: Double?
    /// The tracker's full answer for the latest frame (``PoseSourceKind/tracking`` only): timings,
    /// velocity, biases, time offset. The session drives the tracker itself, so callers that also
    /// want tracking figures (trajectory, CPU time) need no second pass.
    public private(set) var lastTrackingResult: TrackingResult?
    /// CPU milliseconds the latest frame cost in each stage (for benchmarks).
    public private(set) var lastStageTimes = SessionStageTimes()
    /// True when the session runs an ``OrientationTrackingConfiguration`` (3-DoF, no position).
    public private(set) var isOrientationOnly = false
    /// Warnings of the stream checks made when tracking starts (a few unpaired stereo frames, an
    /// IMU that starts late…): frames they cost, not reasons to stop. Streams that cannot be tracked
    /// together make ``nextFrame()`` throw instead.
    public private(set) var streamWarnings: [String] = []

    /// A session over `dataset`; nothing is read until the first frame is requested.
    public init(dataset: any SensorSource, replay: ReplayOptions = .init()) {
        self.dataset = dataset
        self.replayOptions = replay
        self.identifiers = AnchorIdentifierGenerator(seed: replay.seed)
    }

    /// Opens the dataset at `url` (the folder containing `mav0`, or `mav0` itself).
    public convenience init(datasetAt url: URL, replay: ReplayOptions = .init()) throws {
        self.init(dataset: try EuRoCDataset(url: url), replay: replay)
    }

    /// The calibration of the camera the session uses (cam0).
    public var cameraCalibration: CameraCalibration? { dataset.cameras.first }

    /// Starts or reconfigures the session. The first run, and any run with `.resetTracking`,
    /// restarts the replay from ``ReplayOptions/startTime`` and places the AR world anew.
    public func run(_ configuration: WorldTrackingConfiguration, options: RunOptions = []) {
        start(configuration, options: options, orientationOnly: false)
    }

    /// ``run(_:options:)`` for world tracking or (``OrientationTrackingConfiguration``) orientation
    /// only; switching between the two resets tracking.
    func start(_ configuration: WorldTrackingConfiguration, options: RunOptions, orientationOnly: Bool) {
        let reset = iterator == nil || options.contains(.resetTracking) || orientationOnly != isOrientationOnly
        isOrientationOnly = orientationOnly
        if options.contains(.removeExistingAnchors) || reset {
            let removed: [any Anchor] = userAnchors + planeAnchors.keys.sorted().compactMap { planeAnchors[$0] }
            userAnchors = []
            planeAnchors = [:]
            pendingPlanes = [:]
            newestPlanePoints = []
            if !removed.isEmpty { delegate?.session(self, didRemove: removed) }
        }
        if reset {
            iterator = nil
            source = nil
            T_A_W = nil
            worldMapping = nil
            landmarks.removeAll()
            lastTrackingResult = nil
            lastTrackingState = nil
            lastFrameNs = nil
            paceOrigin = nil
            trackingStartTime = nil
            currentFrame = nil
            identifiers = AnchorIdentifierGenerator(seed: replayOptions.seed)
        }
        if reset || self.configuration?.planeDetection != configuration.planeDetection {
            planes = configuration.planeDetection.isEmpty ? nil : PlaneTracker(detection: configuration.planeDetection)
            lastPlaneRevision = -1
            lastPlaneUpdate = nil
            pointsSeenSincePlaneUpdate = []
            let removed = planeAnchors.keys.sorted().compactMap { planeAnchors[$0] }
            planeAnchors = [:]
            pendingPlanes = [:]
            newestPlanePoints = []
            if !removed.isEmpty { delegate?.session(self, didRemove: removed) }
        }
        self.configuration = configuration
        isRunning = true
    }

    /// Stops delivering frames; a later ``run(_:options:)`` without `.resetTracking` resumes.
    public func pause() { isRunning = false }

    /// A fresh deterministic anchor identifier (seeded counter).
    public func makeIdentifier() -> UUID { identifiers.next() }

    /// Adds a user anchor; the delegate hears `didAdd`.
    public func add(anchor: WorldAnchor) {
        userAnchors.removeAll { $0.identifier == anchor.identifier }
        userAnchors.append(anchor)
        delegate?.session(self, didAdd: [anchor])
    }

    /// Removes an anchor (user or plane) by identifier; the delegate hears `didRemove`.
    public func remove(anchor: any Anchor) {
        var removed: [any Anchor] = []
        if let i = userAnchors.firstIndex(where: { $0.identifier == anchor.identifier }) {
            removed.append(userAnchors.remove(at: i))
        }
        for (key, p) in planeAnchors where p.identifier == anchor.identifier {
            planeAnchors[key] = nil
            planes?.forget(planeID: key)
            removed.append(p)
        }
        if !removed.isEmpty { delegate?.session(self, didRemove: removed) }
    }

    /// All anchors now: user anchors in insertion order, then planes by detection order.
    public var anchors: [any Anchor] {
        userAnchors + planeAnchors.keys.sorted().compactMap { planeAnchors[$0] }
    }

    /// `T_A_W` (estimator z-up world → AR world), once tracking has started.
    public var worldTransform: RigidTransform? { T_A_W }

    /// Processes replay events up to the next camera frame and returns it; nil when paused, not
    /// yet run, or at the end of the replay (or its stop time). Errors reach the delegate too.
    public func nextFrame() throws -> Frame? {
        guard isRunning, let configuration else { return nil }
        do {
            if iterator == nil { try open() }
            guard let iterator else { return nil }
            while let event = try iterator.next() {
                switch event {
                case .imu(let s): source?.process(imu: s)
                case .groundTruth: break
                case .frame(let f):
                    guard f.cam0 != nil else { continue }
                    let frame = try makeFrame(f, configuration: configuration)
                    pace(frame.timestampNs)
                    currentFrame = frame
                    delegate?.session(self, didUpdate: frame)
                    return frame
                }
            }
            isRunning = false
            return nil
        } catch {
            isRunning = false
            delegate?.session(self, didFailWithError: error)
            throw error
        }
    }

    /// Replays up to and including `time` (seconds after the dataset start) and returns the last
    /// frame at or before it.
    @discardableResult
    public func advance(to time: Double) throws -> Frame? {
        let origin = try dataset.startTimestampNs() ?? 0
        let limit = origin &+ Int64((time * 1e9).rounded())
        while isRunning {
            if let c = currentFrame, c.timestampNs >= limit { break }
            guard try nextFrame() != nil else { break }
        }
        return currentFrame
    }

    /// The frames as an `AsyncSequence` (each element is also delivered to the delegate).
    public var frames: FrameSequence { FrameSequence(session: self) }

    private func open() throws {
        let events = try dataset.makeDecodedEvents(from: replayOptions.startTime, to: replayOptions.stopTime,
                                                   includeGroundTruth: false, cameras: dataset.isStereo ? [0, 1] : [0])
        timeOffset = dataset.cameras.first?.timeOffset ?? 0
        iterator = IMULookaheadIterator(events) { [weak self] in (self?.timeOffset ?? 0) + IMULookaheadIterator.margin }
        switch replayOptions.source {
        case _ where isOrientationOnly: source = try OrientationPoseSource(dataset: dataset)
        case .groundTruth: source = try GroundTruthPoseSource(dataset: dataset)
        case .tracking:
            let tracker = try TrackerPoseSource(dataset: dataset, mode: replayOptions.trackerMode,
                                                configuration: replayOptions.trackerConfiguration)
            streamWarnings = tracker.warnings
            source = tracker
        }
        undistorter = try cameraCalibration.map { ImageUndistorter(lens: try $0.makeCameraModel()) }
    }

    private func pace(_ ns: Int64) {
        guard case .realTime(let speed) = replayOptions.pace, speed > 0 else { return }
        let clock = ContinuousClock()
        guard let origin = paceOrigin else {
            paceOrigin = (clock.now, ns)
            return
        }
        let due = origin.wall + .nanoseconds(Int64(Double(ns - origin.dataNs) / speed))
        let wait = due - clock.now
        if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18) }
    }

    private func makeFrame(_ event: FrameEvent, configuration: WorldTrackingConfiguration) throws -> Frame {
        guard let calibration = cameraCalibration, var source else { throw SessionError("session has no camera") }
        if let last = lastFrameNs, Double(event.timestampNs - last) * 1e-9 > 3 / max(calibration.rateHz, 1) {
            delegate?.sessionWasInterrupted(self)
            delegate?.sessionInterruptionEnded(self)
        }
        lastFrameNs = event.timestampNs
        var times = SessionStageTimes()
        let t0 = ThreadClock.milliseconds()
        let raw = try event.loadGray8(0) ?? GrayImage(width: calibration.width, height: calibration.height, fill: 0)
        let right = dataset.isStereo && source.usesRightImage ? try event.loadGray8(1) : nil
        let tracked = try source.process(frame: event, image: raw, rightImage: right)
        let t1 = ThreadClock.milliseconds()
        let output = try mapped(tracked, image: raw, timestamp: event.timestamp, calibration: calibration)
        let t2 = ThreadClock.milliseconds()
        times.tracking = t1 - t0
        times.mapping = t2 - t1
        self.source = source
        lastTrackingResult = output.tracking
        if let t = output.tracking, t.T_world_body != nil { timeOffset = t.timeOffset }

        var transform = Matrix4.identity
        // Before the tracker's first pose the camera shows its attitude alone (`limited(initializing)`,
        // at the origin), as ARKit's does; planes, points and the map use full poses only. A loaded
        // map's world is not known until the session is placed in it.
        let attitude = configuration.initialWorldMap == nil ? output.tracking?.attitudeBeforeStart : nil
        if let T_W_B = output.T_world_body ?? attitude {
            let T_W_C = T_W_B * calibration.T_body_camera
            if T_A_W == nil { T_A_W = WorldFrame.T_A_W(firstCamera: T_W_C, alignment: configuration.worldAlignment) }
            if let T_A_W {
                transform = (T_A_W * T_W_C * RigidTransform(rotationMatrix: Camera.R_cv_ar, translation: .zero)).matrix
            }
        }
        let camera = Camera(transform: transform, trackingState: output.trackingState,
                            intrinsics: calibration.intrinsics.matrix,
                            imageResolution: ImageResolution(width: calibration.width, height: calibration.height),
                            distortion: calibration.distortion)
        if output.trackingState != lastTrackingState {
            lastTrackingState = output.trackingState
            delegate?.session(self, cameraDidChangeTrackingState: camera)
        }
        if output.trackingState == .normal, trackingStartTime == nil { trackingStartTime = event.timestamp }
        let t3 = ThreadClock.milliseconds()
        updatePlanes(output, cameraPose: output.T_world_body.map { $0 * calibration.T_body_camera }, time: event.timestamp)
        let t4 = ThreadClock.milliseconds()
        times.planes = t4 - t3

        let image = configuration.undistortsCapturedImage ? (undistorter?.undistort(raw) ?? raw) : raw
        let captured = AnyImage.gray8(image)
        var cloud: PointCloud?
        if configuration.providesFeaturePoints, let T_A_W {
            let sorted = output.featurePoints.sorted { $0.id < $1.id }
            cloud = PointCloud(points: sorted.map { T_A_W * $0.position }, identifiers: sorted.map(\.id),
                               sigmas: sorted.map(\.sigma))
        }
        var light: LightEstimate?
        if configuration.isLightEstimationEnabled, var estimator = lightEstimator {
            let t5 = ThreadClock.milliseconds()
            light = estimator.estimate(image: captured, camera: camera,
                                       planes: planeAnchors.keys.sorted().compactMap { planeAnchors[$0] })
            lightEstimator = estimator
            times.light = ThreadClock.milliseconds() - t5
        }
        var frame = Frame(timestamp: event.timestamp, timestampNs: event.timestampNs, capturedImage: captured,
                          camera: camera, anchors: anchors, lightEstimate: light, rawFeaturePoints: cloud,
                          worldUp: T_A_W?.rotate(Vector3(0, 0, 1)) ?? Vector3(0, 1, 0))
        frame.worldMappingStatus = worldMappingStatus
        times.other = ThreadClock.milliseconds() - t0 - times.total
        lastStageTimes = times
        return frame
    }
}

/// ``Session/frames``: frames until the replay ends, the session pauses, or an error is thrown.
/// Honours ``ReplayPace/realTime(speed:)``; yields to other tasks between frames.
public struct FrameSequence: AsyncSequence {
    /// Element type.
    public typealias Element = Frame
    /// Failure type.
    public typealias Failure = any Error
    let session: Session

    /// Iterator over the frames.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let session: Session
        /// The next frame.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Frame? {
            await Task.yield()
            return try session.nextFrame()
        }
        /// The next frame.
        public mutating func next() async throws -> Frame? {
            try session.nextFrame()
        }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(session: session) }
}

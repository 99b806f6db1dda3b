import Foundation
import ParallaxDatasets
import ParallaxMath

/// Runs ``VisualInertialOdometry`` over a sensor source (a dataset folder, a recording, a live
/// stream: any ``SensorSource``) and gathers what `parallax replay`, the
/// tests and the benchmark report: per-frame results, the estimated trajectory and statistics.
public struct DatasetRunner {
    /// Summary of one run.
    public struct Summary: Sendable {
        /// Frames processed.
        public var frames = 0
        /// Frames reported `normal`.
        public var normalFrames = 0
        /// `normal` frames once the first second is over (the figure).
        public var normalAfterFirstSecond = NormalAfterFirstSecond()
        /// Frames after the first pose (initialised) and how many of them were `normal`.
        public var framesAfterInit = 0
        /// Time from the first frame to the first pose (s), nil if never initialised.
        public var initializationTime: Double?
        /// Time from the first frame to the first camera orientation (s): the attitude shown before
        /// the first pose (``TrackingResult/attitudeBeforeStart``) or the first pose; nil if none.
        public var orientationTime: Double?
        /// Time from the first frame to the first `normal` frame (s).
        public var timeToNormal: Double?
        /// Losses of the pose after the first one (divergence resets) and how long each lasted.
        public var recoveries = PoseRecoveries()
        /// Per-frame milliseconds spent reading and decoding image files (not tracking cost).
        public var decodeMs: [Double] = []
        /// Per-frame front-end milliseconds.
        public var frontEndMs: [Double] = []
        /// Per-frame back-end milliseconds.
        public var backEndMs: [Double] = []
        /// Per-frame tracking milliseconds (front-end + back-end; decoding excluded).
        public var trackingMs: [Double] { zip(frontEndMs, backEndMs).map { $0 + $1 } }
        /// Per-frame wall-clock tracking milliseconds (``TrackingTimings/wall``).
        public var wallMs: [Double] = []
        /// Estimated body trajectory `T_world_body` (frames with a pose).
        public var trajectory = Trajectory(poses: [], name: "estimate")
        /// The camera–IMU time offset (s) of the last frame with a pose (estimated or from the calibration).
        public var finalTimeOffset: Double?
        /// The rolling-shutter readout (s) estimated by the last frame with a pose (see
        /// ``TrackingResult/estimatedReadout``); nil when not estimated.
        public var finalReadout: Double?
        /// Each camera's `T_body_camera` estimated online, at the last tracked frame (empty when the
        /// extrinsics were held at the calibration's values: mono by default).
        public var finalExtrinsics: [RigidTransform] = []
        /// Each camera's intrinsics `[fx, fy, cx, cy, k1, k2]` estimated online, at the last tracked
        /// frame (empty when held at the calibration's values: the default).
        public var finalIntrinsics: [[Double]] = []
        /// The IMU's scale and misalignment corrections at the last pose, when estimated.
        public var finalIMUIntrinsics: IMUIntrinsics?
        /// The IMU biases (gyroscope rad/s, accelerometer m/s²) estimated at the last frame with a pose.
        public var finalBiases: (gyroscope: Vector3, accelerometer: Vector3)?
        /// Each camera's `T_body_camera` as the calibration states it (the estimate's starting point).
        public var calibratedExtrinsics: [RigidTransform] = []
        /// Ground truth, when the source has it.
        public var groundTruth: Trajectory?
        /// What the source reported while it was read: damage skipped under a partial replay,
        /// late or duplicated messages dropped (``SensorEventIterator/diagnostics``).
        public var readWarnings: [String] = []
        /// Fraction of frames `normal`.
        public var normalFraction: Double { frames > 0 ? Double(normalFrames) / Double(frames) : 0 }
    }

    /// Where the measurements come from.
    public let source: any SensorSource
    /// The estimator.
    public let estimator: VisualInertialOdometry
    /// Frames a dataset folder's streams will lose, each with a count (``EuRoCDataset/checkTimelines(stereo:)``).
    public let warnings: [String]

    /// Creates a runner with a fresh estimator for `source`'s sensors (mono when it has one camera).
    public init(source: any SensorSource, configuration: TrackerConfiguration) throws {
        guard let camera0 = source.cameras.first else {
            throw DatasetError(.layout, file: source.origin, "has no camera; tracking needs one")
        }
        self.source = source
        var c = configuration
        if !source.isStereo { c.mode = .mono }
        estimator = try VisualInertialOdometry(configuration: c, camera0: camera0,
                                               camera1: source.cameras.count > 1 ? source.cameras[1] : nil,
                                               imu: source.imu)
        // Streams that cannot be tracked together (no common time, stereo stamps that never pair)
        // fail here; the checks read a folder's CSV files (other sources check as they stream).
        warnings = try (source as? EuRoCDataset)?.checkTimelines(stereo: c.mode == .stereo) ?? []
    }

    /// Creates a runner over an EuRoC/ASL or TUM-VI folder.
    public init(dataset: EuRoCDataset, configuration: TrackerConfiguration) throws {
        try self.init(source: dataset, configuration: configuration)
    }

    /// Replays `[from, to]` (seconds from the source start; nil = whole) and calls `onFrame` with
    /// each result and the number of frames processed so far.
    ///
    /// With `decodeAhead` (the default) the source is read and its images decoded on a second
    /// thread through a bounded queue (``DecodeAheadIterator``) while this thread tracks; the
    /// results are the same, bit for bit, as with `decodeAhead: false` (everything on this thread).
    /// `pace` nil replays as fast as possible; 1 at the recorded pace, 2 twice as fast
    /// (``PacedEventIterator``).
    public func run(from: Double? = nil, to: Double? = nil, decodeAhead: Bool = true, pace: Double? = nil,
                    onFrame: (TrackingResult, Int) throws -> Void = { _, _ in }) throws -> Summary {
        var summary = Summary()
        summary.calibratedExtrinsics = source.cameras.map(\.T_body_camera)
        let events = try source.makeEvents(from: from, to: to, includeGroundTruth: source.hasGroundTruth)
        // Only the images the estimator reads are decoded (cam1 of a stereo source tracked mono is not).
        let ahead = decodeAhead
            ? DecodeAheadIterator(events, cameras: estimator.configuration.mode == .stereo ? [0, 1] : [0]) : nil
        // Each frame waits for the IMU to pass its exposure time (t_cam + t_d) on the IMU clock.
        var offset = source.cameras.first?.timeOffset ?? 0
        let waited = IMULookaheadIterator(ahead ?? events) { offset + IMULookaheadIterator.margin }
        let decoded: any SensorEventIterator = waited
        // Paced after decoding, so each frame is handed over at its time with its pixels ready.
        let iterator: any SensorEventIterator = pace.map { PacedEventIterator(decoded, speed: $0) } ?? decoded
        var gt: [TrajectoryPose] = []
        var firstFrame: Double?
        var imuSamples = 0
        while let event = try iterator.next() {
            switch event {
            case .imu(let s):
                imuSamples += 1
                estimator.process(imu: s)
            case .groundTruth(let g):
                gt.append(TrajectoryPose(time: g.timestamp, timeNs: g.timestampNs, T_world_body: g.T_world_body))
            case .frame(let f):
                var r = try estimator.process(frame: f)
                if r.T_world_body != nil { offset = r.timeOffset }
                // Decoded ahead: the decoding cost is the producer thread's, not the hand-over's.
                if let ms = ahead?.lastFrameDecodeMilliseconds { r.timings.decode = ms }
                if firstFrame == nil { firstFrame = f.timestamp }
                let since = f.timestamp - (firstFrame ?? f.timestamp)
                summary.frames += 1
                summary.normalAfterFirstSecond.add(secondsSinceFirstFrame: since, normal: r.trackingState == .normal)
                if r.trackingState == .normal {
                    summary.normalFrames += 1
                    if summary.timeToNormal == nil { summary.timeToNormal = since }
                }
                if summary.orientationTime == nil, r.displayedCamera != nil { summary.orientationTime = since }
                summary.recoveries.add(timestamp: f.timestamp, hasPose: r.T_world_body != nil)
                if let T = r.T_world_body {
                    if summary.initializationTime == nil {
                        summary.initializationTime = f.timestamp - (firstFrame ?? f.timestamp)
                    }
                    summary.framesAfterInit += 1
                    // On the IMU clock, where the ground truth lives.
                    let timeNs = r.poseTimestampNs
                    summary.trajectory.poses.append(TrajectoryPose(time: r.timestamp + r.timeOffset, timeNs: timeNs, T_world_body: T))
                    summary.finalTimeOffset = r.timeOffset
                    summary.finalReadout = r.estimatedReadout
                    summary.finalExtrinsics = r.extrinsicsEstimated ? r.cameraExtrinsics : []
                    summary.finalIntrinsics = r.cameraIntrinsics
                    summary.finalIMUIntrinsics = r.imuIntrinsics
                    summary.finalBiases = (r.biasGyro, r.biasAccel)
                }
                summary.decodeMs.append(r.timings.decode)
                summary.frontEndMs.append(r.timings.frontEnd)
                summary.backEndMs.append(r.timings.backEnd)
                summary.wallMs.append(r.timings.wall)
                try onFrame(r, summary.frames)
            }
        }
        summary.readWarnings = iterator.diagnostics.warnings
        // A replay that saw no image or almost no IMU tracked nothing: an error, not an empty success.
        let window = from == nil && to == nil ? "" : " in the replayed window"
        if summary.frames == 0 {
            throw DatasetError(.tooFewRows, file: source.origin(ofCamera: 0),
                               "has no camera frames\(window); tracking needs images")
        }
        if imuSamples < 2 {
            throw DatasetError(.tooFewRows, file: source.imuOrigin,
                               "has \(imuSamples) IMU samples\(window); tracking needs at least 2")
        }
        if !gt.isEmpty { summary.groundTruth = Trajectory(poses: gt, name: "groundtruth") }
        return summary
    }
}

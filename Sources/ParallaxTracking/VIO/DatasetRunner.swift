import Foundation
import ParallaxDatasets
import ParallaxMath

/// Runs ``VisualInertialOdometry`` over a dataset replay and gathers what `parallax replay`, the
/// tests and the benchmark report: per-frame results, the estimated trajectory and statistics.
public struct DatasetRunner {
    /// Summary of one run.
    public struct Summary: Sendable {
        /// Frames processed.
        public var frames = 0
        /// Frames reported `normal`.
        public var normalFrames = 0
        /// Frames after the first pose (initialised) and how many of them were `normal`.
        public var framesAfterInit = 0
        /// Time from the first frame to the first pose (s), nil if never initialised.
        public var initializationTime: Double?
        /// Time from the first frame to the first `normal` frame (s).
        public var timeToNormal: Double?
        /// Per-frame milliseconds spent reading and decoding image files (not tracking cost).
        public var decodeMs: [Double] = []
        /// Per-frame front-end milliseconds.
        public var frontEndMs: [Double] = []
        /// Per-frame back-end milliseconds.
        public var backEndMs: [Double] = []
        /// Per-frame tracking milliseconds (front-end + back-end; decoding excluded).
        public var trackingMs: [Double] { zip(frontEndMs, backEndMs).map { $0 + $1 } }
        /// Estimated body trajectory `T_world_body` (frames with a pose).
        public var trajectory = Trajectory(poses: [], name: "estimate")
        /// The camera–IMU time offset (s) of the last frame with a pose (estimated or from the calibration).
        public var finalTimeOffset: Double?
        /// Ground truth, when the dataset has it.
        public var groundTruth: Trajectory?
        /// Fraction of frames `normal`.
        public var normalFraction: Double { frames > 0 ? Double(normalFrames) / Double(frames) : 0 }
    }

    /// The dataset.
    public let dataset: EuRoCDataset
    /// The estimator.
    public let estimator: VisualInertialOdometry
    /// Frames the dataset's streams will lose, each with a count (``EuRoCDataset/checkTimelines(stereo:)``).
    public let warnings: [String]

    /// Creates a runner with a fresh estimator.
    public init(dataset: EuRoCDataset, configuration: TrackerConfiguration) throws {
        self.dataset = dataset
        var c = configuration
        if !dataset.isStereo { c.mode = .mono }
        estimator = try VisualInertialOdometry(configuration: c, camera0: dataset.cameras[0],
                                               camera1: dataset.cameras.count > 1 ? dataset.cameras[1] : nil,
                                               imu: dataset.imu)
        // Streams that cannot be tracked together (no common time, stereo stamps that never pair) fail here.
        warnings = try dataset.checkTimelines(stereo: c.mode == .stereo)
    }

    /// Replays `[from, to]` (seconds from the dataset start; nil = whole) and calls `onFrame` with
    /// each result and the number of frames processed so far.
    public func run(from: Double? = nil, to: Double? = nil,
                    onFrame: (TrackingResult, Int) throws -> Void = { _, _ in }) throws -> Summary {
        var summary = Summary()
        let iterator = try dataset.replay(from: from, to: to, includeGroundTruth: dataset.hasGroundTruth).makeIterator()
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
                let r = try estimator.process(frame: f)
                if firstFrame == nil { firstFrame = f.timestamp }
                summary.frames += 1
                if r.trackingState == .normal {
                    summary.normalFrames += 1
                    if summary.timeToNormal == nil { summary.timeToNormal = f.timestamp - (firstFrame ?? f.timestamp) }
                }
                if let T = r.T_world_body {
                    if summary.initializationTime == nil {
                        summary.initializationTime = f.timestamp - (firstFrame ?? f.timestamp)
                    }
                    summary.framesAfterInit += 1
                    // On the IMU clock, where the ground truth lives.
                    let timeNs = r.poseTimestampNs
                    summary.trajectory.poses.append(TrajectoryPose(time: r.timestamp + r.timeOffset, timeNs: timeNs, T_world_body: T))
                    summary.finalTimeOffset = r.timeOffset
                }
                summary.decodeMs.append(r.timings.decode)
                summary.frontEndMs.append(r.timings.frontEnd)
                summary.backEndMs.append(r.timings.backEnd)
                try onFrame(r, summary.frames)
            }
        }
        // A replay that saw no image or almost no IMU tracked nothing: an error, not an empty success.
        let window = from == nil && to == nil ? "" : " in the replayed window"
        if summary.frames == 0 {
            throw DatasetError(.tooFewRows, file: "mav0/\(dataset.cameras[0].name)/data.csv",
                               "has no camera frames\(window); tracking needs images")
        }
        if imuSamples < 2 {
            throw DatasetError(.tooFewRows, file: "mav0/imu0/data.csv",
                               "has \(imuSamples) IMU samples\(window); tracking needs at least 2")
        }
        if !gt.isEmpty { summary.groundTruth = Trajectory(poses: gt, name: "groundtruth") }
        return summary
    }
}

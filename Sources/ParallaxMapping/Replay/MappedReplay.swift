import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxTracking

/// Runs a dataset through the tracker and a ``WorldMapper`` (no AR session), optionally with the
/// camera blacked out for a while: the measurement loop of `parallax evaluate map` and the tests.
public struct MappedReplay {
    /// One frame of a mapped run.
    public struct Sample: Sendable {
        /// Seconds after the first frame.
        public var time: Double
        /// The state a session reports: the tracker's, or `limited(relocalizing)` while unaligned.
        public var state: TrackingState
        /// The mapper's answer.
        public var output: MappingOutput
        /// Body position in the map world, nil without a pose.
        public var position_world: Vector3?
        /// True body position (ground truth's world), when the dataset has one.
        public var truth_world: Vector3?
        /// Tracker CPU milliseconds (front-end + back-end) on this frame.
        public var trackingMilliseconds: Double
        /// Body position in the tracker's own odometry frame (no map, no loop closure).
        public var odometry_world: Vector3?
        /// When this frame became a keyframe: its id and `T_camera_body`, to read the keyframe's
        /// body position back after later loop closures moved it.
        public var keyframe: (id: Int, T_camera_body: RigidTransform)?
        /// The filter's position σ (m), nil without a pose.
        public var positionSigma: Double? = nil
        /// Body pose in the map world (`T_world_odom · T_odom_body`), nil without a pose.
        public var T_world_body: RigidTransform? = nil
        /// True body pose (ground truth's world), when the dataset has one.
        public var truth_T_world_body: RigidTransform? = nil
        /// Body pose in the tracker's own odometry frame, nil without a pose.
        public var T_odom_body: RigidTransform? = nil
        /// The filter's accelerometer bias (m/s², IMU axes), nil without a pose.
        public var accelerometerBias: Vector3? = nil
        /// The ground truth's accelerometer bias at the pose's time, when the dataset has one.
        public var truthAccelerometerBias: Vector3? = nil
        /// The filter's tilt covariance (``TrackingResult/tiltCovariance``), nil without a pose.
        public var tiltCovariance: SIMD3<Double>? = nil
        /// cam0 pose in the odometry frame at a keyframe (nil otherwise or without a pose).
        public var odometryCamera: RigidTransform? {
            keyframe.flatMap { k in T_odom_body.map { $0 * k.T_camera_body.inverse } }
        }
    }

    /// The dataset.
    public let dataset: EuRoCDataset
    /// Tracker mode.
    public let mode: TrackerConfiguration.Mode
    /// Seconds (after the first frame) when cam0 and cam1 deliver black images.
    public var blackout: ClosedRange<Double>?

    /// Creates a replay.
    public init(dataset: EuRoCDataset, mode: TrackerConfiguration.Mode, blackout: ClosedRange<Double>? = nil) {
        self.dataset = dataset
        self.mode = mode
        self.blackout = blackout
    }

    /// Runs from `from` to `to` (dataset seconds), feeding `mapper`.
    public func run(mapper: WorldMapper, from: Double? = nil, to: Double? = nil) throws -> [Sample] {
        let vio = try VisualInertialOdometry(dataset: dataset, mode: mode)
        let truth = try GroundTruthPoses(dataset: dataset)
        // Each frame waits for the IMU to pass its exposure time (t_cam + t_d on the IMU clock), as
        // in `DatasetRunner` and `Session`: a frame tracked before that IMU has arrived is
        // propagated short, and a camera–IMU offset of 10 ms took the Gore phone-profile walk from
        // 2.6 to 5.9 cm here (stop 71).
        var offset = dataset.cameras.first?.timeOffset ?? 0
        let iterator = IMULookaheadIterator(try dataset.makeEvents(from: from, to: to, includeGroundTruth: false)) {
            offset + IMULookaheadIterator.margin
        }
        var first: Double?
        var samples: [Sample] = []
        while let event = try iterator.next() {
            switch event {
            case .imu(let s): vio.process(imu: s)
            case .frame(let f):
                if first == nil { first = f.timestamp }
                let t = f.timestamp - (first ?? f.timestamp)
                var left = try f.loadGray8(0), right = mode == .stereo ? try f.loadGray8(1) : nil
                if let blackout, blackout.contains(t), let l = left {
                    left = GrayImage(width: l.width, height: l.height, fill: 0)
                    right = right.map { GrayImage(width: $0.width, height: $0.height, fill: 0) }
                }
                guard let image = left else { continue }
                let r = try vio.process(timestamp: f.timestamp, timestampNs: f.timestampNs, image0: image, image1: right)
                if r.T_world_body != nil { offset = r.timeOffset }
                let m = mapper.process(timestamp: f.timestamp, trackingState: r.trackingState, T_odom_camera: r.T_world_camera,
                                       featurePoints: r.featurePoints, image: image, positionSigma: r.positionSigma,
                                       accelerometerBias: r.accelerometerBiasInCamera0)
                let truthPose = truth?.T_world_body(at: r.poseTimestampNs)
                var keyframe: (id: Int, T_camera_body: RigidTransform)?
                if m.addedKeyframe, let id = mapper.database.keyframes.last?.id, let T_oc = r.T_world_camera, let T_ob = r.T_world_body {
                    keyframe = (id, T_oc.inverse * T_ob)
                }
                let state: TrackingState = r.T_world_body != nil && !m.isAligned ? .limited(.relocalizing) : r.trackingState
                samples.append(Sample(time: t, state: state, output: m,
                                      position_world: r.T_world_body.map { (m.T_world_odom * $0).translation },
                                      truth_world: truthPose?.translation,
                                      trackingMilliseconds: r.timings.frontEnd + r.timings.backEnd,
                                      odometry_world: r.T_world_body?.translation, keyframe: keyframe,
                                      positionSigma: r.positionSigma,
                                      T_world_body: r.T_world_body.map { m.T_world_odom * $0 }, truth_T_world_body: truthPose, T_odom_body: r.T_world_body,
                                      accelerometerBias: r.T_world_body != nil ? r.biasAccel : nil,
                                      truthAccelerometerBias: truth?.accelerometerBias(at: r.poseTimestampNs),
                                      tiltCovariance: r.tiltCovariance))
            default: break
            }
        }
        _ = mapper.finishPendingLoopClosure()  // a loop found in the last second still counts for the map
        return samples
    }
}

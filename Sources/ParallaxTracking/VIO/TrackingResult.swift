import ParallaxMath

/// A triangulated 3-D feature point in the estimator's z-up world frame.
public struct TrackedFeaturePoint: Sendable, Equatable {
    /// Stable feature id from the front-end (the same physical point keeps its id while tracked).
    public var id: Int
    /// Position in the z-up world frame `W` (metres).
    public var position_world: Vector3
    /// First-order position covariance (m²) from the triangulation's geometry and the tracker's
    /// pixel noise (poses taken as exact), nil when not computed: a point seen over a short
    /// baseline is uncertain along its viewing direction.
    public var covariance: Matrix3?
    /// Standard deviation (m) of the point's depth, along the viewing direction from the newest
    /// view, that the uncertainty of the camera's motion between its views adds to ``covariance``
    /// (0 when not computed). Large while the filter knows that motion poorly: across and just
    /// after a hand-held start's velocity holds, a 2 cm baseline known to 1 cm gives depths 50 %
    /// off (see `EstimatorCore.baselineDepthCovariance`).
    public var motionDepthSigma: Double = 0

    /// Creates a point.
    public init(id: Int, position_world: Vector3, covariance: Matrix3? = nil, motionDepthSigma: Double = 0) {
        self.id = id
        self.position_world = position_world
        self.covariance = covariance
        self.motionDepthSigma = motionDepthSigma
    }
}

/// CPU milliseconds (thread time) spent on one frame.
///
/// Decoding the dataset's PNG files is counted apart: a camera delivers raw pixels, so the
/// tracking cost is `frontEnd + backEnd`.
public struct TrackingTimings: Sendable, Equatable {
    /// Reading and decoding the frame's image files (zero for images handed over decoded).
    public var decode: Double = 0
    /// The visual front-end: pyramids, KLT, RANSAC, detection, stereo matching.
    public var frontEnd: Double = 0
    /// Filter: propagation, cloning, triangulation, update, marginalisation.
    public var backEnd: Double = 0
    /// Wall-clock milliseconds from the start of the frame's front-end to its answer (decoding
    /// excluded): what a live session waits. Below ``frontEnd`` + ``backEnd`` when work ran on a
    /// second thread (a mono start's two alignment models), above it when the thread was preempted.
    public var wall: Double = 0
    /// Creates timings.
    public init(decode: Double = 0, frontEnd: Double = 0, backEnd: Double = 0, wall: Double = 0) {
        self.decode = decode
        self.frontEnd = frontEnd
        self.backEnd = backEnd
        self.wall = wall
    }
}

/// The estimator's answer for one frame.
public struct TrackingResult: Sendable {
    /// Frame time in seconds.
    public var timestamp: Double
    /// Frame time in nanoseconds (as in the dataset).
    public var timestampNs: Int64
    /// Tracking quality with ARKit's meaning.
    public var trackingState: TrackingState
    /// Body (IMU) pose in the z-up world, nil before initialisation.
    public var T_world_body: RigidTransform?
    /// cam0 pose (OpenCV camera: x right, y down, z forward) in the z-up world, nil before initialisation.
    public var T_world_camera: RigidTransform?
    /// Body velocity in the world (m/s).
    public var velocity: Vector3
    /// Gyroscope bias estimate (rad/s).
    public var biasGyro: Vector3
    /// Accelerometer bias estimate (m/s²).
    public var biasAccel: Vector3
    /// Currently tracked features with a well-conditioned triangulation (world frame).
    public var featurePoints: [TrackedFeaturePoint]
    /// Number of features the front-end tracks in this frame.
    public var trackedFeatureCount: Int
    /// Time spent on this frame.
    public var timings: TrackingTimings
    /// Camera–IMU time offset in use (s, Kalibr's `timeshift_cam_imu`): the pose is the body's at
    /// `timestamp + timeOffset` on the IMU (and ground-truth) clock.
    public var timeOffset: Double = 0
    /// Rolling-shutter readout (s, top row to bottom) estimated from the gyro and the tracks when
    /// the calibration states no `line_delay`; 0 for a camera found to be global shutter; nil when
    /// the calibration states one, estimation is off, or there is no answer yet.
    public var estimatedReadout: Double?
    /// Each camera's extrinsics `T_body_camera` in use (cam0, then cam1): the calibration's, or the
    /// filter's estimate when they are estimated online; empty before the first state.
    public var cameraExtrinsics: [RigidTransform] = []
    /// True when ``cameraExtrinsics`` are the filter's online estimates (false: the calibration's).
    public var extrinsicsEstimated = false
    /// The filter's online intrinsics per camera, `[fx, fy, cx, cy, k1, k2]`, when they are estimated
    /// (empty otherwise: the calibration's values hold).
    public var cameraIntrinsics: [[Double]] = []
    /// The filter's IMU scale and misalignment corrections when they are estimated online (nil
    /// otherwise: the IMU is taken as perfect).
    public var imuIntrinsics: IMUIntrinsics?
    /// The accelerometer bias (``biasAccel``) in cam0's axes, through cam0's extrinsics in use; nil
    /// without a pose.
    public var accelerometerBiasInCamera0: Vector3? {
        guard T_world_body != nil, let T_bc = cameraExtrinsics.first else { return nil }
        return T_bc.rotationMatrix.transpose * biasAccel
    }
    /// The filter's largest position standard deviation (m) in the world; nil without a pose. It
    /// grows while the filter coasts on the IMU (a blind stretch), so its growth over a stretch
    /// says how far the pose may have drifted meanwhile.
    public var positionSigma: Double?
    /// The filter's covariance of its tilt error (rad², the world x and y rotation errors of the
    /// left error `R = Exp(δθ) R̂`): (xx, xy, yy); nil without a pose. With the truth it gives the
    /// tilt's normalised estimation error squared, a check that the filter is not overconfident.
    public var tiltCovariance: SIMD3<Double>?
    /// Before the first pose: the body's attitude in the z-up world (turns from the gyroscope, tilt
    /// from gravity) with the body at the origin, reported with `limited(initializing)` while
    /// position and scale wait for motion, as ARKit's camera orientation is from the first frames.
    /// The first pose continues its heading. Nil once there is a pose (``T_world_body``), before
    /// the IMU has given a tilt, and after a divergence reset.
    public var attitudeBeforeStart: RigidTransform?
    /// cam0's pose from ``attitudeBeforeStart`` (the camera turned about the body at the origin).
    public var cameraBeforeStart: RigidTransform? {
        guard let attitude = attitudeBeforeStart, let extrinsics = cameraExtrinsics.first else { return nil }
        return attitude * extrinsics
    }
    /// ``T_world_camera``, or before the first pose the orientation-only ``cameraBeforeStart``:
    /// what a display shows.
    public var displayedCamera: RigidTransform? { T_world_camera ?? cameraBeforeStart }
    /// ``timestampNs`` moved to the IMU clock (the time of the pose).
    public var poseTimestampNs: Int64 { timestampNs + Int64((timeOffset * 1e9).rounded()) }

    /// Creates a result.
    public init(timestamp: Double, timestampNs: Int64, trackingState: TrackingState, T_world_body: RigidTransform?,
                T_world_camera: RigidTransform?, velocity: Vector3, biasGyro: Vector3, biasAccel: Vector3,
                featurePoints: [TrackedFeaturePoint], trackedFeatureCount: Int, timings: TrackingTimings) {
        self.timestamp = timestamp
        self.timestampNs = timestampNs
        self.trackingState = trackingState
        self.T_world_body = T_world_body
        self.T_world_camera = T_world_camera
        self.velocity = velocity
        self.biasGyro = biasGyro
        self.biasAccel = biasAccel
        self.featurePoints = featurePoints
        self.trackedFeatureCount = trackedFeatureCount
        self.timings = timings
    }
}

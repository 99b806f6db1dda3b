import ParallaxMath

/// Initialisation from rest: detects a still window in the IMU stream and estimates gravity
/// direction (roll and pitch), gyroscope bias and the accelerometer bias along gravity.
///
/// The idea is OpenVINS's static initialiser (Geneva et al., "OpenVINS: A Research Platform for
/// Visual-Inertial Estimation", ICRA 2020, `ov_init/static`): over a still window the mean specific
/// force is −g rotated into the body, and the mean angular velocity is the gyro bias. Yaw is
/// unobservable and set so that the estimator's world frame keeps the body's heading (zero yaw
/// rotation between body x projected on the horizontal plane and world x).
///
/// Stillness is judged on the spread of the readings, not their mean: a vehicle with running
/// motors (EuRoC's drone before take-off) vibrates with an accelerometer spread of 0.2–1.1 m/s²
/// while not moving, so the default thresholds sit above that and below a handheld pick-up.
public struct StaticInitializer: Sendable {
    /// Settings of the still-window test.
    public struct Configuration: Equatable, Sendable {
        /// Length of the window that must be still (s).
        public var window: Double = 0.5
        /// Maximum standard deviation of the specific-force norm over the window (m/s²).
        public var maxAccelStdDev: Double = 1.5
        /// Maximum standard deviation of each gyro axis over the window (rad/s).
        public var maxGyroStdDev: Double = 0.12
        /// Maximum difference between the mean specific-force norm and |g| (m/s²).
        public var maxGravityMismatch: Double = 0.5
        /// Creates the default configuration.
        public init() {}
    }

    /// What a successful initialisation yields.
    public struct Result: Equatable, Sendable {
        /// The state at the end of the still window (velocity zero, position zero).
        public var state: NavigationState
        /// Standard deviation of the specific-force norm over the window (m/s²), for reports.
        public var accelStdDev: Double
    }

    /// The configuration in use.
    public var configuration: Configuration
    /// Magnitude of gravity (m/s²).
    public var gravityMagnitude: Double = 9.81

    /// Creates an initialiser.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// Tries to initialise from the most recent `configuration.window` seconds of `samples`
    /// (time-ordered). Returns `nil` while the window is not full or not still.
    public func initialize(from samples: ArraySlice<IMUMeasurement>) -> Result? {
        guard let last = samples.last, let first = samples.first,
              last.timestamp - first.timestamp >= configuration.window * 0.98 else { return nil }
        let window = samples.filter { $0.timestamp >= last.timestamp - configuration.window }
        guard window.count >= 10 else { return nil }
        let n = Double(window.count)
        var meanAccel = Vector3.zero, meanGyro = Vector3.zero, meanNorm = 0.0
        for s in window { meanAccel += s.accel; meanGyro += s.gyro; meanNorm += s.accel.norm }
        meanAccel /= n; meanGyro /= n; meanNorm /= n
        var normVar = 0.0, gyroVar = Vector3.zero
        for s in window {
            let d = s.accel.norm - meanNorm
            normVar += d * d
            let g = s.gyro - meanGyro
            gyroVar += g * g
        }
        let accelStd = (normVar / n).squareRoot()
        let gyroStd = (gyroVar / n)
        guard accelStd <= configuration.maxAccelStdDev,
              gyroStd.max() <= configuration.maxGyroStdDev * configuration.maxGyroStdDev,
              abs(meanAccel.norm - gravityMagnitude) <= configuration.maxGravityMismatch else { return nil }

        let rotation = Self.gravityAlignedRotation(upInBody: meanAccel.normalized)
        // Whatever the mean specific force has beyond |g| along "up" is accelerometer bias;
        // the components across gravity are absorbed by roll and pitch (unobservable at rest).
        let biasAccel = meanAccel - meanAccel.normalized * gravityMagnitude
        let state = NavigationState(
            timestamp: last.timestamp, T_world_body: RigidTransform(rotationMatrix: rotation, translation: .zero),
            velocity: .zero, biasGyro: meanGyro, biasAccel: biasAccel)
        return Result(state: state, accelStdDev: accelStd)
    }

    /// The rotation `R_world_body` that maps the body-frame "up" direction onto world +z while
    /// keeping the body x axis' heading (yaw zero). When body x is nearly vertical, body y is used.
    public static func gravityAlignedRotation(upInBody up: Vector3) -> Matrix3 {
        // World axes expressed in the body frame: z_w = up; x_w = body x made horizontal.
        let zw = up.normalized
        var reference = Vector3(1, 0, 0)
        if abs(reference.dot(zw)) > 0.9 { reference = Vector3(0, 1, 0) }
        let xw = (reference - zw * reference.dot(zw)).normalized
        let yw = zw.cross(xw)
        // Rows of R_world_body are the world axes in body coordinates.
        return Matrix3(rows: xw, yw, zw)
    }
}

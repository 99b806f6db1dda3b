extension TrackerConfiguration {
    /// Standard deviations of the filter's first covariance (per axis).
    public struct InitialUncertainty: Sendable, Equatable {
        /// Roll and pitch (rad).
        public var tilt: Double
        /// Yaw (rad): unobservable, so its prior only says how much the world frame may turn.
        public var yaw: Double
        /// Position (m): unobservable; the world origin is the starting position.
        public var position: Double
        /// Velocity (m/s).
        public var velocity: Double
        /// Gyroscope bias (rad/s).
        public var gyroBias: Double
        /// Accelerometer bias (m/s²).
        public var accelBias: Double

        /// Creates an uncertainty from its per-axis standard deviations.
        public init(tilt: Double, yaw: Double, position: Double, velocity: Double, gyroBias: Double, accelBias: Double) {
            self.tilt = tilt
            self.yaw = yaw
            self.position = position
            self.velocity = velocity
            self.gyroBias = gyroBias
            self.accelBias = accelBias
        }

        /// The 15 error-state standard deviations in the filter's order (θ, p, v, b_g, b_a).
        var standardDeviations: [Double] {
            [tilt, tilt, yaw] + [Double](repeating: position, count: 3) + [Double](repeating: velocity, count: 3)
                + [Double](repeating: gyroBias, count: 3) + [Double](repeating: accelBias, count: 3)
        }
    }

    /// How gaps in the IMU stream are recognised and what motion is assumed during one.
    public struct IMUGapModel: Sendable, Equatable {
        /// Sample intervals longer than this (s) are gaps.
        public var maxInterval: Double = 0.05
        /// Acceleration uncertainty (m/s², σ) during a gap: the motion is unknown.
        public var accelSigma: Double = 2.0
        /// Rotation-rate uncertainty (rad/s, σ) during a gap.
        public var gyroSigma: Double = 0.3

        /// The default model (50 ms, 2 m/s², 0.3 rad/s).
        public init() {}
    }

    /// Online estimation of the camera–IMU time offset (Li & Mourikis, IJRR 2014), starting from
    /// the calibration's `timeshift_cam_imu` (or 0).
    public struct TimeOffsetEstimation: Sendable, Equatable {
        /// Whether the offset is a filter state (false keeps the calibration's value).
        public var estimate = true
        /// Prior standard deviation (s) of the offset.
        public var priorSigma = 0.005

        /// The default: estimated, σ 5 ms.
        public init() {}
    }

    /// Priors of the filter's first state, per way of starting.
    public struct InitializationPriors: Sendable, Equatable {
        /// After a static start: gravity and gyro bias from a still IMU window, zero velocity.
        public var fromRest = InitialUncertainty(tilt: 0.01, yaw: 1e-3, position: 1e-3, velocity: 0.02,
                                                 gyroBias: 3e-3, accelBias: 0.05)
        /// After a start in motion with only the mean specific force (tilt) and no velocity estimate.
        public var fromMotion = InitialUncertainty(tilt: 0.05, yaw: 1e-3, position: 1e-3, velocity: 1.0,
                                                   gyroBias: 0.02, accelBias: 0.2)
        /// Tilt σ (rad) when gravity comes from the visual–inertial alignment or stereo velocities.
        public var alignedTilt = 0.02
        /// Velocity σ (m/s) when the velocity comes from the visual–inertial alignment.
        public var alignedVelocity = 0.1
        /// Velocity σ (m/s) when the velocity comes from two stereo frames.
        public var stereoVelocity = 0.15

        /// The default priors.
        public init() {}
    }
}

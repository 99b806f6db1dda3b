import ParallaxMath

/// One IMU reading as the estimator consumes it: time in seconds, body-frame angular velocity
/// (rad/s) and specific force (m/s²). At rest the accelerometer reads +9.81 along body "up".
public struct IMUMeasurement: Equatable, Sendable {
    /// Time in seconds.
    public var timestamp: Double
    /// Angular velocity ω̃ in the body frame (rad/s), bias included.
    public var gyro: Vector3
    /// Specific force ã in the body frame (m/s²), bias included.
    public var accel: Vector3

    /// Creates a reading.
    public init(timestamp: Double, gyro: Vector3, accel: Vector3) {
        self.timestamp = timestamp
        self.gyro = gyro
        self.accel = accel
    }
}

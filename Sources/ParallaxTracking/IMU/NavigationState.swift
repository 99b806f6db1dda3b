import ParallaxMath

/// The inertial navigation state of the body (IMU) frame in the z-up world.
public struct NavigationState: Equatable, Sendable {
    /// Standard gravity in the z-up world frame (m/s²), as `conventions.md` fixes it.
    public static let standardGravity = Vector3(0, 0, -9.81)

    /// Time in seconds.
    public var timestamp: Double
    /// Body pose in the world: `p_world = T_world_body * p_body`.
    public var T_world_body: RigidTransform
    /// Body velocity in the world frame (m/s).
    public var velocity: Vector3
    /// Gyroscope bias (rad/s).
    public var biasGyro: Vector3
    /// Accelerometer bias (m/s²).
    public var biasAccel: Vector3

    /// Creates a navigation state.
    public init(timestamp: Double, T_world_body: RigidTransform, velocity: Vector3 = .zero,
                biasGyro: Vector3 = .zero, biasAccel: Vector3 = .zero) {
        self.timestamp = timestamp
        self.T_world_body = T_world_body
        self.velocity = velocity
        self.biasGyro = biasGyro
        self.biasAccel = biasAccel
    }
}

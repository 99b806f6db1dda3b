import Foundation

/// Settings of an orientation-only session (`AROrientationTrackingConfiguration`): 3-DoF attitude
/// from the gyroscope and gravity (see `OrientationPoseSource`). The camera stays at the world
/// origin; there are no feature points and no plane detection. Tracking state is `notAvailable`
/// until the tilt is known (the first IMU samples), then `normal`.
public struct OrientationTrackingConfiguration: Sendable, Equatable {
    /// Whether frames carry a ``LightEstimate`` (needs a ``LightEstimator`` on the session).
    public var isLightEstimationEnabled: Bool = true
    /// Placement of the AR world (gravity: y up, −z along the first heading; camera: the first camera frame).
    public var worldAlignment: WorldAlignment = .gravity
    /// Whether ``Frame/capturedImage`` is undistorted (as ARKit delivers it).
    public var undistortsCapturedImage: Bool = true

    /// The default configuration.
    public init() {}
}

extension Session {
    /// Starts or reconfigures an orientation-only session; switching from world tracking (or back,
    /// with ``run(_:options:)``) resets tracking, as a new ARKit configuration does. The pose
    /// source of ``replayOptions`` is not used: attitude comes from the IMU alone.
    public func run(_ configuration: OrientationTrackingConfiguration, options: RunOptions = []) {
        var world = WorldTrackingConfiguration()
        world.planeDetection = []
        world.isLightEstimationEnabled = configuration.isLightEstimationEnabled
        world.worldAlignment = configuration.worldAlignment
        world.undistortsCapturedImage = configuration.undistortsCapturedImage
        world.providesFeaturePoints = false
        start(world, options: options, orientationOnly: true)
    }
}

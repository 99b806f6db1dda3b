import Foundation

/// Which plane orientations a session looks for (`ARWorldTrackingConfiguration.PlaneDetection`).
public struct PlaneDetection: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates a set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Gravity-aligned planes whose normal points up: floors, tables (and ceilings, normal down).
    public static let horizontal = PlaneDetection(rawValue: 1 << 0)
    /// Planes parallel to gravity: walls, cabinet fronts.
    public static let vertical = PlaneDetection(rawValue: 1 << 1)
}

/// How the AR world `A` is placed when tracking starts (`ARConfiguration.WorldAlignment`).
public enum WorldAlignment: String, Sendable, Hashable, CaseIterable {
    /// y up against gravity, origin at the camera's first position, −z along the camera's first
    /// viewing direction projected onto the horizontal plane (ARKit's default).
    case gravity
    /// `A` is the first camera frame itself (AR convention: x right, y up, z backward).
    case camera
}

/// Settings of a world-tracking session (`ARWorldTrackingConfiguration`).
public struct WorldTrackingConfiguration: Sendable, Equatable {
    /// Plane orientations to detect; empty (the default, like ARKit) detects none.
    public var planeDetection: PlaneDetection = []
    /// Whether frames carry a ``LightEstimate`` (needs a ``LightEstimator`` on the session).
    public var isLightEstimationEnabled: Bool = true
    /// Placement of the AR world.
    public var worldAlignment: WorldAlignment = .gravity
    /// Whether ``Frame/capturedImage`` is undistorted to the pinhole ``Camera/intrinsics``
    /// (default true, as ARKit delivers it). When false the image is the dataset's raw, distorted
    /// image and only ``Camera/distortion`` relates its pixels to the pinhole model.
    public var undistortsCapturedImage: Bool = true
    /// Whether frames carry ``Frame/rawFeaturePoints``.
    public var providesFeaturePoints: Bool = true
    /// A saved map to relocalize in (`initialWorldMap`): the session reports `limited(relocalizing)`
    /// until it recognises a mapped place, then tracks in the map's world with its anchors.
    public var initialWorldMap: WorldMap?

    /// The default configuration (no plane detection, like ARKit).
    public init() {}

    /// A configuration with the given plane detection.
    public init(planeDetection: PlaneDetection, isLightEstimationEnabled: Bool = true,
                worldAlignment: WorldAlignment = .gravity) {
        self.planeDetection = planeDetection
        self.isLightEstimationEnabled = isLightEstimationEnabled
        self.worldAlignment = worldAlignment
    }
}

/// Options of ``Session/run(_:options:)`` (`ARSession.RunOptions`).
public struct RunOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates a set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Restart the replay and tracking from the beginning; the AR world is placed anew.
    public static let resetTracking = RunOptions(rawValue: 1 << 0)
    /// Remove every anchor (user and plane anchors); the delegate is told.
    public static let removeExistingAnchors = RunOptions(rawValue: 1 << 1)
}

import Foundation
import ParallaxImaging
import ParallaxMapping
import ParallaxMath

/// 3D feature points seen in a frame (`ARPointCloud`), AR world coordinates.
public struct PointCloud: Sendable, Equatable {
    /// Positions in the AR world (m).
    public var points: [Vector3]
    /// One identifier per point, stable while the feature is tracked.
    public var identifiers: [UInt64]
    /// Creates a cloud; `points` and `identifiers` must have the same length.
    public init(points: [Vector3], identifiers: [UInt64]) {
        self.points = points
        self.identifiers = identifiers
    }
    /// An empty cloud.
    public static let empty = PointCloud(points: [], identifiers: [])
}

/// One video frame with its camera pose and scene understanding (`ARFrame`).
public struct Frame: Sendable {
    /// Capture time, seconds (dataset clock).
    public var timestamp: Double
    /// Capture time, nanoseconds as stored in the dataset.
    public var timestampNs: Int64
    /// The camera image: undistorted to ``Camera/intrinsics`` unless the configuration says
    /// otherwise (see ``WorldTrackingConfiguration/undistortsCapturedImage``).
    public var capturedImage: AnyImage
    /// Camera pose, intrinsics and tracking state.
    public var camera: Camera
    /// All anchors of the session at this frame (user anchors and plane anchors).
    public var anchors: [any Anchor]
    /// Lighting, when enabled and an estimator is set.
    public var lightEstimate: LightEstimate?
    /// Feature points currently tracked with a 3D position (nil when disabled).
    public var rawFeaturePoints: PointCloud?
    /// Unit vector against gravity in the AR world: (0, 1, 0) with ``WorldAlignment/gravity``,
    /// the first camera's view of "up" with ``WorldAlignment/camera``. Used by hit tests that
    /// estimate horizontal and vertical planes.
    public var worldUp: Vector3
    /// How well the world map covers this view (`ARFrame.worldMappingStatus`).
    public var worldMappingStatus: WorldMappingStatus = .notAvailable

    /// Creates a frame.
    public init(timestamp: Double, timestampNs: Int64, capturedImage: AnyImage, camera: Camera,
                anchors: [any Anchor], lightEstimate: LightEstimate?, rawFeaturePoints: PointCloud?,
                worldUp: Vector3 = Vector3(0, 1, 0)) {
        self.timestamp = timestamp
        self.timestampNs = timestampNs
        self.capturedImage = capturedImage
        self.camera = camera
        self.anchors = anchors
        self.lightEstimate = lightEstimate
        self.rawFeaturePoints = rawFeaturePoints
        self.worldUp = worldUp
    }

    /// The plane anchors among ``anchors``.
    public var planeAnchors: [PlaneAnchor] { anchors.compactMap { $0 as? PlaneAnchor } }
}

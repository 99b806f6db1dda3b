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
    /// Each point's position standard deviation (m), the triangulation's and the one the camera's
    /// motion between its views adds (`TrackedFeaturePoint.motionDepthSigma`); nil when the source
    /// gives none (ground-truth poses, a saved map).
    public var sigmas: [Double]?
    /// Points whose ``sigmas`` exceed this fraction of their distance from the camera are left out
    /// of feature-point and estimated-plane hit tests and raycasts, and of the session's plane map
    /// (``Session/maximumPlanePointRelativeSigma``): a hand-held start triangulates points over a
    /// motion the tracker assumed rather than measured, 30–60 % of their range off.
    public static let defaultMaximumRelativeSigma = 0.2

    /// Creates a cloud; `points`, `identifiers` and `sigmas` (when given) must have the same length.
    public init(points: [Vector3], identifiers: [UInt64], sigmas: [Double]? = nil) {
        self.points = points
        self.identifiers = identifiers
        self.sigmas = sigmas
    }
    /// An empty cloud.
    public static let empty = PointCloud(points: [], identifiers: [])

    /// The points whose σ is within `limit` times their distance from `origin` (all of them
    /// without ``sigmas``).
    public func confidentPoints(from origin: Vector3, limit: Double = PointCloud.defaultMaximumRelativeSigma) -> [Vector3] {
        guard let sigmas, sigmas.count == points.count else { return points }
        return zip(points, sigmas).filter { $0.1 <= limit * ($0.0 - origin).norm }.map(\.0)
    }
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

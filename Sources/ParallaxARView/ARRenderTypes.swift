import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxSceneGraph
import ParallaxVision

/// An anchor as the compositor sees it: a fixed pose in the AR world, optionally a plane.
public struct ARRenderAnchor: Sendable, Equatable {
    /// Stable identifier (nodes are matched to anchors by it across frames).
    public var identifier: UUID
    /// Optional name.
    public var name: String?
    /// `T_A_anchor` (AR world, y up).
    public var transform: Matrix4
    /// For plane anchors: the boundary polygon in the anchor's own frame (the plane is the
    /// anchor's x–z plane, normal +y, as ARKit's plane anchors). nil for plain anchors.
    public var planePolygon: [Vector3]?

    /// Creates an anchor.
    public init(identifier: UUID, name: String? = nil, transform: Matrix4, planePolygon: [Vector3]? = nil) {
        self.identifier = identifier; self.name = name; self.transform = transform; self.planePolygon = planePolygon
    }

    /// The anchor's origin in the AR world.
    public var position: Vector3 { transform.column(3).xyz }
    /// The plane normal (the anchor's +y axis) in the AR world.
    public var planeNormal: Vector3 { transform.column(1).xyz.normalized }
    /// The polygon in AR world coordinates (empty when not a plane).
    public var worldPolygon: [Vector3] {
        let T = RigidTransform(matrix: transform)
        return (planePolygon ?? []).map { T * $0 }
    }
}

/// The light estimate that drives the scene's lights.
public struct ARRenderLight: Sendable, Equatable, Codable {
    /// Ambient intensity (lm, 1000 = neutral).
    public var ambientIntensity: Double
    /// Colour temperature (K, 6500 = neutral).
    public var ambientColorTemperature: Double
    /// Direction the primary light travels (AR world), when estimated.
    public var primaryLightDirection: Vector3?
    /// Primary light intensity (lm), when estimated.
    public var primaryLightIntensity: Double?

    /// Creates a light description.
    public init(ambientIntensity: Double = 1000, ambientColorTemperature: Double = 6500,
                primaryLightDirection: Vector3? = nil, primaryLightIntensity: Double? = nil) {
        self.ambientIntensity = ambientIntensity; self.ambientColorTemperature = ambientColorTemperature
        self.primaryLightDirection = primaryLightDirection; self.primaryLightIntensity = primaryLightIntensity
    }
}

/// Everything needed to composite one AR frame.
public struct ARRenderFrame: Sendable {
    /// The captured (distorted) image.
    public var capturedImage: AnyImage
    /// The lens of the captured image; nil when the image is already an ideal pinhole image.
    public var lens: (any CameraModel)?
    /// Camera pose and undistorted intrinsics.
    public var camera: ARCameraGeometry
    /// The anchors currently tracked.
    public var anchors: [ARRenderAnchor]
    /// The light estimate (nil: neutral light).
    public var light: ARRenderLight?
    /// Feature points in the AR world (debug overlay).
    public var featurePoints: [Vector3]

    /// Creates a frame.
    public init(capturedImage: AnyImage, lens: (any CameraModel)?, camera: ARCameraGeometry,
                anchors: [ARRenderAnchor] = [], light: ARRenderLight? = nil, featurePoints: [Vector3] = []) {
        self.capturedImage = capturedImage; self.lens = lens; self.camera = camera
        self.anchors = anchors; self.light = light; self.featurePoints = featurePoints
    }
}

/// Debug drawings over the composited image (ARSCNDebugOptions).
public struct ARDebugOptions: OptionSet, Sendable, Hashable {
    /// Bits.
    public let rawValue: Int
    /// Creates options.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Feature points as yellow dots.
    public static let showFeaturePoints = ARDebugOptions(rawValue: 1)
    /// Plane anchors' polygons as cyan outlines.
    public static let showPlanes = ARDebugOptions(rawValue: 2)
    /// The AR world origin's axes (x red, y green, z blue, 10 cm).
    public static let showWorldOrigin = ARDebugOptions(rawValue: 4)
    /// Every anchor's axes (5 cm).
    public static let showAnchorOrigins = ARDebugOptions(rawValue: 8)
}

/// Compositor settings.
public struct ARRenderSettings: Sendable {
    /// Debug overlays.
    public var debugOptions: ARDebugOptions = []
    /// Whether the light estimate drives the managed ambient and directional lights
    /// (ARSCNView's `automaticallyUpdatesLighting`).
    public var automaticallyUpdatesLighting = true
    /// Horizontal plane anchors catch the virtual content's shadows (darkening the camera image).
    public var shadowsOnPlanes = true
    /// Darkness of a full shadow on the camera image (0…1).
    public var shadowStrength = 0.6
    /// Plane anchors hide virtual content behind them (depth-only occluders).
    public var planesAsOccluders = true
    /// Fraction of the ambient estimate given to the directional light when no primary light
    /// was estimated (the rest stays ambient), so objects still show shape and shadows.
    public var defaultDirectionalShare = 0.6
    /// Direction the default light travels when none was estimated (steeply from above).
    public var defaultLightDirection = Vector3(0.3, -1, -0.4).normalized
    /// Near and far planes (m).
    public var zNear = 0.01, zFar = 100.0
    /// Output size; nil = the undistorted image size. Other aspects are filled (cropped).
    public var viewportWidth: Int?, viewportHeight: Int?

    /// Default settings.
    public init() {}
}

/// Supplies and observes the nodes of anchors (ARSCNViewDelegate's node callbacks).
public protocol ARSceneRendererDelegate: AnyObject {
    /// The node for a newly seen anchor; nil → an empty node is created. Its transform is
    /// managed (set to the anchor's); put content in children.
    func renderer(_ renderer: ARSceneRenderer, nodeFor anchor: ARRenderAnchor) -> Node?
    /// A node was added to the scene for `anchor`.
    func renderer(_ renderer: ARSceneRenderer, didAdd node: Node, for anchor: ARRenderAnchor)
    /// The anchor moved or changed; the node's transform has been updated.
    func renderer(_ renderer: ARSceneRenderer, didUpdate node: Node, for anchor: ARRenderAnchor)
    /// The anchor disappeared; its node was removed.
    func renderer(_ renderer: ARSceneRenderer, didRemove node: Node, for anchor: ARRenderAnchor)
}

extension ARSceneRendererDelegate {
    /// Default: an empty node.
    public func renderer(_ renderer: ARSceneRenderer, nodeFor anchor: ARRenderAnchor) -> Node? { nil }
    /// Default: nothing.
    public func renderer(_ renderer: ARSceneRenderer, didAdd node: Node, for anchor: ARRenderAnchor) {}
    /// Default: nothing.
    public func renderer(_ renderer: ARSceneRenderer, didUpdate node: Node, for anchor: ARRenderAnchor) {}
    /// Default: nothing.
    public func renderer(_ renderer: ARSceneRenderer, didRemove node: Node, for anchor: ARRenderAnchor) {}
}

import Foundation
import ParallaxAR
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph
import ParallaxVision

/// Composites virtual content over camera frames (ARSCNView's job, headless).
///
/// Per frame: the captured image is undistorted (cached remap table) and becomes the
/// background; the virtual camera takes the frame's pose (`Camera.transform`; the AR world is
/// y-up like the scene graph's, so no conversion) and a projection built from the undistorted
/// intrinsics; anchors get nodes from the delegate; the light estimate sets a managed ambient
/// light and a shadow-casting directional light. The content is rendered over a transparent
/// background and composited on the CPU, so pixels without virtual content are the camera
/// pixels exactly. Shadows on real surfaces come from a second pass that renders horizontal
/// plane anchors as white Lambertian "shadow catchers" lit by the directional light alone: the
/// ratio to the unshadowed value max(n·l, 0) is the light's visibility, which darkens the
/// camera image there.
public final class ARSceneRenderer {
    /// The scene holding virtual content; anchor nodes are added to its root.
    public let scene: Scene
    /// Node callbacks.
    public weak var delegate: (any ARSceneRendererDelegate)?
    /// Settings.
    public var settings: ARRenderSettings
    /// The GL renderer.
    public let renderer: OffscreenRenderer

    let internalRoot = Node(name: "ar-internal")
    let cameraNode = Node(name: "ar-camera")
    let ambientNode = Node(name: "ar-ambient-light")
    let directionalNode = Node(name: "ar-directional-light")
    var anchorNodes: [UUID: (node: Node, anchor: ARRenderAnchor)] = [:]
    var planeNodes: [UUID: (occluder: Node, catcher: Node)] = [:]
    private var undistorter: ImageUndistorter?
    private var undistorterKey = ""

    /// Creates a compositor over `scene` (new empty scene by default); a renderer is created when
    /// none is given.
    public init(scene: Scene = Scene(), renderer: OffscreenRenderer? = nil, settings: ARRenderSettings = ARRenderSettings()) throws {
        self.scene = scene
        self.settings = settings
        self.renderer = try renderer ?? OffscreenRenderer()
        cameraNode.camera = ParallaxSceneGraph.Camera()
        ambientNode.light = Light(type: .ambient)
        var sun = Light(type: .directional)
        sun.castsShadow = true
        sun.shadowMapSize = 2048
        sun.shadowRadius = 1.5
        directionalNode.light = sun
        internalRoot.addChildNode(cameraNode)
        internalRoot.addChildNode(ambientNode)
        internalRoot.addChildNode(directionalNode)
        scene.rootNode.addChildNode(internalRoot)
    }

    /// The node attached to an anchor, if any.
    public func node(for anchorIdentifier: UUID) -> Node? { anchorNodes[anchorIdentifier]?.node }

    /// The anchor a node (or one of its ancestors) belongs to.
    public func anchor(for node: Node) -> ARRenderAnchor? {
        anchorNodes.values.first { node === $0.node || node.isDescendant(of: $0.node) }?.anchor
    }

    /// The undistorted background of `frame` (cached remap table per lens and intrinsics).
    public func undistortedImage(_ frame: ARRenderFrame) -> RGBAImage {
        guard let lens = frame.lens else { return frame.capturedImage.toRGBA8() }
        let c = frame.camera
        let key = "\(lens)|\(c.width)x\(c.height)|\(c.fx),\(c.fy),\(c.cx),\(c.cy)"
        if undistorter == nil || key != undistorterKey {
            undistorter = ImageUndistorter(lens: lens, width: c.width, height: c.height, fx: c.fx, fy: c.fy, cx: c.cx, cy: c.cy)
            undistorterKey = key
        }
        return undistorter?.undistort(frame.capturedImage) ?? frame.capturedImage.toRGBA8()
    }

    /// Renders and composites one frame.
    public func render(_ frame: ARRenderFrame) throws -> RGBAImage {
        let camera = frame.camera
        let vw = settings.viewportWidth ?? camera.width, vh = settings.viewportHeight ?? camera.height
        let size = try RenderSize(width: vw, height: vh)
        updateAnchors(frame.anchors)
        updateCamera(camera, width: vw, height: vh)
        let towardLight = updateLights(frame.light)
        let background = ARCompositor.fitBackground(undistortedImage(frame), width: vw, height: vh)

        // Pass 1: virtual content (and depth-only occluders) over a transparent background.
        let savedBackground = scene.background
        defer { scene.background = savedBackground }
        scene.background = .color(Vector4f(0, 0, 0, 0))
        setPlaneHelpers(occluders: settings.planesAsOccluders, catchers: false)
        let content = try renderer.render(scene: scene, camera: cameraNode, size: size)

        // Pass 2: shadow catchers.
        var visibility: [Float]?
        if settings.shadowsOnPlanes, let l = towardLight, l.y > 0.05,
           planeNodes.values.contains(where: { !$0.catcher.isHidden || $0.catcher.parent != nil }), hasContent {
            visibility = try renderShadowPass(size: size, cosine: l.y)
        }
        setPlaneHelpers(occluders: false, catchers: false)

        var out = ARCompositor.composite(content: content, background: background, visibility: visibility,
                                         shadowStrength: settings.shadowStrength)
        ARDebugOverlay.draw(on: &out, frame: frame, options: settings.debugOptions,
                            project: { [camera] p in ARCompositor.viewportPixel(camera.project(p), camera: camera, width: vw, height: vh) })
        return out
    }

    /// Whether any anchor node or other user node has geometry.
    var hasContent: Bool {
        scene.rootNode.subtree.contains { $0.geometry != nil && !$0.isDescendant(of: internalRoot) && $0.isEffectivelyVisible }
    }

    private func updateCamera(_ camera: ARCameraGeometry, width: Int, height: Int) {
        cameraNode.position = camera.transform.translation.float
        cameraNode.orientation = Quaternionf(camera.transform.rotation)
        var c = cameraNode.camera ?? ParallaxSceneGraph.Camera()
        c.zNear = Float(settings.zNear)
        c.zFar = Float(settings.zFar)
        c.projectionTransform = camera.projectionMatrix(viewportWidth: width, viewportHeight: height,
                                                        zNear: settings.zNear, zFar: settings.zFar)
        cameraNode.camera = c
    }

    /// Sets the managed lights; returns the unit vector towards the directional light.
    private func updateLights(_ estimate: ARRenderLight?) -> Vector3? {
        guard settings.automaticallyUpdatesLighting else {
            ambientNode.isHidden = true
            directionalNode.isHidden = true
            return nil
        }
        ambientNode.isHidden = false
        directionalNode.isHidden = false
        let e = estimate ?? ARRenderLight()
        let travel: Vector3
        var ambient: Double, directional: Double
        if let d = e.primaryLightDirection, d.norm > 1e-9, let p = e.primaryLightIntensity {
            travel = d.normalized
            ambient = e.ambientIntensity
            directional = p
        } else {
            travel = settings.defaultLightDirection
            ambient = e.ambientIntensity * (1 - settings.defaultDirectionalShare)
            directional = e.ambientIntensity * settings.defaultDirectionalShare
        }
        ambient = max(0, ambient); directional = max(0, directional)
        ambientNode.light?.intensity = Float(ambient)
        ambientNode.light?.temperature = Float(e.ambientColorTemperature)
        directionalNode.light?.intensity = Float(directional)
        directionalNode.light?.temperature = Float(e.ambientColorTemperature)
        let up: Vector3f = abs(travel.y) > 0.99 ? Vector3f(0, 0, 1) : Vector3f(0, 1, 0)
        directionalNode.orientation = Node.orientation(lookingFrom: .zero, at: travel.float, up: up)
        return -travel
    }
}

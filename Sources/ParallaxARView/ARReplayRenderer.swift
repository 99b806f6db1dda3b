import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

/// Where the replay puts the virtual content.
public enum ARContentPlacement: Sendable, Equatable {
    /// At the centre of the first horizontal upward plane of at least `minimumArea` m² (a table
    /// preferred), oriented like the plane anchor.
    case horizontalPlane(minimumArea: Double)
    /// `distance` metres along the optical axis of frame `atFrame` (a tap at the screen centre
    /// without a plane), upright in the AR world.
    case inFrontOfCamera(distance: Double, atFrame: Int)
}

/// What `parallax replay DATASET --render OUT_DIR` did.
public struct ARReplayReport: Sendable, Codable {
    /// Session frames processed.
    public var framesProcessed = 0
    /// PNG frames written.
    public var framesWritten = 0
    /// Frame index at which the virtual content was placed (nil: no suitable plane found).
    public var contentPlacedAtFrame: Int?
    /// Classification of the plane it was placed on.
    public var contentPlaneClassification: String?
    /// Per frame after placement, the content anchor's pixel in the estimated camera minus the
    /// pixel of the true point it was placed on, seen by the ground-truth camera (empty without
    /// ground truth or content). `ParallaxEvaluation`'s `AnchorJitter` summarises them.
    public var anchorResiduals: [Vector2] = []
    /// The light estimate of the last frame (nil when light estimation was off).
    public var lastLight: ARRenderLight?
}

/// Replays a session and writes composited frames: once a horizontal plane of at least
/// `minimumPlaneArea` is detected (a table preferred), a world anchor is added at its centre and
/// the objects of the scene file (lights, cameras and shadow planes of the file are skipped: the
/// compositor lights the content from the light estimate) are attached to it, scaled down to fit
/// the plane. Every `every`-th frame is rendered to `frame_<timestamp ns>.png`.
public final class ARReplayRenderer: ARSceneRendererDelegate {
    /// Name of the anchor carrying the content.
    public static let contentAnchorName = "parallax-content"
    private let content: Node
    private let contentSize: Double
    private var contentScale: Float = 1

    private init(content: Node, contentSize: Double) {
        self.content = content; self.contentSize = contentSize
    }

    /// Returns the content node for the content anchor; nil (an empty node) for others.
    public func renderer(_ renderer: ARSceneRenderer, nodeFor anchor: ARRenderAnchor) -> Node? {
        guard anchor.name == Self.contentAnchorName else { return nil }
        let node = Node(name: Self.contentAnchorName)
        content.scale = Vector3f(contentScale, contentScale, contentScale)
        node.addChildNode(content)
        return node
    }

    /// Loads the content objects of a scene file (nil: a built-in 8 cm cube and 5 cm sphere).
    static func loadContent(_ url: URL?) throws -> (Node, Double) {
        let root = Node(name: "content")
        if let url {
            let scene = try Scene.load(contentsOf: url)
            for node in scene.rootNode.childNodes {
                let isObject = node.light == nil && node.camera == nil && !(node.name ?? "").lowercased().contains("shadow")
                    && node.subtree.contains { $0.geometry != nil }
                if isObject { node.removeFromParentNode(); root.addChildNode(node) }
            }
        } else {
            let cube = Node(geometry: .box(width: 0.08, height: 0.08, length: 0.08, material: Material(lightingModel: .blinn, diffuse: .color(0.85, 0.3, 0.2))), name: "cube")
            cube.position = Vector3f(-0.06, 0.04, 0)
            let ball = Node(geometry: .sphere(radius: 0.025, material: Material(lightingModel: .blinn, diffuse: .color(0.2, 0.5, 0.9))), name: "ball")
            ball.position = Vector3f(0.06, 0.025, 0)
            root.addChildNode(cube); root.addChildNode(ball)
        }
        let probe = Scene()
        probe.rootNode.addChildNode(root)
        let box = probe.worldBoundingBox
        root.removeFromParentNode()
        let size = box.map { Double(max($0.max.x - $0.min.x, $0.max.z - $0.min.z)) } ?? 0.1
        return (root, max(size, 0.01))
    }

    /// Runs `session` to its end (or `maxFrames`), writing every `every`-th composited frame to
    /// `outputDirectory` (created). A session not yet running is run with horizontal plane
    /// detection and light estimation; without a light estimator it gets a ``SceneLightEstimator``.
    /// `frameHandler` sees every frame the session delivers (for exports), rendered or not.
    @discardableResult
    public static func render(session: Session, outputDirectory: URL, sceneURL: URL? = nil, every: Int = 1,
                              settings: ARRenderSettings = ARRenderSettings(),
                              placement: ARContentPlacement = .horizontalPlane(minimumArea: 0.1),
                              maxFrames: Int? = nil, renderer: OffscreenRenderer? = nil,
                              progress: ((Int) -> Void)? = nil,
                              frameHandler: ((Frame) throws -> Void)? = nil) throws -> ARReplayReport {
        let (content, size) = try loadContent(sceneURL)
        let placer = ARReplayRenderer(content: content, contentSize: size)
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        if session.lightEstimator == nil { session.lightEstimator = SceneLightEstimator() }
        if !session.isRunning {
            var config = WorldTrackingConfiguration()
            config.planeDetection = [.horizontal]
            config.isLightEstimationEnabled = true
            session.run(config)
        }
        let ar = try ARSceneRenderer(renderer: renderer, settings: settings)
        ar.delegate = placer
        let truth = try GroundTruthPoses(dataset: session.dataset)
        let T_B_C = session.cameraCalibration?.T_body_camera
        var report = ARReplayReport()
        var placed: (X_A: Vector3, X_W: Vector3)?
        var residuals: [Vector2] = []
        let step = max(1, every)
        while maxFrames.map({ report.framesProcessed < $0 }) ?? true, let frame = try session.nextFrame() {
            let k = report.framesProcessed
            report.framesProcessed += 1
            try frameHandler?(frame)
            let geometry = ARCameraGeometry(frame.camera)
            report.lastLight = frame.lightEstimate.map { ARRenderLight($0) }
            if placed == nil, frame.camera.trackingState == .normal,
               let (X_A, R, fit, kind) = choosePlacement(placement, frame: frame, frameIndex: k) {
                placer.contentScale = Float(min(1, fit / size))
                let anchor = WorldAnchor(identifier: session.makeIdentifier(), name: contentAnchorName,
                                         transform: Matrix4(rotation: R, translation: X_A))
                session.add(anchor: anchor)
                report.contentPlacedAtFrame = k
                report.contentPlaneClassification = kind
                var X_W = Vector3(Double.nan, .nan, .nan)
                if let truth, let T_B_C, let T_W_B = truth.T_world_body(at: frame.timestampNs) {
                    X_W = (T_W_B * T_B_C) * (geometry.openCVPose.inverse * X_A)
                }
                placed = (X_A, X_W)
            }
            if let p = placed, p.X_W.x.isFinite, let truth, let T_B_C, let T_W_B = truth.T_world_body(at: frame.timestampNs),
               let est = geometry.project(p.X_A) {
                let q = (T_W_B * T_B_C).inverse * p.X_W
                if q.z > 1e-6 {
                    residuals.append(est - Vector2(geometry.fx * q.x / q.z + geometry.cx, geometry.fy * q.y / q.z + geometry.cy))
                }
            }
            guard k % step == 0 else { continue }
            // The anchor list of this frame lacks an anchor added just now; render with the session's.
            var renderFrame = ARRenderFrame(frame)
            renderFrame.anchors = session.anchors.map { ARRenderAnchor($0) }
            let image = try ar.render(renderFrame)
            let url = outputDirectory.appendingPathComponent("frame_\(frame.timestampNs).png")
            try PNG.write(.rgba8(image), to: url)
            report.framesWritten += 1
            progress?(k)
        }
        report.anchorResiduals = residuals
        return report
    }

    /// Position, orientation, usable width and a description of where to place the content now,
    /// or nil when the placement's condition is not met yet.
    static func choosePlacement(_ placement: ARContentPlacement, frame: Frame, frameIndex: Int)
        -> (Vector3, Matrix3, Double, String)? {
        switch placement {
        case .horizontalPlane(let minimumArea):
            guard let plane = pickPlane(frame.planeAnchors, minimumArea: minimumArea) else { return nil }
            let T = RigidTransform(matrix: plane.transform)
            return (T * plane.center, T.rotation.rotationMatrix, 0.8 * min(plane.extent.width, plane.extent.height),
                    plane.classification.rawValue)
        case .inFrontOfCamera(let distance, let atFrame):
            guard frameIndex >= atFrame else { return nil }
            let T = frame.camera.pose
            let X_A = T * Vector3(0, 0, -distance)
            // Upright: keep only the camera's heading about the AR world's y axis.
            let forward = T.rotation.rotationMatrix * Vector3(0, 0, -1)
            let yaw = atan2(-forward.x, -forward.z)
            return (X_A, Quaternion(axis: Vector3(0, 1, 0), angle: yaw).rotationMatrix, 0.3, "none (in front of the camera)")
        }
    }

    /// The plane to put content on: the largest horizontal upward plane classified as a table,
    /// else the largest horizontal one, of at least `minimumArea` m².
    static func pickPlane(_ planes: [PlaneAnchor], minimumArea: Double) -> PlaneAnchor? {
        let candidates = planes.filter { $0.alignment == .horizontal && $0.normal.y > 0.9 && $0.geometry.area >= minimumArea }
        let tables = candidates.filter { $0.classification == .table }
        return (tables.isEmpty ? candidates : tables).max { $0.geometry.area < $1.geometry.area }
    }
}

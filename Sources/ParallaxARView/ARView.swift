import Foundation
import ParallaxAR
import ParallaxImaging
import ParallaxRendering
import ParallaxSceneGraph

/// A session and a compositor together (ARSCNView): pulls frames from the session and returns
/// them composited with the scene's virtual content.
public final class ARView {
    /// The AR session that supplies frames.
    public let session: Session
    /// The compositor (scene, anchor nodes, lights, settings).
    public let sceneRenderer: ARSceneRenderer
    /// The last frame rendered.
    public private(set) var currentFrame: Frame?

    /// The scene of virtual content.
    public var scene: Scene { sceneRenderer.scene }
    /// Supplies nodes for anchors.
    public var delegate: (any ARSceneRendererDelegate)? {
        get { sceneRenderer.delegate }
        set { sceneRenderer.delegate = newValue }
    }
    /// Debug overlays.
    public var debugOptions: ARDebugOptions {
        get { sceneRenderer.settings.debugOptions }
        set { sceneRenderer.settings.debugOptions = newValue }
    }

    /// Creates a view over `session`; the session gets a ``SceneLightEstimator`` when it has no
    /// light estimator.
    public init(session: Session, scene: Scene = Scene(), settings: ARRenderSettings = ARRenderSettings(),
                renderer: OffscreenRenderer? = nil) throws {
        self.session = session
        if session.lightEstimator == nil { session.lightEstimator = SceneLightEstimator() }
        sceneRenderer = try ARSceneRenderer(scene: scene, renderer: renderer, settings: settings)
    }

    /// Advances the session by one camera frame and composites it; nil at the end of the replay
    /// (or while the session is paused).
    public func renderNextFrame() throws -> RGBAImage? {
        guard let frame = try session.nextFrame() else { return nil }
        currentFrame = frame
        return try sceneRenderer.render(renderFrame(frame))
    }

    /// Composites the current frame again (after the scene changed), nil before the first frame.
    public func snapshot() throws -> RGBAImage? {
        guard let frame = currentFrame else { return nil }
        return try sceneRenderer.render(renderFrame(frame))
    }

    /// The session's anchors now (including ones added after the frame was made).
    private func renderFrame(_ frame: Frame) -> ARRenderFrame {
        var f = ARRenderFrame(frame)
        f.anchors = session.anchors.map { ARRenderAnchor($0) }
        return f
    }
}

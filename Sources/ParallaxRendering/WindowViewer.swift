import CGLFW
import COpenGL
import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxSceneGraph

/// An interactive GLFW window showing a scene: orbit with the left mouse button, pan with the right or middle
/// button, zoom with the scroll wheel, `S` saves a screenshot PNG, Esc closes.
///
/// For tests, `screenshot` + `frames` render that many frames, save the last one and close.
public final class WindowViewer {
    /// Settings of a viewer session.
    public struct Options {
        /// Initial window size.
        public var size: RenderSize
        /// MSAA samples.
        public var samples = 4
        /// Save the frame after `frames` frames to this file and exit.
        public var screenshot: URL?
        /// Frames to render before the automatic screenshot (and exit); `nil` = run until closed.
        public var frames: Int?
        /// Where `S` saves screenshots (a numbered file name is appended).
        public var screenshotDirectory = URL(fileURLWithPath: ".")
        /// Creates options.
        public init(size: RenderSize, samples: Int = 4, screenshot: URL? = nil, frames: Int? = nil) {
            self.size = size
            self.samples = samples
            self.screenshot = screenshot
            self.frames = frames
        }
    }

    private let scene: Scene
    private let options: Options
    private var orbit: OrbitCamera

    /// Prepares a viewer for `scene`, starting from `camera` (or the scene's point of view, or a framing view).
    public init(scene: Scene, camera: Node? = nil, options: Options) {
        self.scene = scene
        self.options = options
        orbit = OrbitCamera(scene: scene, start: camera ?? scene.pointOfView)
    }

    /// Opens the window and runs until it is closed (or the automatic screenshot is taken).
    /// - Throws: ``RenderError/window(_:)`` when no display is available (e.g. `DISPLAY` unset).
    public func run() throws {
        guard glfwInit() == GLFW_TRUE else {
            throw RenderError.window("glfwInit failed: no X11/Wayland display (set DISPLAY, or use xvfb-run -a)")
        }
        defer { glfwTerminate() }
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
        guard let window = glfwCreateWindow(Int32(options.size.width), Int32(options.size.height), "Parallax", nil, nil) else {
            throw RenderError.window("glfwCreateWindow failed (OpenGL 3.3 core window not available)")
        }
        defer { glfwDestroyWindow(window) }
        glfwMakeContextCurrent(window)
        glfwSwapInterval(1)
        glfwSetScrollCallback(window) { _, _, dy in WindowViewer.scrollDelta += dy }
        let renderer = try SceneRenderer()
        var frame = 0
        var lastCursor: (Double, Double)?
        var savedCount = 0
        var sWasDown = false
        while glfwWindowShouldClose(window) == 0 {
            glfwPollEvents()
            if glfwGetKey(window, GLFW_KEY_ESCAPE) == GLFW_PRESS { break }
            var x = 0.0
            var y = 0.0
            glfwGetCursorPos(window, &x, &y)
            if let (lx, ly) = lastCursor {
                let dx = Float(x - lx)
                let dy = Float(y - ly)
                if glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS { orbit.rotate(dx: dx, dy: dy) }
                if glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS
                    || glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS
                {
                    orbit.pan(dx: dx, dy: dy)
                }
            }
            lastCursor = (x, y)
            if WindowViewer.scrollDelta != 0 {
                orbit.zoom(Float(WindowViewer.scrollDelta))
                WindowViewer.scrollDelta = 0
            }
            var width: Int32 = 0
            var height: Int32 = 0
            glfwGetFramebufferSize(window, &width, &height)
            guard width > 0, height > 0 else { continue }
            let targets = try renderer.prepareTargets(width: Int(width), height: Int(height), samples: options.samples)
            try renderer.draw(scene: scene, camera: orbit.node, targets: targets)
            // Show the sRGB-encoded output: copy it to the window's framebuffer.
            glBindFramebuffer(GLenum(gl: GL_READ_FRAMEBUFFER), targets.outputFBO)
            glBindFramebuffer(GLenum(gl: GL_DRAW_FRAMEBUFFER), 0)
            glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(gl: GL_NEAREST))
            frame += 1
            let sDown = glfwGetKey(window, GLFW_KEY_S) == GLFW_PRESS
            if sDown && !sWasDown {
                savedCount += 1
                let url = options.screenshotDirectory.appendingPathComponent(String(format: "parallax-screenshot-%03d.png", savedCount))
                try save(targets, to: url)
                print("saved \(url.path)")
            }
            sWasDown = sDown
            if let frames = options.frames, frame >= frames {
                if let url = options.screenshot { try save(targets, to: url) }
                break
            }
            glfwSwapBuffers(window)
        }
    }

    nonisolated(unsafe) private static var scrollDelta = 0.0

    private func save(_ targets: RenderTargets, to url: URL) throws {
        let bytes = targets.readOutput()
        let pixels = bytes.withUnsafeBytes { Array($0.bindMemory(to: RGBA8.self).prefix(targets.width * targets.height)) }
        try PNG.write(.rgba8(try RGBAImage(width: targets.width, height: targets.height, pixels: pixels)), to: url)
    }
}

/// A camera orbiting a target point: yaw/pitch/distance, with panning in the view plane.
struct OrbitCamera {
    var target: Vector3f
    var distance: Float
    var yaw: Float
    var pitch: Float
    let node: Node

    init(scene: Scene, start: Node?) {
        node = Node(name: "viewer-camera")
        let box = scene.worldBoundingBox ?? BoundingBox(min: Vector3f(-1, -1, -1), max: Vector3f(1, 1, 1))
        let radius = max(box.size.norm / 2, 0.1)
        var camera = start?.camera ?? Camera(fieldOfView: 60, zNear: radius * 0.02, zFar: radius * 20)
        camera.projectionTransform = nil
        node.camera = camera
        target = box.center
        if let start {
            let eye = start.worldPosition
            let front = start.worldFront
            // Orbit around the point the start camera looks at, at the distance of the scene centre.
            distance = max((box.center - eye).norm, 0.1)
            target = eye + front * distance
            let offset = eye - target
            yaw = atan2(offset.x, offset.z)
            pitch = asin(max(-1, min(1, offset.y / distance)))
        } else {
            distance = radius * 2.5
            yaw = 0
            pitch = 0.35
        }
        update()
    }

    mutating func rotate(dx: Float, dy: Float) {
        yaw -= dx * 0.01
        pitch = max(-1.5, min(1.5, pitch + dy * 0.01))
        update()
    }

    mutating func pan(dx: Float, dy: Float) {
        let m = node.transform
        let right = Vector3f(m.columns.0.x, m.columns.0.y, m.columns.0.z)
        let up = Vector3f(m.columns.1.x, m.columns.1.y, m.columns.1.z)
        let scale = distance * 0.002
        target += (-right * dx + up * dy) * scale
        update()
    }

    mutating func zoom(_ steps: Float) {
        distance = max(0.05, distance * pow(0.9, steps))
        update()
    }

    private func update() {
        let eye = target + Vector3f(cos(pitch) * sin(yaw), sin(pitch), cos(pitch) * cos(yaw)) * distance
        node.transform = Matrix4f.lookAt(eye: eye, target: target, up: Vector3f(0, 1, 0)).inverse ?? .identity
    }
}

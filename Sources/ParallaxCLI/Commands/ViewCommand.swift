import ArgumentParser
import Foundation
import ParallaxRendering
import ParallaxSceneGraph

/// `parallax view SCENE`: an interactive GLFW window (needs an X11 display; `xvfb-run -a` works headless).
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Open a scene in an interactive window.",
        discussion: "Left drag: orbit. Right/middle drag: pan. Scroll: zoom. S: save a screenshot PNG. Esc: quit.")

    @Argument(help: "The scene file (.json, .gltf, .glb or .obj).")
    var scene: String

    @Option(help: "Window size WIDTHxHEIGHT.")
    var size: String = "1280x720"

    @Option(help: "Name of the camera node to start from.")
    var camera: String?

    @Option(help: "MSAA samples per pixel (1 = off).")
    var samples: Int = 4

    @Option(help: "Save a screenshot to this PNG after --frames frames, then exit.")
    var screenshot: String?

    @Option(help: "Frames to render before exiting (with --screenshot: the frame saved).")
    var frames: Int?

    func run() throws {
        let windowSize = try RenderSize(parsing: size)
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        if screenshot != nil && frames == nil { throw ValidationError("--screenshot needs --frames N") }
        let loaded = try Scene.load(contentsOf: URL(fileURLWithPath: scene))
        let start = try RenderCommand.findCamera(camera, in: loaded, file: scene)
        var options = WindowViewer.Options(size: windowSize, samples: samples, frames: frames)
        options.screenshot = screenshot.map { URL(fileURLWithPath: $0) }
        try WindowViewer(scene: loaded, camera: start, options: options).run()
        if let screenshot { print("wrote \(screenshot)") }
    }
}

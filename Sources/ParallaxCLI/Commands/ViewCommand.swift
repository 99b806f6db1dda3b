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

    @OptionGroup var image: ImageOptions

    @Option(help: "Name of the camera node to start from.")
    var camera: String?

    @Option(help: "Save a screenshot to this PNG after --frames frames, then exit.")
    var screenshot: String?

    @Option(parsing: .unconditional, help: "Frames to render before exiting (with --screenshot: the frame saved).")
    var frames: Int?

    func validate() throws {
        if let frames { try NumberChecks.integer(frames, "--frames", in: 1...Int.max) }
        if screenshot != nil && frames == nil { throw ValidationError("--screenshot needs --frames N") }
    }

    func run() throws {
        let windowSize = try image.renderSize()
        let loaded = try Scene.load(contentsOf: URL(fileURLWithPath: scene))
        let start = try RenderCommand.findCamera(camera, in: loaded, file: scene)
        var options = WindowViewer.Options(size: windowSize, samples: image.samples, frames: frames)
        options.screenshot = screenshot.map { URL(fileURLWithPath: $0) }
        try WindowViewer(scene: loaded, camera: start, options: options).run()
        if let screenshot { print("wrote \(screenshot)") }
    }
}

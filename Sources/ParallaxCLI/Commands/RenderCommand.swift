import ArgumentParser
import Foundation
import ParallaxRendering
import ParallaxSceneGraph

/// `parallax render SCENE -o out.png`: renders a scene file offscreen (EGL) to a PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render a scene file (JSON, glTF, OBJ) to a PNG without a window.")

    @Argument(help: "The scene file (.json, .gltf, .glb or .obj).")
    var scene: String

    @Option(name: .shortAndLong, help: "Output PNG file.")
    var output: String

    @OptionGroup var image: ImageOptions

    @Option(help: "Name of the camera node to render from (default: the scene's first camera).")
    var camera: String?

    @Flag(name: .customLong("no-shadows"), help: "Ignore the lights' castsShadow.")
    var noShadows = false

    @OptionGroup var eglPlatform: EGLPlatformOption

    func run() throws {
        let renderSize = try image.renderSize()
        let url = URL(fileURLWithPath: scene)
        let loaded = try Scene.load(contentsOf: url)
        let cameraNode = try RenderCommand.findCamera(camera, in: loaded, file: scene)
        let renderer = try OffscreenRenderer(
            platform: eglPlatform.choice.platform, options: RenderOptions(samples: image.samples, shadows: !noShadows))
        let start = Date()
        try renderer.renderPNG(scene: loaded, camera: cameraNode, size: renderSize, to: URL(fileURLWithPath: output))
        let ms = Date().timeIntervalSince(start) * 1000
        print("wrote \(output) (\(renderSize), \(String(format: "%.0f", ms)) ms, \(renderer.platform.rawValue): \(renderer.deviceDescription))")
    }

    /// The node named `name` carrying a camera, or `nil` (default camera) when no name is given.
    static func findCamera(_ name: String?, in scene: Scene, file: String) throws -> Node? {
        guard let name else { return nil }
        guard let node = scene.allNodes.first(where: { $0.name == name && $0.camera != nil }) else {
            let names = scene.cameraNodes.compactMap(\.name)
            throw CLIError("\(file): no camera node named '\(name)' (cameras: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
        }
        return node
    }
}

import ArgumentParser
import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

/// `parallax bench render`: offscreen frame rates for the showcase scene and a generated 250k-triangle scene,
/// with and without shadows, without readback, with readback and with PNG encoding; peak RSS at the end.
/// Use a release build (`swift build -c release`): debug builds measure the Swift side, not the renderer.
struct BenchRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Measure offscreen rendering speed (fps) and peak memory.")

    @Option(help: "Scene file for the first case (skipped with a note when absent).")
    var scene: String = "Scenes/showcase.json"

    @OptionGroup var image: ImageOptions

    @Option(parsing: .unconditional, help: "Frames measured per case (after three warm-up frames on each path).")
    var frames: Int = 10

    @Option(parsing: .unconditional, help: "Triangles of the generated scene (8…20,000,000).")
    var triangles: Int = 250_000

    @OptionGroup var eglPlatform: EGLPlatformOption

    func validate() throws {
        try NumberChecks.integer(frames, "--frames", in: 1...100_000)
        try NumberChecks.integer(triangles, "--triangles", in: 8...20_000_000)
    }

    func run() throws {
        let renderSize = try image.renderSize()
        let renderer = try OffscreenRenderer(
            platform: eglPlatform.choice.platform, options: RenderOptions(samples: image.samples))
        print("device: \(renderer.deviceDescription) [\(renderer.platform.rawValue)], \(renderSize), MSAA \(renderer.options.samples)x, \(frames) frames per case")
        var cases: [(String, Scene)] = []
        if FileManager.default.fileExists(atPath: scene) {
            cases.append((URL(fileURLWithPath: scene).lastPathComponent, try Scene.load(contentsOf: URL(fileURLWithPath: scene))))
        } else {
            print("note: \(scene) not found, showcase case skipped")
        }
        let generated = try BenchRenderCommand.generatedScene(triangles: triangles)
        cases.append(("generated \(triangles / 1000)k triangles", generated))
        print("scene                          shadows  no-readback  readback   png-encode")
        for (name, scene) in cases {
            for shadows in [false, true] {
                renderer.options.shadows = shadows
                // Warm-up on both paths, a few frames each: uploads, shader variants, and the driver's
                // own lazy work (NVIDIA compiles state-dependent variants on first draws; with a single
                // warm-up frame the no-readback column once read 76 fps against 165 with readback).
                for _ in 0..<3 {
                    try renderer.renderWithoutReadback(scene: scene, size: renderSize)
                    _ = try renderer.render(scene: scene, size: renderSize)
                }
                let gpu = try measure { try renderer.renderWithoutReadback(scene: scene, size: renderSize) }
                let read = try measure { _ = try renderer.render(scene: scene, size: renderSize) }
                let png = try measure { _ = try PNG.encode(.rgba8(try renderer.render(scene: scene, size: renderSize))) }
                let label = name.padding(toLength: 30, withPad: " ", startingAt: 0)
                print("\(label) \(shadows ? "on " : "off")      \(fps(gpu))   \(fps(read))  \(fps(png))")
            }
        }
        print("peak RSS: \(BenchRenderCommand.peakRSSMegabytes().map { String(format: "%.0f MB", $0) } ?? "unknown")")
    }

    private func measure(_ body: () throws -> Void) throws -> Double {
        let start = Date()
        for _ in 0..<frames { try body() }
        return Double(frames) / Date().timeIntervalSince(start)
    }

    private func fps(_ value: Double) -> String { String(format: "%7.2f fps", value) }

    /// A rippled terrain grid of about `triangles` triangles with spheres on it, a shadow-casting sun and a camera.
    static func generatedScene(triangles: Int) throws -> Scene {
        let side = max(2, Int((Double(triangles) / 2).squareRoot()))
        var positions: [Vector3f] = []
        var normals: [Vector3f] = []
        positions.reserveCapacity((side + 1) * (side + 1))
        for j in 0...side {
            for i in 0...side {
                let x = Float(i) / Float(side) * 20 - 10
                let z = Float(j) / Float(side) * 20 - 10
                let y = 0.3 * sin(x * 1.3) * cos(z * 1.1)
                positions.append(Vector3f(x, y, z))
                let dx = 0.3 * 1.3 * cos(x * 1.3) * cos(z * 1.1)
                let dz = -0.3 * 1.1 * sin(x * 1.3) * sin(z * 1.1)
                normals.append(Vector3f(-dx, 1, -dz).normalized)
            }
        }
        var indices: [UInt32] = []
        indices.reserveCapacity(side * side * 6)
        let row = UInt32(side + 1)
        for j in 0..<UInt32(side) {
            for i in 0..<UInt32(side) {
                let a = j * row + i
                indices += [a, a + row, a + 1, a + 1, a + row, a + row + 1]
            }
        }
        let mesh = try Mesh(positions: positions, normals: normals, elements: [MeshElement(indices: indices)])
        let scene = Scene()
        scene.background = .color(Vector4f(0.4, 0.5, 0.7, 1))
        var ground = Material(lightingModel: .physicallyBased, diffuse: .color(0.4, 0.6, 0.3))
        ground.roughness = .scalar(0.8)
        scene.rootNode.addChildNode(Node(geometry: Geometry(mesh: mesh, materials: [ground]), name: "terrain"))
        for k in 0..<8 {
            let ball = Node(geometry: .sphere(radius: 0.6, material: Material(lightingModel: .blinn, diffuse: .color(0.8, 0.3, 0.2))))
            ball.position = Vector3f(Float(k % 4) * 3 - 4.5, 0.8, Float(k / 4) * 3 - 1.5)
            scene.rootNode.addChildNode(ball)
        }
        let camera = Node(name: "camera")
        camera.camera = Camera(fieldOfView: 55, zNear: 0.1, zFar: 60)
        camera.transform = Matrix4f.lookAt(eye: Vector3f(0, 6, 12), target: .zero, up: Vector3f(0, 1, 0)).inverse ?? .identity
        scene.rootNode.addChildNode(camera)
        let ambient = Node(name: "ambient")
        ambient.light = Light(type: .ambient, intensity: 300)
        scene.rootNode.addChildNode(ambient)
        let sun = Node(name: "sun")
        var light = Light(type: .directional, intensity: 1000)
        light.castsShadow = true
        light.shadowMapSize = 2048
        sun.light = light
        sun.transform = Matrix4f.lookAt(eye: Vector3f(-5, 10, 5), target: .zero, up: Vector3f(0, 1, 0)).inverse ?? .identity
        scene.rootNode.addChildNode(sun)
        return scene
    }

    /// VmHWM from /proc/self/status (Linux), in MB.
    static func peakRSSMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").compactMap { Double($0) }.first
            return kb.map { $0 / 1024 }
        }
        return nil
    }
}

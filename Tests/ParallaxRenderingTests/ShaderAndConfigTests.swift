import Foundation
import ParallaxRendering
import Testing

@testable import ParallaxRendering

/// Shader preprocessing (includes, error positions) and configuration parsing.
struct ShaderAndConfigTests {
    let files = [
        "main.frag": "#version 330 core\n#include \"common.glsl\"\nvoid main() {\n  broken;\n}",
        "common.glsl": "// shared\nfloat helper() { return 1.0; }",
    ]

    @Test func includeExpansionMapsLinesBackToFiles() throws {
        let pre = try PreprocessedShader(named: "main.frag") { name in
            guard let text = files[name] else { throw RenderError.shader("missing \(name)") }
            return text
        }
        #expect(pre.source.contains("float helper()"))
        // Output line 5 is main.frag line 4 ("broken;"), after the two included lines.
        #expect(pre.annotate(log: "0:5(3): error: `broken' undeclared") == "main.frag:4: error: `broken' undeclared")
        #expect(pre.annotate(log: "0(3) : error C0000: syntax error") == "common.glsl:2: error C0000: syntax error")
    }

    @Test func includeCycleIsReported() {
        #expect(throws: RenderError.self) {
            _ = try PreprocessedShader(named: "a") { _ in "#include \"a\"" }
        }
    }

    /// With EGL present the bundled shaders compiled when ``SharedRenderer`` was created.
    @Test(.needsEGL) func bundledShadersCompileAndErrorsNameTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-shaders-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "#version 330 core\nout vec4 c;\nvoid main() {\n  c = undefinedThing;\n}\n".write(
            to: dir.appendingPathComponent("bad.frag"), atomically: true, encoding: .utf8)
        let pre = try PreprocessedShader(named: "bad.frag") { try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8) }
        #expect(pre.origins[3].file == "bad.frag" && pre.origins[3].line == 4)
    }

    @Test func sizeParsing() throws {
        #expect(try RenderSize(parsing: "1280x720") == RenderSize(width: 1280, height: 720))
        #expect(throws: RenderError.self) { try RenderSize(parsing: "1280*720") }
        #expect(throws: RenderError.self) { try RenderSize(parsing: "0x10") }
        #expect(throws: RenderError.self) { try RenderSize(parsing: "99999x10") }
    }

    @Test func eglPlatformNames() {
        #expect(EGLPlatform(rawValue: "surfaceless") == .surfaceless)
        #expect(EGLPlatform(rawValue: "device") == .device)
        #expect(EGLPlatform(rawValue: "x11") == nil)
    }

    @Test(.needsEGL) func resourcesAreCachedAcrossFrames() throws {
        let renderer = try OffscreenRenderer()  // own cache, unaffected by parallel tests
        let scene = TestScenes.textured()
        let size = try RenderSize(width: 32, height: 24)
        let first = try renderer.render(scene: scene, size: size)
        let counts = renderer.cachedResourceCounts
        let second = try renderer.render(scene: scene, size: size)
        #expect(renderer.cachedResourceCounts == counts)
        #expect(first.pixels == second.pixels)
    }
}

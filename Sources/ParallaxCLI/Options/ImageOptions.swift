import ArgumentParser
import ParallaxRendering

/// Image size and anti-aliasing, shared by `render`, `view` and `bench render`.
struct ImageOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Image size WIDTHxHEIGHT (each edge 1…\(RenderSize.maxEdge)).")
    var size: String = "1280x720"

    @Option(parsing: .unconditional, help: "MSAA samples per pixel (1 = off, at most 64).")
    var samples: Int = 4

    func validate() throws {
        do {
            _ = try RenderSize(parsing: size)
        } catch let error as RenderError {
            throw ValidationError("--size: \(error)")
        }
        try NumberChecks.integer(samples, "--samples", in: 1...64)
    }

    /// The parsed size (``validate()`` has checked it).
    func renderSize() throws -> RenderSize { try RenderSize(parsing: size) }
}

/// `--egl-platform`, shared by the offscreen renderers (`render`, `bench render`).
struct EGLPlatformOption: ParsableArguments {
    @Option(name: .customLong("egl-platform"),
            help: "EGL platform; auto takes PARALLAX_EGL_PLATFORM when set, else the first platform that works.")
    var choice: EGLPlatformChoice = .auto
}

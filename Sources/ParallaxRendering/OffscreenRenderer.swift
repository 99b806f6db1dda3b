import Foundation
import ParallaxImaging
import ParallaxSceneGraph

/// The size of a rendered image in pixels.
public struct RenderSize: Equatable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Largest edge accepted (GL implementations guarantee at least 16384 for renderbuffers on current drivers).
    public static let maxEdge = 16384

    /// Creates a size; throws when either edge is outside 1…``maxEdge``.
    public init(width: Int, height: Int) throws {
        guard (1...Self.maxEdge).contains(width), (1...Self.maxEdge).contains(height) else {
            throw RenderError.invalidConfiguration("image size \(width)x\(height) is outside 1…\(Self.maxEdge) pixels per edge")
        }
        self.width = width
        self.height = height
    }

    /// Parses "WIDTHxHEIGHT" (e.g. "1280x720").
    public init(parsing text: String) throws {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw RenderError.invalidConfiguration("invalid size '\(text)': expected WIDTHxHEIGHT, e.g. 1280x720")
        }
        try self.init(width: w, height: h)
    }

    /// "WIDTHxHEIGHT".
    public var description: String { "\(width)x\(height)" }
}

/// Options of the offscreen renderer.
public struct RenderOptions: Sendable {
    /// MSAA samples per pixel (1 = off); clamped to what the driver supports.
    public var samples: Int = 4
    /// Whether lights with `castsShadow` render shadow maps.
    public var shadows = true
    /// Creates options.
    public init(samples: Int = 4, shadows: Bool = true) {
        self.samples = samples
        self.shadows = shadows
    }
}

/// Renders scenes to images without a window (EGL, OpenGL 3.3 core), hiding every GL detail.
///
/// Usage: `let r = try OffscreenRenderer(); let image = try r.render(scene: scene, camera: nil, size: size)`.
/// GPU copies of meshes and textures are cached between calls (keyed by mesh content and texture identity),
/// so rendering the same scene repeatedly uploads once. Calls are serialised; any thread may call.
public final class OffscreenRenderer: @unchecked Sendable {
    private let context: EGLOffscreenContext
    private var renderer: SceneRenderer?
    /// Rendering options (change between frames as you like).
    public var options: RenderOptions

    /// Opens the EGL display (`platform`, else `PARALLAX_EGL_PLATFORM`, else automatic: a GPU device when one is
    /// enumerated, otherwise Mesa's surfaceless platform) and compiles the shaders.
    /// - Throws: ``RenderError`` naming missing driver packages, or shader file:line errors.
    public init(platform: EGLPlatform? = nil, options: RenderOptions = RenderOptions()) throws {
        context = try EGLOffscreenContext(platform: platform)
        self.options = options
        renderer = try context.withCurrent { try SceneRenderer() }
    }

    deinit {
        // GL objects must be deleted with the context current.
        _ = try? context.withCurrent { renderer = nil }
    }

    /// The EGL platform in use.
    public var platform: EGLPlatform { context.platform }
    /// The GL renderer and version strings, e.g. "llvmpipe (LLVM 15.0.6, 256 bits) (OpenGL 4.5 (Core Profile) Mesa 22.3.6)".
    public var deviceDescription: String { context.rendererName }

    /// Renders `scene` from `camera` (a node with a camera; `nil` = the scene's first camera, or a view framing
    /// the scene) into an sRGB RGBA image of `size`, row 0 at the top.
    public func render(scene: Scene, camera: Node? = nil, size: RenderSize) throws -> RGBAImage {
        let bytes = try context.withCurrent { () throws -> [UInt8] in
            guard let renderer else { throw RenderError.gl("renderer was released") }
            renderer.shadowsEnabled = options.shadows
            let targets = try renderer.prepareTargets(width: size.width, height: size.height, samples: options.samples)
            try renderer.draw(scene: scene, camera: camera, targets: targets)
            return targets.readOutput()
        }
        let pixels = bytes.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: RGBA8.self).prefix(size.width * size.height))
        }
        return try RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// An image and the depth of what each of its pixels shows.
    public struct ImageWithDepth: Sendable {
        /// The sRGB image, row 0 at the top.
        public var image: RGBAImage
        /// Window-space depth per pixel (row-major like `image`): 0 at the camera's near plane, 1 at its far
        /// plane and where nothing was drawn. With a perspective camera of near `n` and far `f` the distance
        /// along the view axis is `2fn / ((f + n) − (2d − 1)(f − n))`.
        public var depth: [Float]
    }

    /// Renders like ``render(scene:camera:size:)`` and also reads the depth buffer (for reprojecting the image
    /// to nearby viewpoints).
    public func renderWithDepth(scene: Scene, camera: Node? = nil, size: RenderSize) throws -> ImageWithDepth {
        let (bytes, depth) = try context.withCurrent { () throws -> ([UInt8], [Float]) in
            guard let renderer else { throw RenderError.gl("renderer was released") }
            renderer.shadowsEnabled = options.shadows
            let targets = try renderer.prepareTargets(width: size.width, height: size.height, samples: options.samples)
            try renderer.draw(scene: scene, camera: camera, targets: targets)
            return (targets.readOutput(), try targets.readDepth())
        }
        let pixels = bytes.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: RGBA8.self).prefix(size.width * size.height))
        }
        return ImageWithDepth(image: try RGBAImage(width: size.width, height: size.height, pixels: pixels), depth: depth)
    }

    /// Renders without reading the pixels back (for benchmarks of the GPU side alone); waits for completion.
    public func renderWithoutReadback(scene: Scene, camera: Node? = nil, size: RenderSize) throws {
        try context.withCurrent {
            guard let renderer else { throw RenderError.gl("renderer was released") }
            renderer.shadowsEnabled = options.shadows
            let targets = try renderer.prepareTargets(width: size.width, height: size.height, samples: options.samples)
            try renderer.draw(scene: scene, camera: camera, targets: targets)
            GLInfo.finish()
        }
    }

    /// Renders and writes a PNG (via ParallaxImaging).
    public func renderPNG(scene: Scene, camera: Node? = nil, size: RenderSize, to url: URL) throws {
        let image = try render(scene: scene, camera: camera, size: size)
        try PNG.write(.rgba8(image), to: url)
    }

    /// Number of meshes and textures currently cached on the GPU.
    public var cachedResourceCounts: (meshes: Int, textures: Int) {
        (try? context.withCurrent { renderer?.cache.counts ?? (0, 0) }) ?? (0, 0)
    }
}

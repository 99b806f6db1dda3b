import Foundation

/// Where the renderer's GLSL files live and how to read them.
///
/// The files are plain GLSL under `Shaders/glsl/`, copied into this module's resource bundle so they can be
/// edited without recompiling Swift. `PARALLAX_SHADER_DIR` points at another folder (e.g. the source tree while
/// iterating on a shader) and takes precedence.
public enum ShaderLibrary {
    /// The folder holding the shader files: `PARALLAX_SHADER_DIR` when set, else the bundled `glsl` folder.
    public static var directory: URL? {
        if let override = ProcessInfo.processInfo.environment["PARALLAX_SHADER_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return Bundle.module.url(forResource: "glsl", withExtension: nil)
    }

    /// The text of shader file `name` (e.g. `"mesh.frag"`).
    /// - Throws: `CocoaError(.fileNoSuchFile)`-style errors from Foundation, or ``ShaderLibraryError`` naming the file.
    public static func source(named name: String) throws -> String {
        guard let directory else {
            throw ShaderLibraryError(message: "the ParallaxShaders resource bundle has no 'glsl' folder")
        }
        let url = directory.appendingPathComponent(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw ShaderLibraryError(message: "cannot read shader file \(url.path)")
        }
        return text
    }
}

/// A shader file could not be found or read.
public struct ShaderLibraryError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the file.
    public let message: String
    /// The message.
    public var description: String { message }
}

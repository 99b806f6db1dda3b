import Foundation
import ParallaxImaging

/// An error in a scene, mesh or texture file. The description names the file and the field,
/// e.g. `Scenes/room.json: nodes[3].geometry.radius: expected a number`.
public struct SceneError: Error, CustomStringConvertible, Equatable {
    /// The file (as given by the caller, or its last path components).
    public var file: String
    /// The field path inside the file (`nodes[3].geometry.radius`), or a line (`line 12`); may be empty.
    public var field: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, field: String = "", _ message: String) {
        self.file = file; self.field = field; self.message = message
    }

    /// `file: field: message`.
    public var description: String { field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)" }
}

/// Limits that turn absurd input into errors instead of exhausting memory.
public enum SceneLimits {
    /// Largest file read (bytes).
    public static let maxFileBytes = 512 * 1024 * 1024
    /// Largest texture edge (pixels).
    public static let maxTextureSize = 16384
    /// Largest texture area (pixels).
    public static let maxTexturePixels = 64 * 1024 * 1024
    /// Deepest node nesting accepted in a scene file.
    public static let maxDepth = 64
    /// Most nested scene/mesh file references (guards against include cycles).
    public static let maxIncludeDepth = 8
}

/// A short display name for a file URL: the last two path components.
func displayName(_ url: URL) -> String {
    let parts = url.standardizedFileURL.pathComponents
    return parts.suffix(2).joined(separator: "/")
}

/// Reads a whole file, with a size limit and an error naming the file.
func readFile(_ url: URL, displayName name: String, field: String = "") throws -> Data {
    if let problem = FileReadability.problem(url) {
        throw SceneError(file: name, field: field, "cannot read \(url.path): \(problem)")
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    guard let attributes else { throw SceneError(file: name, field: field, "cannot read \(url.path): no such file") }
    if let size = attributes[.size] as? Int, size > SceneLimits.maxFileBytes {
        throw SceneError(file: name, field: field, "file is \(size) bytes, over the \(SceneLimits.maxFileBytes)-byte limit")
    }
    do { return try Data(contentsOf: url) } catch {
        throw SceneError(file: name, field: field, "cannot read \(url.path): \(FileReadability.describe(error, reading: url))")
    }
}

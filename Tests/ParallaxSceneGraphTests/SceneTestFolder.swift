import Foundation
@testable import ParallaxSceneGraph

/// A temporary folder for scene-file tests, removed when the value is released.
final class SceneTestFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-scene-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: url.appendingPathComponent("scene/sub"), withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` at `relative`.
    func write(_ text: String, _ relative: String) throws {
        try text.write(to: url.appendingPathComponent(relative), atomically: true, encoding: .utf8)
    }

    /// Loads `relative` (after writing `text` there when given); the error text, or "loaded".
    func loadError(_ relative: String, _ text: String? = nil, access: SceneFileAccess? = nil) throws -> String {
        if let text { try write(text, relative) }
        do { _ = try Scene.load(contentsOf: url.appendingPathComponent(relative), access: access); return "loaded" } catch {
            return "\(error)"
        }
    }
}

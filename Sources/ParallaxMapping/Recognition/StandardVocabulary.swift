import Foundation

extension Vocabulary {
    /// The vocabulary shipped with the package (`Sources/ParallaxMapping/Resources/default.voc`,
    /// trained on our simulated scenes; how it was made: docs/world-maps.md, "Vocabulary"), nil
    /// when it cannot be found or read — keyframe databases then fall back to brute-force
    /// candidate search.
    ///
    /// Looked up, first found wins: the file named by the environment variable
    /// `PARALLAX_VOCABULARY` (`none` switches the vocabulary off); `default.voc` in this module's
    /// SwiftPM resource bundle beside the executable (`*_ParallaxMapping.resources`, where
    /// `swift build`, `swift test` and packages depending on Parallax put it); the source tree this
    /// module was compiled from. The generated `Bundle.module` is not used: it stops the process
    /// when the bundle is missing (an executable copied elsewhere).
    public static let standard: Vocabulary? = {
        for url in standardLocations() where FileManager.default.fileExists(atPath: url.path) {
            if let vocabulary = try? VocabularyFile.read(contentsOf: url) { return vocabulary }
        }
        return nil
    }()

    /// File name of the shipped vocabulary.
    public static let standardFileName = "default.voc"

    /// Where ``standard`` looks, in order.
    static func standardLocations() -> [URL] {
        if let override = ProcessInfo.processInfo.environment["PARALLAX_VOCABULARY"], !override.isEmpty {
            return override == "none" ? [] : [URL(fileURLWithPath: override)]
        }
        var urls: [URL] = []
        let folders = [Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent()].compactMap { $0 }
        for folder in folders {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for entry in entries.sorted() where entry.hasSuffix("_ParallaxMapping.resources") {
                urls.append(folder.appendingPathComponent(entry).appendingPathComponent(standardFileName))
            }
        }
        urls.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources").appendingPathComponent(standardFileName))
        return urls
    }
}

import Foundation

/// Paths of test data, relative to this file (repo root = two levels up from Tests/ParallaxARTests).
enum TestData {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The small simulated dataset with truth.
    static let sample = repoRoot.appendingPathComponent("Datasets/sample")
}

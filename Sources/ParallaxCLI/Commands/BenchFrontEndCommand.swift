import ArgumentParser
import Foundation
import ParallaxEvaluation
import ParallaxVision

/// `parallax bench frontend DATASET`: milliseconds per frame of the feature-tracking front-end,
/// split by stage (pyramid, KLT, RANSAC, detection, stereo), median and p99.
struct BenchFrontEndCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frontend", abstract: "Measure the visual front-end's time per frame by stage.")

    @Argument(help: "Dataset folder (EuRoC/ASL layout).")
    var dataset: String

    @Flag(help: "Track cam0 only (default: stereo when the dataset has cam1).")
    var mono = false

    @Option(help: "Passes over the dataset (more passes steady the p99).")
    var repetitions: Int = 3

    @Option(help: "Use at most this many frames.")
    var maxFrames: Int?

    func run() throws {
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
        let report = try FrontEndBenchmark.run(
            dataset: URL(fileURLWithPath: dataset), stereo: !mono, useGyro: true,
            maxFrames: maxFrames, repetitions: repetitions)
        print(report.description)
    }
}

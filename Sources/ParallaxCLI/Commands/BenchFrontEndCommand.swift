import ArgumentParser
import Foundation
import ParallaxEvaluation
import ParallaxTracking
import ParallaxVision

/// `parallax bench frontend DATASET`: milliseconds per frame of the feature-tracking front-end,
/// split by stage (pyramid, KLT, RANSAC, detection, stereo), median and p99.
struct BenchFrontEndCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frontend", abstract: "Measure the visual front-end's time per frame by stage.")

    @OptionGroup var input: DatasetArgument
    @OptionGroup var cameras: CameraOptions

    @Option(parsing: .unconditional, help: "Passes over the dataset (more passes steady the p99; 1…1000).")
    var repetitions: Int = 3

    @Option(parsing: .unconditional, help: "Use at most this many frames (≥ 1).")
    var maxFrames: Int?

    func validate() throws {
        try NumberChecks.integer(repetitions, "--repetitions", in: 1...1000)
        if let maxFrames { try NumberChecks.integer(maxFrames, "--max-frames", in: 1...Int.max) }
    }

    func run() throws {
        let mode = try cameras.mode(for: try input.open(), named: input.dataset)
        let report = try FrontEndBenchmark.run(
            dataset: input.url, stereo: mode == .stereo, useGyro: true,
            maxFrames: maxFrames, repetitions: repetitions)
        print(report.description)
    }
}

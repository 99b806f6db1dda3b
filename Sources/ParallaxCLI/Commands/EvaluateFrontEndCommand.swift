import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxTracking

/// `parallax evaluate frontend DATASET`: reprojection errors of the feature tracks against the
/// dataset's true poses — the front-end (and the calibration) measured without the estimator.
struct EvaluateFrontEndCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frontend",
        abstract: "Measure feature tracks against ground-truth poses (reprojection error in pixels).",
        discussion: """
            Runs the feature tracker over DATASET (which needs mav0/state_groundtruth_estimate0), \
            cuts every track into pieces of at most --window frames, triangulates each piece with \
            the true camera poses and prints the reprojection errors. On simulated data these are \
            KLT drift and wrong matches; a calibration that does not fit the images shows as \
            errors growing with the motion and a non-zero mean signed residual.
            """)

    @OptionGroup var input: DatasetArgument
    @OptionGroup var cameras: CameraOptions
    @OptionGroup var range: TimeRangeOptions

    @Option(parsing: .unconditional, help: "Longest track piece triangulated at once, in frames (the estimator's window, 2…1000).")
    var window: Int = 11

    func validate() throws {
        try NumberChecks.integer(window, "--window", in: 2...1000)
    }

    func run() throws {
        let data = try input.open(policy: .lenient)
        var configuration = TrackerConfiguration()
        configuration.mode = try cameras.mode(for: data, named: input.dataset)
        try range.check(against: data, named: input.dataset)
        var evaluation = FrontEndEvaluation(dataset: data, configuration: configuration)
        evaluation.windowFrames = window
        let report = try evaluation.run(from: range.from, to: range.to)
        print("mode \(configuration.mode.rawValue), window \(window) frames")
        print(report.description)
    }
}

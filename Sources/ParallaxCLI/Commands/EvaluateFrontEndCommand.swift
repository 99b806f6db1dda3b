import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxTracking

/// `parallax evaluate-frontend DATASET`: reprojection errors of the feature tracks against the
/// dataset's true poses — the front-end (and the calibration) measured without the estimator.
struct EvaluateFrontEndCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-frontend",
        abstract: "Measure feature tracks against ground-truth poses (reprojection error in pixels).",
        discussion: """
            Runs the feature tracker over DATASET (which needs mav0/state_groundtruth_estimate0), \
            cuts every track into pieces of at most --window frames, triangulates each piece with \
            the true camera poses and prints the reprojection errors. On simulated data these are \
            KLT drift and wrong matches; a calibration that does not fit the images shows as \
            errors growing with the motion and a non-zero mean signed residual.
            """)

    @Argument(help: "The dataset folder (containing mav0).")
    var dataset: String

    @Flag(help: "Track cam0 only.")
    var mono = false

    @Flag(help: "Track cam0 and match into cam1 (default when the dataset has two cameras).")
    var stereo = false

    @Option(help: "Start this many seconds after the dataset start.")
    var from: Double?

    @Option(help: "Stop this many seconds after the dataset start.")
    var to: Double?

    @Option(help: "Longest track piece triangulated at once, in frames (the estimator's window).")
    var window: Int = 11

    func validate() throws {
        if mono && stereo { throw ValidationError("choose one of --mono and --stereo") }
        guard window >= 2 else { throw ValidationError("--window must be at least 2 frames") }
        if let from, !(from >= 0) { throw ValidationError("--from must be a number ≥ 0") }
        if let to, !(to > (from ?? 0)) { throw ValidationError("--to must be a number after --from") }
    }

    func run() throws {
        do {
            let data = try EuRoCDataset(url: URL(fileURLWithPath: dataset), policy: .lenient)
            if stereo && !data.isStereo { throw ValidationError("\(dataset) has one camera; --stereo needs two") }
            var configuration = TrackerConfiguration()
            configuration.mode = mono || !data.isStereo ? .mono : .stereo
            var evaluation = FrontEndEvaluation(dataset: data, configuration: configuration)
            evaluation.windowFrames = window
            let report = try evaluation.run(from: from, to: to)
            print("mode \(configuration.mode.rawValue), window \(window) frames")
            print(report.description)
        } catch let error as ValidationError {
            throw error
        } catch {
            FileHandle.standardError.write(Data("parallax evaluate-frontend: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}

import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxMath
import ParallaxTracking

/// `parallax replay`: runs the visual-inertial odometry over a dataset and reports how it did.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Track a dataset with the visual-inertial odometry; export frames and the trajectory.")

    @Argument(help: "EuRoC/ASL dataset folder (containing mav0/).")
    var dataset: String

    @Flag(help: "Use cam0 only.")
    var mono = false

    @Flag(help: "Use cam0 and cam1 (default when the dataset has two cameras).")
    var stereo = false

    @Option(help: "Write one JSON object per frame (ARKit-convention camera transform, state, feature points).")
    var export: String?

    @Option(help: "Write the estimated body trajectory (TUM format, T_world_body).")
    var trajectory: String?

    @Option(help: "Start time, seconds from the dataset start.")
    var from: Double?

    @Option(help: "End time, seconds from the dataset start.")
    var to: Double?

    @OptionGroup(title: "AR session")
    var ar: ARReplayOptions

    func validate() throws {
        if mono && stereo { throw ValidationError("choose one of --mono and --stereo") }
        if let from, let to, to <= from { throw ValidationError("--to must be after --from") }
    }

    func run() throws {
        let data = try EuRoCDataset(url: URL(fileURLWithPath: dataset), policy: .lenient)
        if stereo && !data.isStereo { throw ValidationError("\(dataset) has one camera; --stereo needs two") }
        let mode: TrackerConfiguration.Mode = mono || !data.isStereo ? .mono : .stereo
        let runner = try DatasetRunner(dataset: data, configuration: TrackerConfiguration(mode: mode))
        let totalFrames = max(1, (try? data.cameraFrames(0).count) ?? 1)
        // With AR features on, frames.jsonl comes from the AR session (it adds anchors and light).
        var exporter = try (ar.isRequested ? nil : export).map { try TrackingFrameExporter(path: $0, camera: data.cameras[0]) }
        let bar = isatty(STDOUT_FILENO) != 0 ? ProgressBar() : nil
        var done = 0
        let summary = try runner.run(from: from, to: to) { result, _ in
            done += 1
            try exporter?.write(result)
            bar?.update(min(1, Double(done) / Double(totalFrames)), status: result.trackingState.description)
        }
        bar?.finish()
        try exporter?.close()
        if let trajectory { try TUMTrajectory.write(summary.trajectory, to: URL(fileURLWithPath: trajectory)) }
        print(Self.report(summary, mode: mode))
        if let eval = try summary.evaluation() {
            print(String(format: "ATE posyaw: rmse %.4f m, max %.4f m over %d poses (10 ms association)",
                         eval.report.ate.rmse, eval.report.ate.max, eval.report.associatedPoses))
        }
        if ar.isRequested {
            print("")
            try ar.run(dataset: URL(fileURLWithPath: dataset), export: export, from: from, to: to)
        }
    }

    static func report(_ s: DatasetRunner.Summary, mode: TrackerConfiguration.Mode) -> String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        let fe = s.frontEndMs, be = s.backEndMs
        let total = s.trackingMs
        return """
        mode \(mode.rawValue): \(s.frames) frames, normal \(f(100 * s.normalFraction)) % \
        (\(s.normalFrames)/\(s.frames)); initialised after \(s.initializationTime.map { f($0) + " s" } ?? "never"), \
        normal after \(s.timeToNormal.map { f($0) + " s" } ?? "never")
        tracking ms per frame (median / p99): total \(f(SampleStatistics.quantile(total, 0.5))) / \
        \(f(SampleStatistics.quantile(total, 0.99))), front-end \(f(SampleStatistics.quantile(fe, 0.5))) / \
        \(f(SampleStatistics.quantile(fe, 0.99))), back-end \(f(SampleStatistics.quantile(be, 0.5))) / \
        \(f(SampleStatistics.quantile(be, 0.99))); PNG decoding (not counted) \
        \(f(SampleStatistics.quantile(s.decodeMs, 0.5))) / \(f(SampleStatistics.quantile(s.decodeMs, 0.99)))
        """
    }
}

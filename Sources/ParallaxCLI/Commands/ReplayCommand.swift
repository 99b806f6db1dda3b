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

    @OptionGroup var input: DatasetArgument
    @OptionGroup var cameras: CameraOptions

    @Option(help: "Write one JSON object per frame (ARKit-convention camera transform, state, feature points).")
    var export: String?

    @Option(help: "Write the estimated body trajectory (TUM format, T_world_body).")
    var trajectory: String?

    @OptionGroup var range: TimeRangeOptions

    @OptionGroup(title: "AR session")
    var ar: ARReplayOptions

    @OptionGroup(title: "Online calibration")
    var calibration: OnlineCalibrationOptions

    @OptionGroup(title: "World map")
    var map: MapOptions

    /// A world-map replay writes its trajectory (in the map's world) but no frame export or AR
    /// output: asking for them with it is refused rather than silently ignored.
    func validate() throws {
        guard map.isRequested else { return }
        var ignored: [String] = []
        if export != nil { ignored.append("--export") }
        if ar.isRequested { ignored.append("--planes/--light/--render") }
        guard ignored.isEmpty else {
            throw ValidationError("\(ignored.joined(separator: ", ")) cannot be combined with --save-map or --load-map: the world-map "
                                  + "replay does not write them; run a separate replay for them")
        }
    }

    func run() throws {
        if ar.isRequested { try input.requireFolder(for: "the AR session (--planes, --light, --render)") }
        if map.isRequested { try input.requireFolder(for: "world maps (--save-map, --load-map)") }
        let data = try input.openSource(policy: .lenient)
        let mode = try cameras.mode(for: data, named: input.dataset)
        try range.check(against: data, named: input.dataset)
        var configuration = TrackerConfiguration(mode: mode)
        try calibration.apply(to: &configuration)
        if map.isRequested {
            try map.run(dataset: input.url, from: range.from, to: range.to, tracker: configuration, trajectory: trajectory)
            return
        }
        if ar.isRequested && ar.poses.poseSource == .tracking, let folder = data as? EuRoCDataset {
            try runOnePass(folder, tracker: configuration)
            return
        }
        let runner = try DatasetRunner(source: data, configuration: configuration)
        for w in runner.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
        // A recording's frame count is unknown before the pass: the bar then shows nothing useful, so none.
        let totalFrames = max(1, (try? (data as? EuRoCDataset)?.cameraFrames(0).count) ?? 1)
        // With AR features on, frames.jsonl comes from the AR session (it adds anchors and light).
        var exporter = try (ar.isRequested ? nil : export).map { try TrackingFrameExporter(path: $0, camera: data.cameras[0]) }
        let bar = isatty(STDOUT_FILENO) != 0 ? ProgressBar() : nil
        var done = 0
        let summary = try runner.run(from: range.from, to: range.to) { result, _ in
            done += 1
            try exporter?.write(result)
            bar?.update(min(1, Double(done) / Double(totalFrames)), status: result.trackingState.description)
        }
        bar?.finish()
        // A partial replay says where it stopped; dropped messages are counted (never silent).
        for w in summary.readWarnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
        try exporter?.close()
        if let trajectory { try TUMTrajectory.write(summary.trajectory, to: URL(fileURLWithPath: trajectory)) }
        print(Self.report(summary, mode: mode))
        if let eval = try summary.evaluation() {
            print(String(format: "ATE posyaw: rmse %.4f m, max %.4f m over %d poses (10 ms association)",
                         eval.report.ate.rmse, eval.report.ate.max, eval.report.associatedPoses))
        }
        if ar.isRequested {
            print("")
            try ar.run(dataset: input.url, export: export, from: range.from, to: range.to, tracker: configuration)
        }
    }

    /// AR features with tracked poses: one pass, in which the AR session drives the tracker
    /// (configured as `tracker`) and the tracking figures are read from its results.
    private func runOnePass(_ data: EuRoCDataset, tracker: TrackerConfiguration) throws {
        let mode = tracker.mode
        var tally = TrackingTally()
        // The same stream checks as the tracking-only path (stereo pairing, baseline, time ranges).
        for w in try data.checkTimelines(stereo: mode == .stereo) { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
        try ar.run(dataset: input.url, export: export, from: range.from, to: range.to, tracker: tracker) { tally.add($0) }
        if let trajectory { try TUMTrajectory.write(tally.trajectory, to: URL(fileURLWithPath: trajectory)) }
        print(tally.report(mode: mode))
        if let eval = try tally.evaluation(against: data) {
            print(String(format: "ATE posyaw: rmse %.4f m, max %.4f m over %d poses (10 ms association)",
                         eval.report.ate.rmse, eval.report.ate.max, eval.report.associatedPoses))
        }
    }

    static func report(_ s: DatasetRunner.Summary, mode: TrackerConfiguration.Mode) -> String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        let fe = s.frontEndMs, be = s.backEndMs
        let total = s.trackingMs
        return """
        mode \(mode.rawValue): \(s.frames) frames, normal \(f(100 * s.normalFraction)) % \
        (\(s.normalFrames)/\(s.frames)), after the first second \(f(100 * s.normalAfterFirstSecond.fraction)) %; \
        initialised after \(s.initializationTime.map { f($0) + " s" } ?? "never"), \
        normal after \(s.timeToNormal.map { f($0) + " s" } ?? "never"), \
        orientation after \(s.orientationTime.map { f($0) + " s" } ?? "never")
        \(s.recoveries.report)
        tracking ms per frame (median / p99): total \(f(SampleStatistics.quantile(total, 0.5))) / \
        \(f(SampleStatistics.quantile(total, 0.99))), front-end \(f(SampleStatistics.quantile(fe, 0.5))) / \
        \(f(SampleStatistics.quantile(fe, 0.99))), back-end \(f(SampleStatistics.quantile(be, 0.5))) / \
        \(f(SampleStatistics.quantile(be, 0.99))); PNG decoding (not counted) \
        \(f(SampleStatistics.quantile(s.decodeMs, 0.5))) / \(f(SampleStatistics.quantile(s.decodeMs, 0.99)))
        slowest frame: \(f(total.max() ?? 0)) ms of CPU, \(f(s.wallMs.max() ?? 0)) ms of wall clock
        """ + (s.finalTimeOffset.map { String(format: "\ncamera–IMU time offset (timeshift_cam_imu): %.3f ms", $0 * 1e3) } ?? "")
            + CalibrationReport.readout(s) + CalibrationReport.extrinsics(s) + CalibrationReport.intrinsics(s)
            + CalibrationReport.imu(s)
            + CalibrationReport.biases(s)
    }
}

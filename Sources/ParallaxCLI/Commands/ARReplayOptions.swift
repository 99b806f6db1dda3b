import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxARView
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxTracking

/// The AR half of `parallax replay`: plane detection, light estimation, frames with anchors and
/// composited PNGs, through a ``Session`` (ARKit's model) instead of the bare tracker.
struct ARReplayOptions: ParsableArguments {
    @Flag(help: "Detect horizontal and vertical planes (anchors go to --export).")
    var planes = false

    @Flag(help: "Estimate ambient light (intensity, colour temperature, main light direction).")
    var light = false

    @Option(help: "Write composited AR frames (camera image + virtual content) as PNGs to this folder.")
    var render: String?

    @Option(help: "Debug overlays on rendered frames, comma-separated: planes, features, origin, anchors (needs --render).")
    var debug: DebugOverlayList?

    @Option(help: "Scene placed on the first detected horizontal plane when rendering.")
    var scene: String = "Scenes/ar-demo.json"

    @Option(parsing: .unconditional, help: "Render every N-th frame.")
    var every: Int = 1

    @Option(name: .customLong("anchor-snapshot-every"), parsing: .unconditional,
            help: "In --export, also write the full anchor list every N frames (default: anchor events only).")
    var anchorSnapshotEvery: Int?

    @OptionGroup var poses: PoseSourceOption

    /// True when any AR feature was asked for.
    var isRequested: Bool { planes || light || render != nil }

    func validate() throws {
        try NumberChecks.integer(every, "--every", in: 1...Int.max)
        if debug != nil && render == nil { throw ValidationError("--debug draws on rendered frames; add --render DIR") }
        if let anchorSnapshotEvery { try NumberChecks.integer(anchorSnapshotEvery, "--anchor-snapshot-every", in: 1...Int.max) }
    }

    /// Replays `dataset` through an AR session and prints what it found. `export` receives one
    /// JSON line per frame (camera, tracking state, feature points, anchors, light estimate).
    /// The session's tracker runs in `trackerMode`; `onTracking` hears each of its results.
    func run(dataset: URL, export: String?, from: Double?, to: Double?, trackerMode: TrackerConfiguration.Mode,
             onTracking: ((TrackingResult) -> Void)? = nil) throws {
        let source = poses.poseSource
        let session = try Session(datasetAt: dataset, replay: ReplayOptions(source: source, startTime: from, stopTime: to,
                                                                            trackerMode: trackerMode))
        var configuration = WorldTrackingConfiguration()
        configuration.planeDetection = planes || render != nil ? [.horizontal, .vertical] : []
        configuration.isLightEstimationEnabled = light || render != nil
        if configuration.isLightEstimationEnabled { session.lightEstimator = SceneLightEstimator() }
        session.run(configuration)

        var exporter = try export.map { path -> FrameExporter in
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try FrameExporter(url: url, anchorSnapshotInterval: anchorSnapshotEvery)
        }
        var frames = 0
        let handle: (Frame) throws -> Void = { frame in
            frames += 1
            if let result = session.lastTrackingResult { onTracking?(result) }
            try exporter?.write(frame)
        }
        var report: ARReplayReport?
        if let render {
            var settings = ARRenderSettings()
            settings.debugOptions = debug?.options ?? []
            report = try ARReplayRenderer.render(
                session: session, outputDirectory: URL(fileURLWithPath: render),
                sceneURL: URL(fileURLWithPath: scene), every: every, settings: settings, frameHandler: handle)
        } else {
            while let frame = try session.nextFrame() { try handle(frame) }
        }
        try exporter?.close()
        printSummary(session: session, frames: frames, report: report, source: source)
    }

    private func printSummary(session: Session, frames: Int, report: ARReplayReport?, source: PoseSourceKind) {
        print("AR session (\(source.rawValue) poses): \(frames) frames")
        let planeAnchors = session.anchors.compactMap { $0 as? PlaneAnchor }
        if planes || render != nil {
            print("planes: \(planeAnchors.count)")
            for p in planeAnchors {
                let c = p.transform.column(3)
                print(String(format: "  %@ %@ extent %.2f x %.2f m at (%.2f, %.2f, %.2f)",
                             p.alignment.rawValue, p.classification.rawValue,
                             p.extent.width, p.extent.height, c.x, c.y, c.z))
            }
        }
        if let light = session.currentFrame?.lightEstimate {
            var line = String(format: "light: ambient %.0f lm, %.0f K", light.ambientIntensity, light.ambientColorTemperature)
            if let d = light.primaryLightDirection {
                line += String(format: ", main light towards (%.2f, %.2f, %.2f)", d.x, d.y, d.z)
            }
            print(line)
        }
        if let report {
            print("rendered \(report.framesWritten) frames to \(render ?? "")")
            if let k = report.contentPlacedAtFrame {
                print("content placed at frame \(k) on \(report.contentPlaneClassification ?? "a plane")")
            }
            if let j = report.jitter {
                print(String(format: "anchor reprojection vs ground truth: rms %.2f px, max %.2f px, frame-to-frame %.2f px",
                             j.rmsErrorPx, j.maxErrorPx, j.frameToFramePx))
            }
        }
    }
}

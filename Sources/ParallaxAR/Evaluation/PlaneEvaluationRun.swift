import Foundation
import ParallaxDatasets
import ParallaxMath

/// Replays a simulated dataset with horizontal and vertical plane detection and scores the
/// planes against its `truth/planes.json` (the engine of `parallax evaluate-planes`).
public enum PlaneEvaluationRun {
    /// Runs the session over `root` (the folder holding `mav0` and `truth`) and returns the report.
    /// - Parameters:
    ///   - source: ground-truth poses or the tracker.
    ///   - stopTime: seconds after the dataset start to stop at (nil: the whole dataset).
    ///   - frameHandler: called with each frame (e.g. for progress or exports).
    public static func run(datasetRoot root: URL, source: PoseSourceKind, stopTime: Double? = nil,
                           frameHandler: ((Frame) throws -> Void)? = nil) throws -> PlaneEvaluationReport {
        let truth = try PlaneTruthFile.read(contentsOf: PlaneTruthFile.url(datasetRoot: root))
        let session = try Session(datasetAt: root, replay: ReplayOptions(source: source, stopTime: stopTime))
        session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: false))
        var evaluator = PlaneEvaluator(truth: truth)
        while let frame = try session.nextFrame() {
            evaluator.observe(frame, T_A_W: session.worldTransform, trackingStartTime: session.trackingStartTime)
            try frameHandler?(frame)
        }
        return evaluator.report()
    }
}

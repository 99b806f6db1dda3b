import Foundation
import ParallaxMath
import ParallaxEvaluation
import Testing

@testable import ParallaxAR

/// The full floor and hit-test figures on a longer simulated dataset, which is too slow to
/// render in CI (a 12-s stereo recording takes ~10 min on llvmpipe). Set `PARALLAX_AR_DATASET`
/// to its folder (e.g. `parallax simulate --motion handheld --duration 12 --stereo
/// --static-start 1 -o /tmp/ar12`) to run it; reported as skipped otherwise.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PARALLAX_AR_DATASET"] != nil,
                "set PARALLAX_AR_DATASET to a simulated dataset with truth/planes.json"))
struct LongDatasetTests {
    static var dataset: URL? {
        ProcessInfo.processInfo.environment["PARALLAX_AR_DATASET"].map { URL(fileURLWithPath: $0) }
    }

    @Test func floorAndHitTestsWithGroundTruthPoses() throws {
        let root = try #require(Self.dataset)
        let truth = try PlaneTruthFile.read(contentsOf: PlaneTruthFile.url(datasetRoot: root))
        let session = try Session(datasetAt: root)
        session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical], isLightEstimationEnabled: false))
        var evaluator = PlaneEvaluator(truth: truth)
        var last: Frame?
        while let frame = try session.nextFrame() {
            evaluator.observe(frame, T_A_W: session.worldTransform, trackingStartTime: session.trackingStartTime)
            last = frame
        }
        let report = evaluator.report()
        let floor = try #require(report.floor)
        #expect(try #require(floor.normalErrorDeg) <= 3)
        #expect(try #require(floor.offsetErrorCm) <= 3)
        #expect(try #require(report.floorTimeToDetect) <= 3)
        let accuracy = HitAccuracy(frame: try #require(last), T_A_W: try #require(session.worldTransform), truth: truth)
        print("long dataset hit tests: \(accuracy.summary)")
        #expect(accuracy.floorHits + accuracy.tableHits >= 5)
        #expect(accuracy.worstFloor <= 0.02 && accuracy.worstTable <= 0.02)
    }

    @Test func floorWithTheTracker() throws {
        let root = try #require(Self.dataset)
        let report = try PlaneEvaluationRun.run(datasetRoot: root, source: .tracking)
        let floor = try #require(report.floor)
        print("tracker floor: offset \(floor.offsetErrorCm ?? -1) cm, IoU \(floor.iou ?? -1), t \(report.floorTimeToDetect ?? -1) s")
        #expect(try #require(floor.offsetErrorCm) <= 3)
        #expect(try #require(report.floorTimeToDetect) <= 3)
    }
}

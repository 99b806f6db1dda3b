import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import Testing

/// Runs the public benchmark on a few frames (all 95 × 3 when `PARALLAX_VISION_BENCH` is
/// `stereo` or `mono`, meant for a release build) and checks the report's content, never
/// its timings.
@Test(.enabled(if: EvaluationTestData.hasEurocSnippet, "needs ../shared/datasets/euroc-v101-micro"))
func frontEndBenchmarkReports() throws {
    let mode = ProcessInfo.processInfo.environment["PARALLAX_VISION_BENCH"]
    let full = mode == "stereo" || mode == "mono"
    let report = try FrontEndBenchmark.run(dataset: EvaluationTestData.eurocSnippet, stereo: mode != "mono",
                                           maxFrames: full ? nil : 5, repetitions: full ? 3 : 1)
    print(report)
    #expect(report.frames == (full ? 3 * 95 : 5))
    #expect(report.stereo == (mode != "mono"))
    #expect(report.meanFeatures >= 100)
    #expect(report.stages.map(\.name) == ["pyramid", "tracking", "ransac", "detection", "stereo", "total"])
    for (_, s) in report.stages { #expect(s.median >= 0 && s.median <= s.p99) }
}

/// The tracking benchmark over several passes pairs each frame's times across passes (the replay
/// is deterministic) and keeps the lowest: same frame count as one pass, the pass count reported,
/// and every statistic ordered. Never checks timings.
@Test(.enabled(if: EvaluationTestData.hasEurocSnippet, "needs ../shared/datasets/euroc-v101-micro"))
func trackingBenchmarkPairsPasses() throws {
    let dataset = try EuRoCDataset(url: EvaluationTestData.eurocSnippet)
    let bench = TrackingBenchmark(dataset: dataset)
    let once = try bench.run(mode: .mono, to: 1.5)
    let thrice = try bench.run(mode: .mono, to: 1.5, passes: 3)
    #expect(once.frames > 10)
    #expect(thrice.frames == once.frames)
    #expect(once.passes == 1 && thrice.passes == 3)
    #expect(thrice.description.hasSuffix("each frame the lowest of 3 passes"))
    #expect(!once.description.contains("passes"))
    for r in [once, thrice] {
        #expect(r.totalMedian > 0 && r.totalMedian <= r.totalP99)
        #expect(r.frontEndMedian <= r.frontEndP99 && r.backEndMedian <= r.backEndP99)
    }
}

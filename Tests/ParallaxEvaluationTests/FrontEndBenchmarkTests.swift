import Foundation
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

import Foundation
import Testing
import ParallaxVision

/// Runs the public benchmark on a few frames (all 95 × 3 when `PARALLAX_VISION_BENCH` is
/// `stereo` or `mono`, meant for a release build) and checks the report's content, never
/// its timings.
@Test(.needsEuRoCSnippet)
func frontEndBenchmarkReports() throws {
    let ds = try eurocSnippet()
    let mode = ProcessInfo.processInfo.environment["PARALLAX_VISION_BENCH"]
    let full = mode == "stereo" || mode == "mono"
    let report = try FrontEndBenchmark.run(dataset: ds.mav0.deletingLastPathComponent(), stereo: mode != "mono",
                                           maxFrames: full ? nil : 5, repetitions: full ? 3 : 1)
    print(report)
    #expect(report.frames == (full ? 3 * 95 : 5))
    #expect(report.stereo == (mode != "mono"))
    #expect(report.meanFeatures >= 100)
    #expect(report.stages.map(\.name) == ["pyramid", "tracking", "ransac", "detection", "stereo", "total"])
    for (_, s) in report.stages { #expect(s.median >= 0 && s.median <= s.p99) }
}

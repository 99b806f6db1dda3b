import Foundation
import ParallaxImaging
import Testing
@testable import ParallaxAR

/// Light estimation against simulated datasets' truth/lighting.json.
@Suite struct LightEstimationDatasetTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Datasets/sample")

    @Test func sampleDatasetAgreesWithTruth() throws {
        let result = try LightEstimationEvaluation.run(datasetURL: Self.sample)
        print("LIGHT sample:", result.frames, "frames",
              "imageOnly/scene", result.imageOnlyVsScene, "imageOnly/apparent", result.imageOnlyVsApparent,
              "compensated", result.compensatedVsScene, "ref", result.calibratedReferenceLuminance,
              "rawFlicker", result.rawExcessFlicker)
        #expect(result.frames == 21)
        #expect(!result.colorMeasured)
        #expect(result.meanColorTemperature == 6500)
    }

    /// Opt-in: a longer simulated dataset named by PARALLAX_LIGHT_DATASET (e.g. 30 s made with
    /// `parallax simulate --duration 30 --rate-cam 10`); prints the figures.
    @Test func longDatasetFigures() throws {
        guard let path = ProcessInfo.processInfo.environment["PARALLAX_LIGHT_DATASET"] else {
            print("skipped: set PARALLAX_LIGHT_DATASET to a simulated dataset to print long-run figures")
            return
        }
        let r = try LightEstimationEvaluation.run(datasetURL: URL(fileURLWithPath: path))
        print("LIGHT long:", r.frames, "\n imageOnly/scene", r.imageOnlyVsScene, "\n imageOnly/apparent", r.imageOnlyVsApparent,
              "\n compensated", r.compensatedVsScene, "\n ref", r.calibratedReferenceLuminance, "rawFlicker", r.rawExcessFlicker,
              "static", r.staticFlicker as Any)
        for s in r.series { print("SERIES", s.map { String(format: "%.3f", $0) }.joined(separator: " ")) }
    }
}

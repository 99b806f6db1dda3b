import Foundation
import ParallaxImaging
import Testing
import ParallaxAR
import ParallaxEvaluation

/// Light estimation against simulated datasets' truth/lighting.json.
@Suite struct LightEstimationDatasetTests {
    static let sample = EvaluationTestData.sample

    @Test func sampleDatasetAgreesWithTruth() throws {
        let result = try LightEstimationEvaluation.run(datasetURL: Self.sample)
        print("LIGHT sample:", result.frames, "frames",
              "imageOnly/scene", result.imageOnlyVsScene, "imageOnly/apparent", result.imageOnlyVsApparent,
              "compensated", result.compensatedVsScene, "ref", result.calibratedReferenceLuminance,
              "rawFlicker", result.rawExcessFlicker)
        #expect(result.frames == 21)
        // Grey camera: neutral temperature, flagged as not measured.
        #expect(!result.colorMeasured)
        #expect(result.meanColorTemperature == 6500)
        // Over these 2 s the image brightness follows the auto-exposure (~8 % change); the
        // brightness tracker measures it on the same scene points: measured r = 0.9987.
        #expect(result.imageOnlyVsApparent.correlation > 0.99)
        // The absolute level depends on what the camera looks at: the calibration (0.25, from a
        // 30 s recording) is 15 % off for this viewpoint (its own reference is 0.212). Measured
        // 15.0 %; 20 % is the floor.
        #expect(result.compensatedVsScene.meanRelativeError < 0.20)
        // Flicker beyond the true change: measured 2.3 lm (0.25 %).
        #expect(result.compensatedVsScene.excessFlicker < 5)
    }

    /// Opt-in: a longer simulated dataset named by PARALLAX_LIGHT_DATASET (e.g. 30 s made with
    /// `parallax simulate --duration 30 --rate-cam 10`); prints the figures.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PARALLAX_LIGHT_DATASET"] != nil,
                   "set PARALLAX_LIGHT_DATASET to a simulated dataset to print long-run figures"))
    func longDatasetFigures() throws {
        let path = try #require(ProcessInfo.processInfo.environment["PARALLAX_LIGHT_DATASET"])
        let r = try LightEstimationEvaluation.run(datasetURL: URL(fileURLWithPath: path))
        print("LIGHT long:", r.frames, "\n imageOnly/scene", r.imageOnlyVsScene, "\n imageOnly/apparent", r.imageOnlyVsApparent,
              "\n compensated", r.compensatedVsScene, "\n ref", r.calibratedReferenceLuminance, "rawFlicker", r.rawExcessFlicker,
              "static", r.staticFlicker as Any)
        for s in r.series { print("SERIES", s.map { String(format: "%.3f", $0) }.joined(separator: " ")) }
    }
}

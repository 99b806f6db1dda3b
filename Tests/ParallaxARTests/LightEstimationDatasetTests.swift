import Foundation
import ParallaxImaging
import Testing
@testable import ParallaxAR

/// Light estimation against the bundled simulated dataset's truth/lighting.json.
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
}

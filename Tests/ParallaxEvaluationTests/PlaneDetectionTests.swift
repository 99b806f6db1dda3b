import Foundation
import ParallaxMath
import Testing

import ParallaxAR
import ParallaxEvaluation

@Suite struct PlaneDetectionTests {
    @Test func floorOnSampleWithGroundTruthPoses() throws {
        let report = try PlaneEvaluationRun.run(datasetRoot: EvaluationTestData.sample, source: .groundTruth)
        for p in report.planes {
            print(p.alignment, p.classification, p.truthID ?? "-", p.normalErrorDeg ?? -1, p.offsetErrorCm ?? -1, p.iou ?? -1, p.area, p.timeToDetect)
        }
        print("floor time", report.floorTimeToDetect ?? -1)
        let floor = try #require(report.floor)
        #expect(try #require(floor.normalErrorDeg) <= 3)
        #expect(try #require(floor.offsetErrorCm) <= 3)
        #expect(try #require(report.floorTimeToDetect) <= 3)
    }
}

import Foundation
import Testing
@testable import ParallaxCLI
@testable import ParallaxEvaluation

/// `evaluate planes --json` carries the map-level figures the table prints (anchors, missed
/// planes, each hit type's share within 2 cm), not only the per-plane scores.
@Suite struct EvaluatePlanesJSONTests {
    @Test func theMapFiguresAreInTheJSON() throws {
        var q = PlaneMapQuality(visibleTruth: ["floor", "wall-left", "book/x+"], missed: ["wall-left"], anchors: 2,
                                extentHitDistances: [0.005, 0.01, 0.03, 0.002], geometryHitDistances: [0.001],
                                extentHitAnchors: [])
        q.measuredToEveryFace = true
        q.extentHitDistancesToPlanes = [0.005, 0.31, 0.03, 0.002]
        let report = PlaneEvaluationReport(planes: [], floor: nil, floorTimeToDetect: nil, frames: 12, trackingStartTime: nil, quality: q)
        let text = EvaluatePlanesCommand.json(report, source: .tracking)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let map = try #require(object["map"] as? [String: Any])
        #expect(map["anchors"] as? Int == 2 && map["truthPlanesInView"] as? Int == 3)
        #expect(map["missed"] as? [String] == ["wall-left"] && map["measuredToEveryFace"] as? Bool == true)
        let extent = try #require(map["existingPlaneUsingExtent"] as? [String: Any])
        #expect(extent["count"] as? Int == 4 && abs((extent["within2cm"] as? Double ?? 0) - 0.75) < 1e-9)
        let planesOnly = try #require(map["existingPlaneUsingExtentToPlanesOnly"] as? [String: Any])
        #expect(abs((planesOnly["within2cm"] as? Double ?? 0) - 0.5) < 1e-9)
        // No hits of a type: a count of 0 and nulls, not NaN (which JSON cannot hold).
        let camera = try #require(map["fromTrueCamera"] as? [String: Any])
        let none = try #require(camera["existingPlaneUsingExtent"] as? [String: Any])
        #expect(none["count"] as? Int == 0 && none["within2cm"] is NSNull && none["p95Cm"] is NSNull)
    }
}

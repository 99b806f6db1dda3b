import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import Testing

@testable import ParallaxAR

/// Feature points whose depth is still doubtful (σ over 20 % of their distance: triangulated across
/// a hand-held start's assumed motion) answer no feature-point or estimated-plane hit test, and
/// stay out of raycasts; points without σ (a saved map, ground-truth poses) always answer.
@Suite struct DoubtfulPointHitTests {
    /// A camera at the AR origin looking down −z, 640 × 480, f = 500.
    static func frame(_ cloud: PointCloud) -> Frame {
        let camera = Camera(transform: .identity, trackingState: .normal,
                            intrinsics: Matrix3(rows: Vector3(500, 0, 320), Vector3(0, 500, 240), Vector3(0, 0, 1)),
                            imageResolution: ImageResolution(width: 640, height: 480),
                            distortion: .radialTangential(k1: 0, k2: 0, p1: 0, p2: 0))
        return Frame(timestamp: 0, timestampNs: 0, capturedImage: .gray8(GrayImage(width: 640, height: 480, fill: 0)),
                     camera: camera, anchors: [], lightEstimate: nil, rawFeaturePoints: cloud)
    }

    @Test("Only points whose σ is within 20 % of their distance are confident")
    func confidentPoints() {
        let points = [Vector3(0, 0, -2), Vector3(0.1, 0, -2), Vector3(0, 0.1, -4)]
        let cloud = PointCloud(points: points, identifiers: [1, 2, 3], sigmas: [0.1, 0.5, 0.79])
        // 0.1 ≤ 0.4, 0.5 > 0.4, 0.79 ≤ 0.2 · 4.001
        #expect(cloud.confidentPoints(from: .zero) == [points[0], points[2]])
        #expect(cloud.confidentPoints(from: .zero, limit: .infinity) == points)
        #expect(PointCloud(points: points, identifiers: [1, 2, 3]).confidentPoints(from: .zero) == points)
    }

    @Test("A doubtful point answers no feature-point hit test; a confident one does")
    func featurePointHits() {
        let centre = Vector2(0.5, 0.5)
        let doubtful = Self.frame(PointCloud(points: [Vector3(0, 0, -2)], identifiers: [1], sigmas: [0.9]))
        #expect(doubtful.hitTest(centre, types: .featurePoint).isEmpty)
        let confident = Self.frame(PointCloud(points: [Vector3(0, 0, -2)], identifiers: [1], sigmas: [0.05]))
        let hit = confident.hitTest(centre, types: .featurePoint).first
        #expect(abs((hit?.distance ?? 0) - 2) < 1e-4)
        let unknown = Self.frame(PointCloud(points: [Vector3(0, 0, -2)], identifiers: [1]))
        #expect(unknown.hitTest(centre, types: .featurePoint).count == 1)
    }

    /// Nine points on a floor 1.5 m below the camera and eleven doubtful ones 0.4 m higher (a plane
    /// fitted to a hand-held start's points sat that far off), all near the ray through the bottom
    /// of the image: the estimated plane is the floor.
    @Test("Estimated planes are fitted to the confident points only")
    func estimatedPlane() throws {
        // The ray through (0.5, 0.95) falls 0.432 m per metre ahead: it meets y = −1.5 at z = −3.47
        // and y = −1.1 at z = −2.55.
        var points: [Vector3] = [], sigmas: [Double] = []
        for i in 0..<9 {
            points.append(Vector3(Double(i % 3 - 1) * 0.05, -1.5, -3.47 + Double(i / 3 - 1) * 0.05)); sigmas.append(0.01)
        }
        for i in 0..<11 {
            points.append(Vector3(Double(i % 3 - 1) * 0.04, -1.1, -2.55 + Double(i / 3 - 1) * 0.03)); sigmas.append(1.0)
        }
        let frame = Self.frame(PointCloud(points: points, identifiers: (0..<20).map(UInt64.init), sigmas: sigmas))
        let below = Vector2(0.5, 0.95)
        let hit = try #require(frame.hitTest(below, types: .estimatedHorizontalPlane).first)
        #expect(abs(hit.position.y + 1.5) < 1e-6, "estimated plane at y \(hit.position.y)")
    }
}

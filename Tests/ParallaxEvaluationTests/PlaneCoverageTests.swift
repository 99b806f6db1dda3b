import ParallaxAR
import ParallaxMath
import Testing

@testable import ParallaxEvaluation

/// The seen part of truth planes (`PlaneCoverage`): a 4 × 2 m wall 3 m in front of a camera that
/// sees all of it, then the same with a panel 1 m in front of the camera hiding the wall's left
/// half. The seen part must be the whole wall, then the right half, to within the sampling grid.
@Suite struct PlaneCoverageTests {
    /// A vertical rectangle at x = `x` facing −x (towards the origin), spanning `y` and `z`.
    static func panel(_ id: String, x: Double, y: ClosedRange<Double>, z: ClosedRange<Double>) -> TruthPlane {
        let polygon = [Vector3(x, y.lowerBound, z.lowerBound), Vector3(x, y.lowerBound, z.upperBound),
                       Vector3(x, y.upperBound, z.upperBound), Vector3(x, y.upperBound, z.lowerBound)]
        return TruthPlane(id: id, kind: "wall", centre: Vector3(x, (y.lowerBound + y.upperBound) / 2, (z.lowerBound + z.upperBound) / 2),
                          normal: Vector3(-1, 0, 0), area: (y.upperBound - y.lowerBound) * (z.upperBound - z.lowerBound), polygon: polygon)
    }

    /// An OpenCV camera at (0, 0, 1) looking along world +x (image right = −y, image down = −z),
    /// 640 × 480 with a 300 px focal length: the wall at 3 m fills ±3.2 m by ±2.4 m of the view.
    static let camera = Camera(transform: Matrix4.identity, trackingState: .normal,
                               intrinsics: Matrix3(rowMajor: [300, 0, 320, 0, 300, 240, 0, 0, 1]),
                               imageResolution: ImageResolution(width: 640, height: 480),
                               distortion: .radialTangential(k1: 0, k2: 0, p1: 0, p2: 0))
    static let T_W_C = RigidTransform(rotationMatrix: Matrix3(columns: Vector3(0, -1, 0), Vector3(0, 0, -1), Vector3(1, 0, 0)),
                                      translation: Vector3(0, 0, 1))

    static func seenArea(_ planes: [TruthPlane]) -> Double {
        var coverage = PlaneCoverage(truth: planes)
        coverage.observe(camera, T_W_C: T_W_C, maximumRange: 6)
        return coverage.seenRegions()["wall"].map { ConvexPolygon.signedArea($0) } ?? 0
    }

    @Test("a wall in full view is seen whole; half hidden behind a panel, half")
    func occlusion() {
        let wall = Self.panel("wall", x: 3, y: -2...2, z: 0...2)
        let whole = Self.seenArea([wall])
        #expect(abs(whole - 8) < 1e-6, "seen \(whole) m² of 8")
        // The panel at x = 1 covers y ∈ [0, 1.5] at every height the wall has from the camera's
        // view (projected onto the wall: y ∈ [0, 4.5], z from −2 to 4): the wall's y > 0 half.
        let blocker = Self.panel("blocker", x: 1, y: 0...1.5, z: -1...3)
        let half = Self.seenArea([wall, blocker])
        #expect(abs(half - 4) < 0.3, "seen \(half) m² of the 4 m² left uncovered")
    }
}

import ParallaxMath
import Testing
@testable import ParallaxVision

/// The stereo matcher's epipolar geometry refined from its own matches, on synthetic matches of a
/// pair whose true extrinsics differ from the written ones as the euroc profile's do.
@Suite("Stereo epipolar geometry refined from the matches")
struct StereoEpipolarRefinementTests {
    static let focal = 458.0
    /// EuRoC-like written pair: 11 cm baseline along x.
    static let written = RigidTransform(rotationMatrix: SO3.exp(Vector3(0.001, -0.002, 0.0005)),
                                        translation: Vector3(-0.11, 0.0004, 0.0006))

    /// The written pair turned by `turn` (radians, right camera) with its baseline moved by `shift`.
    static func truth(turn: Vector3, shift: Vector3) -> RigidTransform {
        RigidTransform(rotationMatrix: SO3.exp(turn) * written.rotationMatrix, translation: written.translation + shift)
    }

    /// One frame of matches: points 0.8–8 m away seen by both cameras with 0.3 px of noise; a share
    /// of them matched at the wrong disparity (repeated texture, on the epipolar line) and a few
    /// off it entirely.
    static func frame(_ T: RigidTransform, count: Int = 150, outliers: Bool = true,
                      rng: inout SplitMix64) -> (left: [Vector2], right: [Vector2], inliers: [Bool]) {
        var left: [Vector2] = [], right: [Vector2] = [], inliers: [Bool] = []
        let noise = 0.3 / focal
        func project(_ p: Vector3) -> Vector2 { Vector2(p.x / p.z, p.y / p.z) }
        while left.count < count {
            let ray = Vector3(rng.uniform(-0.7, 0.7), rng.uniform(-0.45, 0.45), 1)
            let depth = rng.uniform(0.8, 8)
            let kind = rng.uniform(0, 1)
            var seen = depth
            if outliers, kind < 0.15 { seen = depth * rng.uniform(0.4, 2.5) }      // wrong disparity
            let r = T * (ray * seen)
            guard r.z > 0.1 else { continue }
            var b = project(r)
            if outliers, kind > 0.95 { b.y += rng.uniform(3, 10) / focal * (rng.uniform(0, 1) < 0.5 ? -1 : 1) }
            left.append(Vector2(ray.x + noise * rng.gaussian(), ray.y + noise * rng.gaussian()))
            right.append(Vector2(b.x + noise * rng.gaussian(), b.y + noise * rng.gaussian()))
            inliers.append(!outliers || (kind >= 0.15 && kind <= 0.95))
        }
        return (left, right, inliers)
    }

    /// RMS distance (pixels) of clean matches of the pair `T` to the essential matrix `E`.
    static func rms(_ E: Matrix3, truth T: RigidTransform, rng: inout SplitMix64) -> Double {
        let f = frame(T, count: 400, outliers: false, rng: &rng)
        let squares = f.left.indices.map { k -> Double in
            let d = SampsonDistance.signed(E, f.left[k], f.right[k]) * focal
            return d * d
        }
        return (squares.reduce(0, +) / Double(squares.count)).squareRoot()
    }

    /// The fit turns the right camera only; the baseline's error, which moves lines in proportion
    /// to disparity, stays in the residual: measured 0.34 / 0.33 px after (0.3 px of noise) and the
    /// turn within 0.034° at the euroc profile's size, 0.41 px and 0.056° at twice it.
    @Test("A pair 0.3° and 2 mm off its calibration: the refined lines fit the true matches nearly to noise",
          arguments: [(Vector3(0.004, 0.003, -0.0015), Vector3(0, 0.002, 0.0015), 0.4, 0.04),
                      (Vector3(-0.003, 0.002, 0.004), Vector3(0, -0.0015, -0.002), 0.4, 0.04),
                      // Twice the euroc profile's error: lines about 3 px off at the start.
                      (Vector3(0.008, 0.0068, 0.0002), Vector3(0, -0.0035, 0.0045), 0.45, 0.07)])
    func refinesTowardTheTruePair(turn: Vector3, shift: Vector3, residual: Double, degrees: Double) {
        let T = Self.truth(turn: turn, shift: shift)
        var rng = SplitMix64(seed: 7)
        var refinement = StereoEpipolarRefinement(nominal: Self.written, focalLength: Self.focal)
        let writtenEssential = refinement.essential
        for _ in 0..<30 {
            let f = Self.frame(T, rng: &rng)
            refinement.update(left: f.left, right: f.right)
        }
        let before = Self.rms(writtenEssential, truth: T, rng: &rng)
        let after = Self.rms(refinement.essential, truth: T, rng: &rng)
        let estimated = SO3.log(refinement.transform.rotationMatrix * Self.written.rotationMatrix.transpose)
        let rotationError = (estimated - turn).norm * 180 / .pi
        print(String(format: "epipolar RMS %.2f px written, %.2f px refined; rotation %.3f° off (true turn %.3f°)",
                     before, after, rotationError, turn.norm * 180 / .pi))
        #expect(refinement.updates == 30)
        #expect(before > 1.0)
        #expect(after < residual)
        #expect(rotationError < degrees)
    }

    @Test("An exact calibration stays put under outliers")
    func exactCalibrationStays() {
        var rng = SplitMix64(seed: 3)
        var refinement = StereoEpipolarRefinement(nominal: Self.written, focalLength: Self.focal)
        for _ in 0..<30 {
            let f = Self.frame(Self.written, rng: &rng)
            refinement.update(left: f.left, right: f.right)
        }
        print(String(format: "exact pair: rotation correction %.4f°", refinement.correctionDegrees))
        #expect(refinement.correctionDegrees < 0.02)
        #expect(Self.rms(refinement.essential, truth: Self.written, rng: &rng) < 0.35)
    }

    @Test("Too few matches leave the estimate where it was")
    func fewMatchesDoNothing() {
        var rng = SplitMix64(seed: 5)
        var refinement = StereoEpipolarRefinement(nominal: Self.written, focalLength: Self.focal)
        let T = Self.truth(turn: Vector3(0.004, 0, 0), shift: .zero)
        let f = Self.frame(T, count: refinement.minimumMatches - 1, outliers: false, rng: &rng)
        refinement.update(left: f.left, right: f.right)
        #expect(refinement.updates == 0)
        #expect(refinement.correction == .zero)
    }
}

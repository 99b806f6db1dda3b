import Foundation
import ParallaxMapping
import ParallaxMath
import Testing

@Suite("Gravity-aligned PnP")
struct PnPTests {
    @Test("recovers yaw and position with pixel noise and 30 % outliers")
    func noisyWithOutliers() throws {
        var rng = SplitMix64(seed: 11)
        // Camera looking along world +x (OpenCV axes: z forward = world x, x right = world -y, y down = world -z).
        let R_wc0 = Matrix3(columns: Vector3(0, -1, 0), Vector3(0, 0, -1), Vector3(1, 0, 0))
        let tilt = SO3.exp(Vector3(0.1, -0.05, 0))  // some roll/pitch, known from gravity
        let R_gc = tilt * R_wc0                      // the tracker's (odometry) rotation
        let yaw = 0.7
        let truth = RigidTransform(rotationMatrix: Matrix3(rowMajor: [cos(yaw), -sin(yaw), 0, sin(yaw), cos(yaw), 0, 0, 0, 1]) * R_gc,
                                   translation: Vector3(1.5, -2, 0.8))
        var c: [PnPCorrespondence] = []
        for i in 0..<120 {
            let pc = Vector3(rng.uniform(-2, 2), rng.uniform(-1.5, 1.5), rng.uniform(2, 6))
            let pw = truth * pc
            var bearing = pc / pc.z + Vector3(rng.gaussian(), rng.gaussian(), 0) * (0.8 / 458)
            if i % 10 < 3 { bearing = Vector3(rng.uniform(-0.6, 0.6), rng.uniform(-0.4, 0.4), 1) }  // outlier
            c.append(PnPCorrespondence(bearing_camera: bearing, point_world: pw))
        }
        let s = try #require(GravityAlignedPnP().solve(c, R_gravity_camera: R_gc))
        let dp = (s.T_world_camera.translation - truth.translation).norm
        let dR = SO3.log(s.T_world_camera.rotationMatrix.transpose * truth.rotationMatrix).norm
        #expect(dp < 0.02, "position error \(dp)")
        // Yaw and sideways position trade off for points 2–6 m away: 0.35° allows for that coupling
        // at 0.8 px noise (the noise-free case below is exact).
        #expect(dR < 0.006, "rotation error \(dR)")
        #expect(s.inliers.count >= 75 && s.inliers.count <= 90)
    }

    /// Views after a blackout: 20 matches to mono-triangulated map points (1.5 cm off at 2–5 m),
    /// and 10 wrong ones. The RANSAC consensus at the loose threshold changes with the sampler's
    /// seed; the pose must not (refined on the consensus alone, as before, six seeds moved the
    /// pose by up to 12 cm on these views; refined robustly over every match, 0.3 mm).
    @Test("the pose does not depend on the RANSAC seed")
    func seedIndependent() throws {
        var worstSpread = 0.0, errors: [Double] = []
        for view in 1...10 {
            var rng = SplitMix64(seed: UInt64(100 + view))
            let R_gc = SO3.exp(Vector3(-1.45, 0.05, 0.2))
            let truth = RigidTransform(rotationMatrix: GravityAlignedPnPTestSupport.rz(0.4) * R_gc, translation: Vector3(0.5, 1, 1.2))
            var c: [PnPCorrespondence] = []
            for i in 0..<30 {
                let pc = Vector3(rng.uniform(-1.5, 1.5), rng.uniform(-1, 1), rng.uniform(2, 5))
                let mapError = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 0.015
                var bearing = pc / pc.z
                if i % 3 == 0 { bearing = Vector3(rng.uniform(-0.6, 0.6), rng.uniform(-0.4, 0.4), 1) }
                c.append(PnPCorrespondence(bearing_camera: bearing, point_world: truth * pc + mapError))
            }
            let solutions = try (1...6).map { seed in
                try #require(GravityAlignedPnP(minimumInliers: 12, seed: UInt64(seed)).solve(c, R_gravity_camera: R_gc))
            }
            let first = solutions[0].T_world_camera.translation
            worstSpread = max(worstSpread, solutions.map { ($0.T_world_camera.translation - first).norm }.max() ?? 0)
            errors.append((first - truth.translation).norm)
        }
        #expect(worstSpread < 1e-3, "positions differ by \(worstSpread) m across seeds")
        #expect(errors.max() ?? 1 < 0.05)  // 0.3–3.4 cm over the ten views
    }

    @Test("noise-free correspondences give the exact pose")
    func exact() throws {
        var rng = SplitMix64(seed: 2)
        let R_gc = SO3.exp(Vector3(-1.5, 0.1, 0.3))
        let truth = RigidTransform(rotationMatrix: GravityAlignedPnPTestSupport.rz(-2.0) * R_gc, translation: Vector3(-3, 4, 1))
        let c = (0..<30).map { _ -> PnPCorrespondence in
            let pc = Vector3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(1, 4))
            return PnPCorrespondence(bearing_camera: pc, point_world: truth * pc)
        }
        let s = try #require(GravityAlignedPnP().solve(c, R_gravity_camera: R_gc))
        #expect((s.T_world_camera.translation - truth.translation).norm < 1e-6)
        #expect(s.inliers.count == 30)
    }

    @Test("random correspondences give no pose")
    func rejectsNoise() {
        var rng = SplitMix64(seed: 5)
        let c = (0..<60).map { _ in
            PnPCorrespondence(bearing_camera: Vector3(rng.uniform(-0.6, 0.6), rng.uniform(-0.4, 0.4), 1),
                              point_world: Vector3(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-1, 2)))
        }
        #expect(GravityAlignedPnP().solve(c, R_gravity_camera: .identity) == nil)
    }
}

enum GravityAlignedPnPTestSupport {
    static func rz(_ a: Double) -> Matrix3 { Matrix3(rowMajor: [cos(a), -sin(a), 0, sin(a), cos(a), 0, 0, 0, 1]) }
}

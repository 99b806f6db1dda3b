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

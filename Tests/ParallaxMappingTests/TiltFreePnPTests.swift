import Foundation
import ParallaxMapping
import ParallaxMath
import Testing

@Suite("PnP with the tilt free under a prior")
struct TiltFreePnPTests {
    /// A camera looking up at a ceiling 2.5 m away (the simulated TUM-VI room walk's case) whose
    /// tracker tilt is 0.55° off the map's: the gravity-aligned PnP, tilt held, puts the camera
    /// about 2.4 cm sideways; freeing the tilt brings it back within millimetres.
    @Test("a wrong tracker tilt no longer shifts the camera")
    func tiltErrorRemoved() throws {
        var rng = SplitMix64(seed: 5)
        // OpenCV camera looking up (world +z), image right along world +x.
        let lookingUp = Matrix3(columns: Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, 1))
        let truth = RigidTransform(rotationMatrix: lookingUp, translation: Vector3(0.3, -0.2, 1.2))
        var c: [PnPCorrespondence] = []
        for _ in 0..<60 {
            // Ceiling points 2.3–2.7 m above the camera (some clutter), ±50° field of view.
            let depth = rng.uniform(2.3, 2.7)
            let pc = Vector3(rng.uniform(-1.1, 1.1) * depth, rng.uniform(-0.7, 0.7) * depth, depth)
            let noisy = pc / pc.z + Vector3(rng.gaussian(), rng.gaussian(), 0) * (0.7 / 460)
            c.append(PnPCorrespondence(bearing_camera: noisy, point_world: truth * pc))
        }
        // The tracker's rotation: 0.55° off about the camera's y axis (a tilt: the axis is horizontal).
        let wrongTilt = SO3.exp(Vector3(0, 0.55 * Double.pi / 180, 0))
        let R_tracker = truth.rotationMatrix * wrongTilt
        let held = try #require(GravityAlignedPnP().solve(c, R_gravity_camera: R_tracker))
        let heldError = (held.T_world_camera.translation - truth.translation).norm
        #expect(heldError > 0.015, "tilt held: \(heldError) m")  // the error this removes (about 2.4 cm)
        let freed = try #require(TiltFreePnP.refine(c, T_world_camera: held.T_world_camera, tiltSigma: 1.0 * Double.pi / 180))
        let freedError = (freed.translation - truth.translation).norm
        let angle = SO3.log(freed.rotationMatrix.transpose * truth.rotationMatrix).norm
        #expect(freedError < 0.004, "tilt free: \(freedError) m (held: \(heldError) m)")
        #expect(angle < 0.1 * Double.pi / 180, "rotation error \(angle * 180 / .pi)°")
    }

    /// Where the points cannot tell a tilt from a shift (few rays, all near the image centre, one
    /// depth), the prior keeps the tracker's tilt: the answer stays near the gravity-aligned one.
    @Test("the prior holds the tilt where the rays cannot tell it from a shift")
    func priorHolds() throws {
        var rng = SplitMix64(seed: 9)
        let R = SO3.exp(Vector3(-1.5, 0.05, 0.3))
        let truth = RigidTransform(rotationMatrix: R, translation: Vector3(1, 2, 1.5))
        let c = (0..<12).map { _ -> PnPCorrespondence in
            let pc = Vector3(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 1) * 4
            return PnPCorrespondence(bearing_camera: pc / pc.z + Vector3(rng.gaussian(), rng.gaussian(), 0) * (1.0 / 460),
                                     point_world: truth * pc)
        }
        let freed = try #require(TiltFreePnP.refine(c, T_world_camera: truth, tiltSigma: 0.5 * Double.pi / 180))
        let up = Vector3(0, 0, 1)
        let cosine = (freed.rotationMatrix.transpose * up).dot(truth.rotationMatrix.transpose * up)
        let tilt = acos(min(1, cosine))
        #expect(tilt < 1.0 * Double.pi / 180, "tilt moved \(tilt * 180 / .pi)° from the tracker's")
    }
}

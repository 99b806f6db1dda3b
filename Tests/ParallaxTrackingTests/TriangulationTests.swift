import ParallaxMath
import Testing
@testable import ParallaxTracking

/// Multi-view triangulation on exact synthetic rays, with an outlier, and without parallax.
@Suite("Feature triangulation")
struct TriangulationTests {
    /// A forward-looking stereo rig (camera z along body x) with an 11 cm baseline.
    static let rig = CameraRig(R_body_cam0: Matrix3(rowMajor: [0, 0, 1, -1, 0, 0, 0, -1, 0]),
                               p_body_cam0: Vector3(0.02, 0.01, -0.03), R_c1_c0: .identity,
                               t_c1_c0: Vector3(-0.11, 0, 0), hasRight: true)
    static let point = Vector3(4, 0.3, -0.2)
    static let poses: [(Matrix3, Vector3)] = (0..<5).map { k in
        (SO3.exp(Vector3(0.01 * Double(k), -0.02, 0.03 * Double(k))), Vector3(0, 0.1 * Double(k), 0.02 * Double(k)))
    }

    /// Exact observations of `point` from `poses` (cam1 too when `stereo`).
    static func observations(stereo: Bool) -> [Observation] {
        poses.enumerated().map { k, pose in
            func project(_ camera: Int) -> Vector2 {
                let (r, c) = rig.cameraPose(camera, bodyRotation: pose.0, bodyPosition: pose.1)
                let p = r.transpose * (point - c)
                return Vector2(p.x / p.z, p.y / p.z)
            }
            return Observation(frame: k + 1, left: project(0), right: stereo ? project(1) : nil)
        }
    }

    @Test("Exact rays give the point, mono and stereo", arguments: [false, true])
    func exact(stereo: Bool) throws {
        let x = try #require(Triangulation.triangulate(Self.observations(stereo: stereo), poses: Self.poses, rig: Self.rig))
        #expect((x - Self.point).norm < 1e-8)
    }

    @Test("One slipped observation is dropped by the robust triangulation")
    func outlierRemoved() throws {
        var obs = Self.observations(stereo: false)
        obs[2].left += Vector2(0.03, -0.02)   // ~15 px at EuRoC's focal length
        var poses = Self.poses
        let x = try #require(Triangulation.triangulateRobust(&obs, poses: &poses, rig: Self.rig, maxErrorNormalized: 0.01,
                                                             outlierNormalized: 0.005))
        #expect(obs.count == 4 && !obs.contains { $0.frame == 3 })
        #expect((x - Self.point).norm < 1e-8)
    }

    @Test("No parallax and no stereo: nothing to triangulate")
    func noParallax() {
        let still = [(Matrix3, Vector3)](repeating: Self.poses[0], count: 3)
        let obs = (1...3).map { Observation(frame: $0, left: Self.observations(stereo: false)[0].left, right: nil) }
        #expect(Triangulation.triangulate(obs, poses: still, rig: Self.rig) == nil)
    }

    @Test("Point covariance of a stereo pair: depth sigma sqrt(2) Z^2 sigma / b")
    func stereoPointCovariance() throws {
        // cam0 = body; cam1 11 cm to its right; a point 3 m straight ahead of cam0.
        let rig = CameraRig(R_body_cam0: .identity, p_body_cam0: .zero, R_c1_c0: .identity,
                            t_c1_c0: Vector3(-0.11, 0, 0), hasRight: true)
        let depth = 3.0, baseline = 0.11, sigma = 0.5 / 458
        let obs = [Observation(frame: 1, left: Vector2(0, 0), right: Vector2(-baseline / depth, 0))]
        let c = try #require(Triangulation.pointCovariance(Vector3(0, 0, depth), obs, poses: [(.identity, .zero)], rig: rig,
                                                           sigmaNormalized: sigma))
        // Two rays: u0 = X/Z, u1 = (X − b)/Z, v = Y/Z twice; the information's inverse in closed form.
        #expect(abs(c[2, 2].squareRoot() / (2.0.squareRoot() * depth * depth * sigma / baseline) - 1) < 1e-9)
        #expect(abs(c[1, 1].squareRoot() / (depth * sigma / 2.0.squareRoot()) - 1) < 1e-9)
        // One ray alone fixes no depth.
        #expect(Triangulation.pointCovariance(Vector3(0, 0, depth), [Observation(frame: 1, left: .zero, right: nil)],
                                              poses: [(.identity, .zero)], rig: rig, sigmaNormalized: sigma) == nil)
    }
}

import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The feature Jacobian with respect to each camera's extrinsics (and the clones) against central
/// differences of the residual: the analytic columns must predict how the residual moves when the
/// state is perturbed through ``FilterState/inject(_:)``.
@Suite("Feature Jacobian: extrinsics and clones against finite differences")
struct ExtrinsicJacobianTests {
    /// A stereo rig looking along body x, with cam1 11 cm to the side and slightly turned.
    static let rig = CameraRig(R_body_cam0: Matrix3(rowMajor: [0, 0, 1, -1, 0, 0, 0, -1, 0]) * SO3.exp(Vector3(0.01, -0.02, 0.005)),
                               p_body_cam0: Vector3(0.02, 0.01, -0.03), R_c1_c0: SO3.exp(Vector3(0.003, 0.004, -0.002)),
                               t_c1_c0: Vector3(-0.11, 0.001, 0.002), hasRight: true)

    /// A state with both cameras' extrinsics estimated and three clones looking at `point`.
    static func setup() -> (FilterState, [Observation], Vector3) {
        let nav = NavigationState(timestamp: 1, T_world_body: RigidTransform(rotationMatrix: SO3.exp(Vector3(0.05, -0.03, 0.4)),
                                                                             translation: Vector3(0.3, -0.2, 1.1)))
        let prior = TrackerConfiguration.InitialUncertainty(tilt: 0.1, yaw: 0.1, position: 0.1, velocity: 0.1,
                                                            gyroBias: 0.1, accelBias: 0.1)
        var s = FilterState(navigation: nav, uncertainty: prior, rig: rig, extrinsicSigmas: (0.01, 0.01))
        for k in 0..<3 {
            s.position += Vector3(0.05, 0.08 * Double(k), -0.02)
            s.rotation = s.rotation * SO3.exp(Vector3(0.02, -0.03, 0.05))
            StateHelper.augmentClone(&s, frame: k + 1)
        }
        let point = s.position + s.rotation * Vector3(2.5, 0.4, -0.3)
        // Observations slightly off the exact projections, so residuals are not all zero.
        let obs = s.clones.enumerated().map { k, c -> Observation in
            func project(_ cam: Int) -> Vector2 {
                let (r, p) = rig.cameraPose(cam, bodyRotation: c.rotation, bodyPosition: c.position)
                let x = r.transpose * (point - p)
                return Vector2(x.x / x.z + 0.001 * Double(k), x.y / x.z - 0.0007)
            }
            return Observation(frame: c.frame, left: project(0), right: project(1))
        }
        return (s, obs, point)
    }

    @Test("each analytic column matches the central difference of the residual")
    func columnsMatchFiniteDifferences() throws {
        let (s, obs, x) = Self.setup()
        #expect(s.calibratedCameras == 2 && s.clonesStart == FilterState.calibrationStart + 12)
        var cloneIndex: [Int: Int] = [:]
        for (k, c) in s.clones.enumerated() { cloneIndex[c.frame] = k }
        let f = try #require(UpdaterHelper.linearize(obs, point: x, cloneIndex: cloneIndex, state: s))
        #expect(f.involved == [0, 1, 2, 3, 4] && f.columns == 30 && f.rows == 12)
        let eps = 1e-6
        var worst = 0.0
        for column in 0..<f.columns {
            let stateColumn = FilterState.calibrationStart + column
            func residual(_ sign: Double) throws -> [Double] {
                var p = s
                var dx = [Double](repeating: 0, count: s.dimension)
                dx[stateColumn] = sign * eps
                p.inject(dx)
                // Keep the first estimates where the analytic Jacobian takes them.
                for k in 0..<p.clones.count {
                    p.clones[k].rotationFE = s.clones[k].rotationFE
                    p.clones[k].positionFE = s.clones[k].positionFE
                }
                return try #require(UpdaterHelper.linearize(obs, point: x, cloneIndex: cloneIndex, state: p)).residual
            }
            let plus = try residual(1), minus = try residual(-1)
            for row in 0..<f.rows {
                // r = z − h(x) ⇒ ∂r/∂δ = −H.
                let numeric = -(plus[row] - minus[row]) / (2 * eps)
                worst = max(worst, abs(numeric - f.hx[row * f.columns + column]))
            }
        }
        #expect(worst < 1e-6, "largest Jacobian difference \(worst)")
    }
}

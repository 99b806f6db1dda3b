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
        #expect(s.calibratedCameras == 2 && s.clonesStart == s.calibrationStart + 12)
        var cloneIndex: [Int: Int] = [:]
        for (k, c) in s.clones.enumerated() { cloneIndex[c.frame] = k }
        let f = try #require(UpdaterHelper.linearize(obs, point: x, cloneIndex: cloneIndex, state: s))
        #expect(f.involved == [0, 1, 2, 3, 4] && f.columns == 31 && f.rows == 12)
        let eps = 1e-6
        var worst = 0.0
        for column in 0..<f.columns {
            let stateColumn = s.updateStart + column
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

    /// The readout column (Li, Kim & Mourikis 2013): rows read a fraction ρ of the readout after
    /// the clone, by a rig turning and moving. Observations are exact projections at the row times
    /// for the state's readout, turned back to the middle row as the tracker does; perturbing the
    /// readout re-turns them (``Observation/withReadout(_:)``) and moves the row's camera along the
    /// clone's velocity, and the residual must change as the column says.
    @Test("the readout column matches the central difference of the residual")
    func readoutColumnMatchesFiniteDifferences() throws {
        var (s, _, x) = Self.setup()
        s = FilterState(navigation: s.navigation, uncertainty: TrackerConfiguration.InitialUncertainty(
            tilt: 0.1, yaw: 0.1, position: 0.1, velocity: 0.1, gyroBias: 0.1, accelBias: 0.1),
            readout: 0.02, readoutSigma: 0.005, rig: Self.rig)
        s.velocity = Vector3(0.8, -0.3, 0.2)
        for k in 0..<3 {
            s.position += Vector3(0.05, 0.08 * Double(k), -0.02)
            s.rotation = s.rotation * SO3.exp(Vector3(0.02, -0.03, 0.05))
            StateHelper.augmentClone(&s, frame: k + 1)
        }
        let rates = [Vector3(0.9, -1.4, 0.6), Vector3(-0.5, 0.8, 1.9), Vector3(1.2, 0.3, -0.7)]
        let fractions = [(0.31, 0.28), (-0.42, -0.40), (0.12, 0.15)]
        let obs = s.clones.enumerated().map { k, c -> Observation in
            let (w0, w1) = (rates[k], Self.rig.R_c1_c0 * rates[k])
            func observe(_ cam: Int, fraction: Double, rate: Vector3) -> Vector2 {
                // The camera at the row time: moved along the velocity, turned by the rate.
                let (r, p) = Self.rig.cameraPose(cam, bodyRotation: c.rotation, bodyPosition: c.position + c.velocity * (fraction * s.readout))
                let xMid = r.transpose * (x - p)
                // Seen at the row time, then turned back to the middle row: the two cancel.
                let raw = SO3.exp(rate * (-fraction * s.readout)) * xMid
                let back = SO3.exp(rate * (fraction * s.readout)) * raw
                return Vector2(back.x / back.z, back.y / back.z)
            }
            var o = Observation(frame: c.frame, left: observe(0, fraction: fractions[k].0, rate: w0),
                                right: observe(1, fraction: fractions[k].1, rate: w1))
            o.leftRowFraction = fractions[k].0
            o.rightRowFraction = fractions[k].1
            o.leftRate = w0
            o.rightRate = w1
            o.readoutApplied = s.readout
            return o
        }
        var cloneIndex: [Int: Int] = [:]
        for (k, c) in s.clones.enumerated() { cloneIndex[c.frame] = k }
        let f = try #require(UpdaterHelper.linearize(obs, point: x, cloneIndex: cloneIndex, state: s))
        #expect(f.residual.allSatisfy { abs($0) < 1e-12 })
        let eps = 1e-6
        func residual(_ sign: Double) throws -> [Double] {
            var p = s
            var dx = [Double](repeating: 0, count: s.dimension)
            dx[s.readoutColumn] = sign * eps
            p.inject(dx)
            return try #require(UpdaterHelper.linearize(obs.map { $0.withReadout(p.readout) }, point: x,
                                                        cloneIndex: cloneIndex, state: p)).residual
        }
        let plus = try residual(1), minus = try residual(-1)
        var worst = 0.0, largest = 0.0
        for row in 0..<f.rows {
            let numeric = -(plus[row] - minus[row]) / (2 * eps)
            worst = max(worst, abs(numeric - f.hx[row * f.columns]))
            largest = max(largest, abs(numeric))
        }
        #expect(largest > 0.05, "the readout must move the residual (largest \(largest))")
        #expect(worst < 1e-6, "largest readout-column difference \(worst)")
    }
}

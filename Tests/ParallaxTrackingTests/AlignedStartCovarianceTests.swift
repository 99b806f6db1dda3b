import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The joint covariance a start from the visual–inertial alignment takes: the alignment's answer
/// covariance, and its map into the filter's error state (left, world-frame rotation error).
struct AlignedStartCovarianceTests {
    /// A gravity-aligned state (R ĝ = −‖g‖ e_z) with a velocity, as a start from the alignment makes.
    static func alignedState(gravityInBody g: Vector3, velocityInBody v: Vector3) -> FilterState {
        let rotation = StaticInitializer.gravityAlignedRotation(upInBody: -g.normalized)
        var nav = NavigationState(timestamp: 1, T_world_body: RigidTransform(rotationMatrix: rotation, translation: .zero))
        nav.velocity = rotation * v
        let prior = TrackerConfiguration.InitialUncertainty(tilt: 0.02, yaw: 1e-3, position: 1e-3, velocity: 0.1,
                                                            gyroBias: 0.02, accelBias: 0.2)
        return FilterState(navigation: nav, uncertainty: prior)
    }

    /// First-order check against the error convention R = Exp(δθ) R̂, v_w = v̂_w + δv_w: a true
    /// tilt δθ and body velocity error δv make the alignment's gravity and velocity in the body
    /// frame err by δg = R_trueᵀ(−‖g‖ e_z) − ĝ and δv; the covariance of that single error
    /// (rank one) must come out as the outer product of (δθ, δv_w, δb_a).
    @Test func aGravityAndVelocityErrorMapToTheFiltersTiltAndWorldVelocity() throws {
        let g = Vector3(0.8, -1.1, -9.7).normalized * 9.81
        let v = Vector3(0.4, 0.9, -0.2)
        var s = Self.alignedState(gravityInBody: g, velocityInBody: v)
        let rHat = s.rotation
        let dTheta = Vector3(2e-4, -3e-4, 0)
        let dvBody = Vector3(1e-4, -2e-4, 3e-4)
        let dba = Vector3(5e-4, 0, -1e-4)
        let rTrue = SO3.exp(dTheta) * rHat
        let dg = rTrue.transpose * Vector3(0, 0, -g.norm) - g
        let dvWorld = rTrue * (v + dvBody) - rHat * v
        let e = [dg.x, dg.y, dg.z, dvBody.x, dvBody.y, dvBody.z, dba.x, dba.y, dba.z]
        var answer = Matrix(rows: 9, cols: 9)
        for i in 0..<9 { for j in 0..<9 { answer[i, j] = e[i] * e[j] } }
        let zero = TrackerConfiguration.InitialUncertainty(tilt: 0, yaw: 0, position: 0, velocity: 0, gyroBias: 0, accelBias: 0)
        let yawBefore = s.cov(2, 2)
        StateHelper.setAlignedStartCovariance(&s, answer: answer, gravityInBody: g, floor: zero)
        let expected = [dTheta.x, dTheta.y, 0, dvWorld.x, dvWorld.y, dvWorld.z, dba.x, dba.y, dba.z]
        let columns = [0, 1, 2, 6, 7, 8, 12, 13, 14]
        for (i, a) in columns.enumerated() where a != 2 {
            for (j, b) in columns.enumerated() where b != 2 {
                // Second-order terms of a 3e-4 rad error: about 1e-7 of each product's scale.
                let product = expected[i] * expected[j]
                #expect(abs(s.cov(a, b) - product) <= 2e-3 * 4e-7 + 1e-3 * abs(product),
                        "entry (\(a), \(b)): \(s.cov(a, b)) against \(product)")
            }
        }
        // The yaw keeps its prior and stays uncorrelated; the position block is untouched.
        #expect(s.cov(2, 2) == yawBefore)
        #expect(columns.allSatisfy { $0 == 2 || s.cov(2, $0) == 0 })
        #expect(abs(s.cov(3, 3) - 1e-6) < 1e-18)
    }

    /// The floor lands on the diagonal only.
    @Test func theFloorIsAddedOnTheDiagonal() {
        let g = Vector3(0, 0, -9.81)
        var s = Self.alignedState(gravityInBody: g, velocityInBody: Vector3(0.5, 0, 0))
        let floor = TrackerConfiguration.InitialUncertainty(tilt: 0.005, yaw: 0, position: 0, velocity: 0.02,
                                                            gyroBias: 0, accelBias: 0.03)
        StateHelper.setAlignedStartCovariance(&s, answer: Matrix(rows: 9, cols: 9), gravityInBody: g, floor: floor)
        #expect(abs(s.cov(0, 0) - 0.005 * 0.005) < 1e-15 && abs(s.cov(1, 1) - 0.005 * 0.005) < 1e-15)
        #expect(abs(s.cov(7, 7) - 0.02 * 0.02) < 1e-15 && abs(s.cov(14, 14) - 0.03 * 0.03) < 1e-15)
        #expect(s.cov(0, 7) == 0 && s.cov(6, 12) == 0)
    }

    /// The answer's covariance holds ‖g₀‖ fixed (no variance along gravity), is symmetric, and
    /// carries the velocity to the newest frame: with an information matrix that pins v₀ and b_a
    /// and a known t, the newest velocity's variance includes t² times the gravity's.
    @Test func theAnswerCovarianceHoldsTheGravityMagnitude() throws {
        var alignment = VisualInertialAlignment(rig: .identity)
        alignment.covarianceBiasSigma = 0.2
        var h = Matrix(rows: 9, cols: 9)
        // Rays (angle σ 1) that know v₀ well, g₀ loosely and b_a barely, with a v₀–g₀ correlation.
        let diagonal = [4e4, 4e4, 4e4, 1e2, 1e2, 1e2, 1, 1, 1]
        for i in 0..<9 { h[i, i] = diagonal[i] }
        h[0, 3] = 50; h[3, 0] = 50
        let g0 = Vector3(0.3, -0.2, -9.8).normalized * 9.81
        let t = 0.5
        let c = try #require(alignment.answerCovariance(information: h, raySigma: 0.01, gravity: g0,
                                                        last: (Matrix3.identity, t, Matrix3.identity * t)))
        let u = g0.normalized
        var alongGravity = 0.0
        for p in 0..<3 { for q in 0..<3 { alongGravity += u[p] * c[p, q] * u[q] } }
        #expect(abs(alongGravity) < 1e-12)
        #expect(c.isSymmetric(tolerance: 1e-12))
        // A tilt σ: perpendicular gravity variance (0.01² / 100 per axis before the ‖g‖ condition).
        #expect(c[0, 0] + c[1, 1] + c[2, 2] > 1e-6)
        // The newest velocity carries the gravity's error over t: larger than v₀'s own.
        #expect(c[3, 3] > 0.01 * 0.01 / 4e4)
    }
}

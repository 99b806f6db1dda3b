import ParallaxMath

/// IMU preintegration on the manifold between two keyframes i and j.
///
/// Follows Forster, Carlone, Dellaert, Scaramuzza, "On-Manifold Preintegration for Real-Time
/// Visual-Inertial Odometry", IEEE TRO 2017:
/// - deltas ΔR, Δv, Δp: eq. (33), integrated sample by sample with the biases held at the
///   linearisation point `biasGyro`, `biasAccel`;
/// - noise propagation of η = [δφ, δv, δp]: eq. (62)–(63), block form A Σ Aᵀ + B Σ_g Bᵀ + C Σ_a Cᵀ;
/// - bias Jacobians ∂ΔR/∂b_g, ∂Δv/∂b_g, ∂Δv/∂b_a, ∂Δp/∂b_g, ∂Δp/∂b_a: Appendix B, eq. (69)–(70),
///   used for the first-order bias correction of eq. (44).
///
/// Measurements are in the body (IMU) frame `B`; the world is z-up with gravity (0, 0, -9.81)
/// (`conventions.md`). Each `integrate` call takes one interval's mean rate and acceleration;
/// callers get them from ``IMUSegment/split(_:from:to:maxGap:)``, which treats the signal as
/// linear between readings (a held reading would lag the signal by half a sample period).
public struct Preintegration: Sendable {
    /// Gyroscope bias the deltas were integrated with (rad/s).
    public let biasGyro: Vector3
    /// Accelerometer bias the deltas were integrated with (m/s²).
    public let biasAccel: Vector3
    /// Noise densities used for the covariance.
    public let noise: IMUNoise

    /// Total integrated time Δt_ij (s).
    public private(set) var deltaTime: Double = 0
    /// ΔR_ij: rotation of body j in body i.
    public private(set) var deltaRotation: Matrix3 = .identity
    /// Δv_ij (m/s), in body i, without gravity.
    public private(set) var deltaVelocity: Vector3 = .zero
    /// Δp_ij (m), in body i, without gravity.
    public private(set) var deltaPosition: Vector3 = .zero

    /// ∂ΔR/∂b_g.
    public private(set) var dR_dbg: Matrix3 = .zero
    /// ∂Δv/∂b_g.
    public private(set) var dV_dbg: Matrix3 = .zero
    /// ∂Δv/∂b_a.
    public private(set) var dV_dba: Matrix3 = .zero
    /// ∂Δp/∂b_g.
    public private(set) var dP_dbg: Matrix3 = .zero
    /// ∂Δp/∂b_a.
    public private(set) var dP_dba: Matrix3 = .zero

    /// Covariance of [δφ, δv, δp] (9×9 as 3×3 blocks).
    var covarianceBlocks = BlockMatrix(zero: 3)
    /// Whether the covariance and the bias Jacobians are propagated; without them only the deltas
    /// are (a quarter of the cost, for callers that need the motion alone).
    public let tracksUncertainty: Bool
    /// Whether the noise covariance is propagated when ``tracksUncertainty`` is on. The start's
    /// solvers (the alignment, the images' gyro bias and time shift, a stereo start's gravity)
    /// read the deltas and their bias Jacobians only; the covariance's two 9×9 products were most
    /// of their preintegration's cost, repeated for every pair at every iteration.
    public let tracksCovariance: Bool

    /// Starts an empty preintegration with the given bias estimates; `tracksUncertainty` false
    /// keeps the covariance and the bias Jacobians at zero, `tracksCovariance` false the
    /// covariance alone.
    public init(biasGyro: Vector3, biasAccel: Vector3, noise: IMUNoise, tracksUncertainty: Bool = true,
                tracksCovariance: Bool = true) {
        self.biasGyro = biasGyro
        self.biasAccel = biasAccel
        self.noise = noise
        self.tracksUncertainty = tracksUncertainty
        self.tracksCovariance = tracksUncertainty && tracksCovariance
    }

    /// Covariance element (row, column) of [δφ, δv, δp], 0-based, 9×9 (zero when not tracked).
    public func covariance(_ row: Int, _ column: Int) -> Double { covarianceBlocks.element(row, column) }

    /// Integrates one interval of `dt` seconds with constant rate and acceleration.
    /// - Parameters:
    ///   - gyro: measured angular velocity ω̃ over the interval (rad/s, body frame), ideally its mean.
    ///   - accel: measured specific force ã over the interval (m/s², body frame), ideally its mean.
    ///   - dt: the interval; non-positive or non-finite intervals are ignored.
    public mutating func integrate(gyro: Vector3, accel: Vector3, dt: Double) {
        guard dt > 0, dt.isFinite, gyro.isFinite, accel.isFinite else { return }
        let w = gyro - biasGyro
        let a = accel - biasAccel
        let phi = w * dt
        let dR = SO3.exp(phi)
        // The specific force turns with the body during the interval (``SO3/rotationIntegrals(_:)``);
        // Forster's eq. (33) holds it at the interval's start, an error of |a||ω|Δt/2 in fast turns.
        let (j1, j2) = SO3.rotationIntegrals(phi)
        let jr = j1.transpose  // Jr(φ) = Jl(−φ) = Jl(φ)ᵀ
        let dt2 = dt * dt
        let rj1 = deltaRotation * j1, rj2 = deltaRotation * j2
        // Mean: eq. (33) with the closed-form turn of the specific force (after the uncertainty,
        // which uses the deltas before this step).
        defer {
            deltaPosition += deltaVelocity * dt + (rj2 * a) * dt2
            deltaVelocity += (rj1 * a) * dt
            deltaRotation = SO3.orthonormalize(deltaRotation * dR)
            deltaTime += dt
        }
        guard tracksUncertainty else { return }
        let aHat = Matrix3.skew(a)

        // Noise propagation, eq. (62): uses ΔR before this step.
        if tracksCovariance {
            var A = BlockMatrix(identity: 3)
            A[0, 0] = dR.transpose
            A[1, 0] = -(deltaRotation * aHat) * dt
            A[2, 0] = -(deltaRotation * aHat) * (0.5 * dt2)
            A[2, 1] = Matrix3.identity * dt
            var cov = A * covarianceBlocks * A.transpose
            cov.addNoise(column: [jr * dt, .zero, .zero], variance: noise.discreteGyroVariance(dt: dt))
            cov.addNoise(column: [.zero, deltaRotation * dt, deltaRotation * (0.5 * dt2)],
                         variance: noise.discreteAccelVariance(dt: dt))
            covarianceBlocks = cov
        }

        // Bias Jacobians, Appendix B: position first, then velocity, then rotation (old values used).
        dP_dba = dP_dba + dV_dba * dt - rj2 * dt2
        let (dJ1a, dJ2a) = SO3.rotationIntegralDerivatives(phi, applied: a)  // the turn φ = (ω̃ − b_g)Δt
        dP_dbg = dP_dbg + dV_dbg * dt - (deltaRotation * aHat * dR_dbg) * (0.5 * dt2) - (deltaRotation * dJ2a) * (dt2 * dt)
        dV_dba = dV_dba - rj1 * dt
        dV_dbg = dV_dbg - (deltaRotation * aHat * dR_dbg) * dt - (deltaRotation * dJ1a) * dt2
        dR_dbg = dR.transpose * dR_dbg - jr * dt
    }

    /// ΔR corrected to first order for new bias estimates, eq. (44).
    public func correctedRotation(biasGyro bg: Vector3) -> Matrix3 {
        deltaRotation * SO3.exp(dR_dbg * (bg - biasGyro))
    }

    /// Δv corrected to first order for new bias estimates, eq. (44).
    public func correctedVelocity(biasGyro bg: Vector3, biasAccel ba: Vector3) -> Vector3 {
        deltaVelocity + dV_dbg * (bg - biasGyro) + dV_dba * (ba - biasAccel)
    }

    /// Δp corrected to first order for new bias estimates, eq. (44).
    public func correctedPosition(biasGyro bg: Vector3, biasAccel ba: Vector3) -> Vector3 {
        deltaPosition + dP_dbg * (bg - biasGyro) + dP_dba * (ba - biasAccel)
    }

    /// Predicts the state at j from the state at i, eq. (38), with bias-corrected deltas.
    /// - Parameters:
    ///   - start: body pose, velocity and biases at i (biases are used for the correction).
    ///   - gravity: gravity in the world frame, default (0, 0, -9.81).
    public func predict(from start: NavigationState, gravity: Vector3 = NavigationState.standardGravity) -> NavigationState {
        let r_i = start.T_world_body.rotationMatrix
        let t = deltaTime
        let rj = SO3.orthonormalize(r_i * correctedRotation(biasGyro: start.biasGyro))
        let vj = start.velocity + gravity * t + r_i * correctedVelocity(biasGyro: start.biasGyro, biasAccel: start.biasAccel)
        let pj = start.T_world_body.translation + start.velocity * t + gravity * (0.5 * t * t)
            + r_i * correctedPosition(biasGyro: start.biasGyro, biasAccel: start.biasAccel)
        return NavigationState(
            timestamp: start.timestamp + t,
            T_world_body: RigidTransform(rotationMatrix: rj, translation: pj),
            velocity: vj, biasGyro: start.biasGyro, biasAccel: start.biasAccel)
    }
}

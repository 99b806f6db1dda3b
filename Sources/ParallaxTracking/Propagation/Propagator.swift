import ParallaxMath

/// IMU propagation of the mean and covariance between two frames.
///
/// Mean: stretch by stretch in the world frame, each stretch between readings integrated in closed
/// form with the mean of the linearly interpolated signal held constant over it (the body turns at
/// a constant rate while the specific force turns with it, ``SO3/rotationIntegrals(_:)``). Covariance: per-sample discrete transition of the
/// world-frame error state (Li & Mourikis IJRR 2013, eq. 10–12; Trawny & Roumeliotis 2005 for the
/// noise), composed over the interval. First-estimate Jacobians: the θ-columns of the composed
/// transition are rebuilt from first estimates, Φ_vθ = −[v̂ₖ₊₁|ₖ − v̂ₖ|ₖ₋₁ − gΔt]×,
/// Φ_pθ = −[p̂ₖ₊₁|ₖ − p̂ₖ|ₖ₋₁ − v̂ₖ|ₖ₋₁Δt − ½gΔt²]× (Li & Mourikis 2013, eq. 35–36), which keeps
/// the yaw and position directions unobservable in the linearised filter.
struct Propagator {
    let noise: IMUNoise
    let gravity = NavigationState.standardGravity
    /// How gaps in the IMU stream are recognised and how uncertain the motion during one is.
    var gap = TrackerConfiguration.IMUGapModel()

    /// The propagated mean and the composed error-state transition and noise over one interval.
    struct Prediction {
        var rotation: Matrix3
        var position: Vector3
        var velocity: Vector3
        /// Φ(t, t₀) over the 9×9 blocks θ, p, v, b_g, b_a, s_g, m_g, s_a, m_a, with FEJ θ-columns.
        var phi: BlockMatrix
        /// Accumulated discrete noise Q over the same blocks.
        var q: BlockMatrix
    }

    /// Propagates `state` to time `t` with the samples in `samples` (time-ordered; the signal is
    /// taken as linear between readings, see ``IMUSegment/split(_:from:to:maxGap:)``). Samples
    /// older than the state's time are clipped. The covariance goes through ``StateHelper``.
    func propagate(_ state: inout FilterState, to t: Double, samples: ArraySlice<IMUMeasurement>) {
        guard let prediction = predict(state, to: t, samples: samples) else { return }
        StateHelper.propagate(&state, phi: prediction.phi, q: prediction.q)
        state.rotation = prediction.rotation
        state.position = prediction.position
        state.velocity = prediction.velocity
        state.timestamp = t
        state.positionFE = prediction.position
        state.velocityFE = prediction.velocity
    }

    /// The mean, Φ and Q from the state's time to `t`; nil when `t` is not after the state's time.
    func predict(_ state: FilterState, to t: Double, samples: ArraySlice<IMUMeasurement>) -> Prediction? {
        let t0 = state.timestamp
        guard t > t0 else { return nil }
        let blocks = state.imuBlocks, estimatesIntrinsics = state.estimatesIMUIntrinsics
        var phi = BlockMatrix(identity: blocks)
        var q = BlockMatrix(zero: blocks)
        var r = state.rotation, p = state.position, v = state.velocity
        let bg = state.biasGyro, ba = state.biasAccel
        let tg = state.imuIntrinsics.gyroCorrection, ta = state.imuIntrinsics.accelCorrection
        let dwdb = tg * -1, dadb = ta * -1

        // Stretches between readings, each with the mean of the linearly interpolated signal.
        for segment in IMUSegment.split(samples, from: t0, to: t, maxGap: gap.maxInterval) {
            let dt = segment.duration
            var gyro = segment.gyro, accel = segment.accel
            // An IMU gap: hold the mean of the last samples (less vibration than one sample) and
            // inflate the noise, since the motion during the gap is unknown.
            let isGap = segment.isGap
            if isGap {
                let k = segment.sampleIndex
                let lo = max(samples.startIndex, k - 9)
                var g = Vector3.zero, acc = Vector3.zero
                for i in lo...k { g += samples[i].gyro; acc += samples[i].accel }
                gyro = g / Double(k - lo + 1)
                accel = acc / Double(k - lo + 1)
            }
            // ω = T_g (ω̃ − b_g), a = T_a (ã − b_a) (``IMUIntrinsics``): how each moves with its
            // bias, its three scale errors and its three misalignments.
            let u = gyro - bg, ua = accel - ba
            let w = tg * u, a = ta * ua
            let dR = SO3.exp(w * dt)
            let rNext = r * dR
            // The specific force turns with the body during the stretch: its velocity and position
            // increments are r·J₁·a·Δt and r·J₂·a·Δt² (``SO3/rotationIntegrals(_:)``). Holding it at
            // the start's rotation instead (r·a·Δt) errs by |a||ω|Δt/2 along ω × a: 0.09 m/s² at
            // 200 °/s and 200 Hz, a systematic push that the filter then reads as tilt and bias.
            let (j1, j2) = SO3.rotationIntegrals(w * dt)
            let jr = j1.transpose  // Jr(φ) = Jl(−φ) = Jl(φ)ᵀ
            let dv = r * (j1 * a) * dt, dp = r * (j2 * a) * (dt * dt)
            // Discrete error transition of this sample.
            var f = BlockMatrix(identity: blocks)
            f[1, 0] = Matrix3.skew(dp) * -1
            f[1, 2] = Matrix3.identity * dt
            f[2, 0] = Matrix3.skew(dv) * -1
            // How p and v move with the specific-force error δa = −T_a δb_a + diag(u_a) δs_a + …
            let pByForce = (r * j2) * (dt * dt), vByForce = (r * j1) * dt
            f[1, 4] = pByForce * dadb
            f[2, 4] = vByForce * dadb
            // How θ, p and v move with the rate error δω over the stretch: the turn itself, and
            // the turn of the specific force during it (φ = ω Δt). Each gyroscope state enters
            // through its δω: −T δb_g, diag(u) δs_g, and the misalignment pattern δm_g.
            let (dJ1a, dJ2a) = SO3.rotationIntegralDerivatives(w * dt, applied: a)
            let thetaByRate = (rNext * jr) * dt, pByRate = (r * dJ2a) * (dt * dt * dt), vByRate = (r * dJ1a) * (dt * dt)
            f[0, 3] = thetaByRate * dwdb
            f[1, 3] = pByRate * dwdb
            f[2, 3] = vByRate * dwdb
            if estimatesIntrinsics {
                let dwds = IMUIntrinsics.scaleJacobian(u), dwdm = IMUIntrinsics.misalignmentJacobian(u)
                let dads = IMUIntrinsics.scaleJacobian(ua), dadm = IMUIntrinsics.misalignmentJacobian(ua)
                for (row, g) in [(0, thetaByRate), (1, pByRate), (2, vByRate)] {
                    f[row, 5] = g * dwds
                    f[row, 6] = g * dwdm
                }
                for (row, g) in [(1, pByForce), (2, vByForce)] {
                    f[row, 7] = g * dads
                    f[row, 8] = g * dadm
                }
            }
            // Discrete noise: gyro/accel white noise and bias random walks.
            var qk = BlockMatrix(zero: blocks)
            let gv = noise.discreteGyroVariance(dt: dt) * dt * dt
            let av = noise.discreteAccelVariance(dt: dt) * dt * dt
            qk[0, 0] = Matrix3.identity * gv
            qk[2, 2] = Matrix3.identity * av
            qk[1, 1] = Matrix3.identity * (av * 0.25 * dt * dt)
            qk[1, 2] = Matrix3.identity * (av * 0.5 * dt)
            qk[2, 1] = Matrix3.identity * (av * 0.5 * dt)
            qk[3, 3] = Matrix3.identity * noise.gyroBiasStepVariance(dt: dt)
            qk[4, 4] = Matrix3.identity * noise.accelBiasStepVariance(dt: dt)
            if isGap {
                // Unknown acceleration and rotation rate over the gap (see ``TrackerConfiguration/IMUGapModel``).
                let ga = gap.accelSigma, gg = gap.gyroSigma
                qk[0, 0] = qk[0, 0] + Matrix3.identity * (gg * gg * dt * dt)
                qk[2, 2] = qk[2, 2] + Matrix3.identity * (ga * ga * dt * dt)
                qk[1, 1] = qk[1, 1] + Matrix3.identity * (ga * ga * 0.25 * dt * dt * dt * dt)
            }
            phi = f * phi
            q = f * q * f.transpose + qk
            // Mean.
            p += v * dt + dp + gravity * (0.5 * dt * dt)
            v += dv + gravity * dt
            r = SO3.orthonormalize(rNext)
        }
        let dtTotal = t - t0
        // FEJ θ-columns (see type comment). Blocks: 0 θ, 1 p, 2 v, 3 b_g, 4 b_a, 5 s_g, 6 m_g, 7 s_a, 8 m_a.
        phi[2, 0] = Matrix3.skew(v - state.velocityFE - gravity * dtTotal) * -1
        phi[1, 0] = Matrix3.skew(p - state.positionFE - state.velocityFE * dtTotal - gravity * (0.5 * dtTotal * dtTotal)) * -1

        return Prediction(rotation: r, position: p, velocity: v, phi: phi, q: q)
    }
}

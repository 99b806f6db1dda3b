import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// An analytic motion: rotation R(t) = R0 · Exp(ω t) with constant body rate ω, and position
/// p(t) = p0 + v0 t + ½ a0 t² + ⅙ j t³ in the world. Ideal IMU readings follow from it exactly.
private struct AnalyticMotion {
    let r0 = Quaternion(axis: Vector3(0.3, -0.2, 0.9), angle: 0.7).rotationMatrix
    let omega = Vector3(0.4, -0.3, 0.8)
    let p0 = Vector3(1, 2, 3), v0 = Vector3(0.5, -0.2, 0.1), a0 = Vector3(0.3, 0.2, -0.1), jerk = Vector3(-0.2, 0.1, 0.3)

    func rotation(_ t: Double) -> Matrix3 { r0 * SO3.exp(omega * t) }
    func position(_ t: Double) -> Vector3 { p0 + v0 * t + a0 * (0.5 * t * t) + jerk * (t * t * t / 6) }
    func velocity(_ t: Double) -> Vector3 { v0 + a0 * t + jerk * (0.5 * t * t) }
    func acceleration(_ t: Double) -> Vector3 { a0 + jerk * t }
    /// Specific force in the body frame: Rᵀ (a − g).
    func specificForce(_ t: Double) -> Vector3 {
        rotation(t).transpose * (acceleration(t) - NavigationState.standardGravity)
    }
    func state(_ t: Double) -> NavigationState {
        NavigationState(timestamp: t, T_world_body: RigidTransform(rotationMatrix: rotation(t), translation: position(t)),
                        velocity: velocity(t))
    }
}

@Suite("IMU preintegration")
struct PreintegrationTests {
    /// One second of `motion` at 200 Hz, integrated at fixed small biases.
    private static func oneSecond(of motion: AnalyticMotion, tracksUncertainty: Bool = true,
                                  tracksCovariance: Bool = true) -> Preintegration {
        var pre = Preintegration(biasGyro: Vector3(0.01, 0, -0.02), biasAccel: Vector3(0.1, 0, 0), noise: .euroc,
                                 tracksUncertainty: tracksUncertainty, tracksCovariance: tracksCovariance)
        for k in 0..<200 {
            let t = Double(k) * 0.005
            pre.integrate(gyro: motion.omega, accel: motion.specificForce(t + 0.0025), dt: 0.005)
        }
        return pre
    }

    /// The two integrations' deltas and integrated time are the same numbers.
    private static func expectSameDeltas(_ a: Preintegration, _ b: Preintegration) {
        #expect(a.deltaRotation == b.deltaRotation)
        #expect(a.deltaVelocity == b.deltaVelocity)
        #expect(a.deltaPosition == b.deltaPosition)
        #expect(a.deltaTime == b.deltaTime)
    }

    /// Without the uncertainty (`tracksUncertainty: false`) the deltas are the same numbers, and the
    /// covariance and bias Jacobians stay at zero.
    @Test("the deltas alone equal the full integration's")
    func deltasWithoutUncertainty() {
        let motion = AnalyticMotion()
        let full = Self.oneSecond(of: motion)
        let light = Self.oneSecond(of: motion, tracksUncertainty: false)
        Self.expectSameDeltas(full, light)
        #expect(light.covariance(0, 0) == 0 && light.dR_dbg == .zero)
        #expect(full.covariance(0, 0) > 0)
    }

    /// The start's solvers skip the covariance but read the bias Jacobians: those must be the full
    /// integration's, bit for bit.
    @Test("without the covariance, the deltas and bias Jacobians equal the full integration's")
    func jacobiansWithoutCovariance() {
        let motion = AnalyticMotion()
        let full = Self.oneSecond(of: motion)
        let jacobians = Self.oneSecond(of: motion, tracksCovariance: false)
        Self.expectSameDeltas(full, jacobians)
        #expect(full.dR_dbg == jacobians.dR_dbg && full.dV_dbg == jacobians.dV_dbg && full.dV_dba == jacobians.dV_dba)
        #expect(full.dP_dbg == jacobians.dP_dbg && full.dP_dba == jacobians.dP_dba)
        #expect(full.dR_dbg != .zero)
        #expect(jacobians.covariance(0, 0) == 0 && full.covariance(0, 0) > 0)
    }

    @Test("noise-free integration converges to an analytic motion at first order")
    func reproducesAnalyticMotion() throws {
        let motion = AnalyticMotion()
        func errors(rate: Int) -> (position: Double, velocity: Double, rotation: Double) {
            let dt = 1.0 / Double(rate)
            var pre = Preintegration(biasGyro: .zero, biasAccel: .zero, noise: .euroc)
            for k in 0..<rate {
                pre.integrate(gyro: motion.omega, accel: motion.specificForce(Double(k) * dt), dt: dt)
            }
            let predicted = pre.predict(from: motion.state(0)), truth = motion.state(1)
            return ((predicted.T_world_body.translation - truth.T_world_body.translation).norm,
                    (predicted.velocity - truth.velocity).norm,
                    predicted.T_world_body.rotation.angle(to: truth.T_world_body.rotation))
        }
        let coarse = errors(rate: 1000), fine = errors(rate: 4000)
        // Constant body rate: the rotation is exact whatever the step.
        #expect(coarse.rotation < 1e-9 && fine.rotation < 1e-9)
        // Zero-order hold is first-order accurate: 4× the rate gives ~4× less error.
        #expect(fine.velocity < coarse.velocity / 3.5 && fine.position < coarse.position / 3.5)
        #expect(fine.velocity < 2e-3 && fine.position < 1e-3)
    }

    /// A body turning at a constant 170 °/s with a constant body-frame specific force: each reading
    /// holds over its interval, so the closed-form integration is exact at any rate. The reference
    /// is Simpson quadrature of v(T) = ∫ R(t)·a dt and p(T) = ∫ (T − t)·R(t)·a dt. Holding the
    /// force at each interval's start rotation instead errs by about |a||ω|Δt/2 · T in velocity.
    @Test("a constant turn with a constant body force integrates exactly at 20 Hz")
    func constantTurnIsExact() {
        let omega = Vector3(2.5, -1.2, 0.9), a = Vector3(0.6, 9.5, -1.1)
        let rate = 20, T = 1.0
        var pre = Preintegration(biasGyro: .zero, biasAccel: .zero, noise: .euroc)
        for _ in 0..<rate { pre.integrate(gyro: omega, accel: a, dt: T / Double(rate)) }
        let n = 2000
        var v = Vector3.zero, p = Vector3.zero
        for i in 0...n {
            let t = T * Double(i) / Double(n)
            let w = (i == 0 || i == n ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)) * T / (3.0 * Double(n))
            let force = SO3.exp(omega * t) * a
            v += force * w
            p += force * (w * (T - t))
        }
        #expect((pre.deltaVelocity - v).norm < 1e-6, "Δv off by \((pre.deltaVelocity - v).norm) m/s")
        #expect((pre.deltaPosition - p).norm < 1e-6, "Δp off by \((pre.deltaPosition - p).norm) m")
    }

    @Test("first-order bias correction matches re-integration")
    func biasJacobiansMatchReintegration() {
        let motion = AnalyticMotion()
        let dt = 1.0 / 200
        let bg = Vector3(0.01, -0.02, 0.015), ba = Vector3(0.05, 0.03, -0.04)
        let dbg = Vector3(1e-4, -2e-4, 1.5e-4), dba = Vector3(2e-3, -1e-3, 1e-3)
        var base = Preintegration(biasGyro: bg, biasAccel: ba, noise: .euroc)
        var shifted = Preintegration(biasGyro: bg + dbg, biasAccel: ba + dba, noise: .euroc)
        for k in 0..<200 {
            let t = Double(k) * dt
            let gyro = motion.omega + bg, accel = motion.specificForce(t) + ba
            base.integrate(gyro: gyro, accel: accel, dt: dt)
            shifted.integrate(gyro: gyro, accel: accel, dt: dt)
        }
        let rCorrected = base.correctedRotation(biasGyro: bg + dbg)
        let rotationError = SO3.log(rCorrected.transpose * shifted.deltaRotation).norm
        let rotationChange = SO3.log(base.deltaRotation.transpose * shifted.deltaRotation).norm
        #expect(rotationError < 0.01 * rotationChange)
        let vError = (base.correctedVelocity(biasGyro: bg + dbg, biasAccel: ba + dba) - shifted.deltaVelocity).norm
        let vChange = (base.deltaVelocity - shifted.deltaVelocity).norm
        #expect(vError < 0.01 * vChange)
        let pError = (base.correctedPosition(biasGyro: bg + dbg, biasAccel: ba + dba) - shifted.deltaPosition).norm
        let pChange = (base.deltaPosition - shifted.deltaPosition).norm
        #expect(pError < 0.01 * pChange)
    }

    @Test("propagated covariance agrees with Monte Carlo noise")
    func covarianceMatchesMonteCarlo() {
        let motion = AnalyticMotion()
        let dt = 1.0 / 200, steps = 100, trials = 400
        let noise = IMUNoise.euroc
        var nominal = Preintegration(biasGyro: .zero, biasAccel: .zero, noise: noise)
        for k in 0..<steps {
            nominal.integrate(gyro: motion.omega, accel: motion.specificForce(Double(k) * dt), dt: dt)
        }
        var rng = SplitMix64(seed: 7)
        var sumSq = [Double](repeating: 0, count: 9)
        let sg = noise.discreteGyroVariance(dt: dt).squareRoot(), sa = noise.discreteAccelVariance(dt: dt).squareRoot()
        for _ in 0..<trials {
            var noisy = Preintegration(biasGyro: .zero, biasAccel: .zero, noise: noise)
            for k in 0..<steps {
                let t = Double(k) * dt
                noisy.integrate(gyro: motion.omega + rng.gaussianVector() * sg,
                                accel: motion.specificForce(t) + rng.gaussianVector() * sa, dt: dt)
            }
            let dphi = SO3.log(nominal.deltaRotation.transpose * noisy.deltaRotation)
            let dv = noisy.deltaVelocity - nominal.deltaVelocity
            let dp = noisy.deltaPosition - nominal.deltaPosition
            let e = [dphi.x, dphi.y, dphi.z, dv.x, dv.y, dv.z, dp.x, dp.y, dp.z]
            for i in 0..<9 { sumSq[i] += e[i] * e[i] }
        }
        for i in 0..<9 {
            let empirical = sumSq[i] / Double(trials)
            let predicted = nominal.covariance(i, i)
            // 400 trials: the sample variance has a relative standard deviation of √(2/400) ≈ 7 %.
            #expect(abs(empirical / predicted - 1) < 0.25, "diagonal \(i): empirical \(empirical) vs \(predicted)")
        }
    }
}

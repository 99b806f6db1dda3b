import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The propagator's error-state transition Φ against central differences of its own mean
/// propagation: each column is the response of the propagated state to a small error in one
/// component of the start state (the filter's error definition, R = Exp(δθ) R̂).
@Suite("IMU propagation Jacobian")
struct PropagatorJacobianTests {
    typealias Support = EstimatorTestSupport

    /// 60 ms of smoothly varying readings at 200 Hz around a moving, tilted start state.
    static func samples() -> [IMUMeasurement] {
        stride(from: 0.995, through: 1.06, by: 0.005).map { (t: Double) -> IMUMeasurement in
            let gyro = Vector3(0.4 * sin(7 * t), -0.3 + 0.2 * t, 0.5 * cos(5 * t))
            let accel = Vector3(0.8 * cos(3 * t), 9.6 + 0.3 * sin(4 * t), -0.4 * t)
            return IMUMeasurement(timestamp: t, gyro: gyro, accel: accel)
        }
    }

    @Test("Φ matches numerical differentiation of the mean, IMU intrinsics included")
    func transitionMatchesNumericalJacobian() throws {
        var start = Support.state(clones: 0, seed: 11, imuIntrinsics: true)
        // An IMU with scale and misalignment errors: ω = T_g (ω̃ − b_g), a = T_a (ã − b_a), T ≠ I.
        start.imuIntrinsics = IMUIntrinsics(gyroScale: Vector3(0.012, -0.007, 0.004), gyroMisalignment: Vector3(0.003, -0.005, 0.002),
                                            accelScale: Vector3(-0.006, 0.009, 0.003), accelMisalignment: Vector3(-0.002, 0.004, 0.001))
        let samples = Self.samples()[...]
        let propagator = Propagator(noise: .euroc)
        let t = 1.05
        let base = try #require(propagator.predict(start, to: t, samples: samples))
        func propagated(_ s: FilterState) throws -> FilterState {
            let p = try #require(propagator.predict(s, to: t, samples: samples))
            var out = s
            out.rotation = p.rotation
            out.position = p.position
            out.velocity = p.velocity
            return out
        }
        let nominal = try propagated(start)
        #expect(nominal.rotation == base.rotation && nominal.position == base.position)
        let eps = 1e-6
        var worst = 0.0
        let m = start.imuDimension
        #expect(m == 27)
        for column in 0..<m {
            var plus = start, minus = start
            var dx = [Double](repeating: 0, count: start.dimension)
            dx[column] = eps
            plus.inject(dx)
            dx[column] = -eps
            minus.inject(dx)
            let difference = Support.errorState(from: try propagated(minus), to: try propagated(plus))
            for row in 0..<m {
                let numeric = difference[row] / (2 * eps)
                let analytic = base.phi[row / 3, column / 3][row % 3, column % 3]
                worst = max(worst, abs(numeric - analytic))
            }
        }
        #expect(worst < 1e-6, "largest |Φ − numerical| = \(worst)")
    }

    @Test("Covariance propagation keeps P symmetric and leaves the clone block alone, with and without IMU intrinsics")
    func covariancePropagation() throws {
        for intrinsics in [false, true] {
            let start = Support.state(clones: 2, seed: 12, imuIntrinsics: intrinsics)
            var s = start
            Propagator(noise: .euroc).propagate(&s, to: 1.05, samples: Self.samples()[...])
            let n = s.dimension
            for i in 0..<n { for j in 0..<i { #expect(s.covariance[i * n + j] == s.covariance[j * n + i]) } }
            let m = s.imuDimension
            for i in m..<n { for j in m..<n { #expect(abs(s.covariance[i * n + j] - start.covariance[i * n + j]) < 1e-15) } }
            #expect(s.timestamp == 1.05 && s.positionFE == s.position && s.velocityFE == s.velocity)
            #expect(m == (intrinsics ? 27 : 15))
        }
    }
}

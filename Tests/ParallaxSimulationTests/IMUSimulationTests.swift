import Foundation
import ParallaxMath
import Testing

@testable import ParallaxSimulation

@Suite struct IMUSimulationTests {
    /// Dead-reckons 2 s of IMU samples from the true initial state; returns the final position and
    /// rotation errors against ground truth. Trapezoidal in rotation, velocity and position.
    func integrate(_ samples: ArraySlice<SimulatedIMUSample>, subtractBiases: Bool) -> (Double, Double) {
        let first = samples[samples.startIndex]
        var r = first.state.T_world_body.rotation
        var p = first.state.T_world_body.translation
        var v = first.state.velocityWorld
        for k in samples.startIndex..<(samples.endIndex - 1) {
            let a = samples[k], b = samples[k + 1]
            let dt = b.time - a.time
            let wa = a.gyroscope - (subtractBiases ? a.gyroscopeBias : .zero)
            let wb = b.gyroscope - (subtractBiases ? b.gyroscopeBias : .zero)
            let fa = a.accelerometer - (subtractBiases ? a.accelerometerBias : .zero)
            let fb = b.accelerometer - (subtractBiases ? b.accelerometerBias : .zero)
            let rNext = (r * Quaternion(rotationVector: 0.5 * (wa + wb) * dt)).normalized
            let accA = r.act(fa) + IMUSimulator.gravity
            let accB = rNext.act(fb) + IMUSimulator.gravity
            p += v * dt + (accA / 3 + accB / 6) * dt * dt
            v += 0.5 * (accA + accB) * dt
            r = rNext
        }
        let truth = samples[samples.endIndex - 1].state.T_world_body
        return ((p - truth.translation).norm, r.angle(to: truth.rotation))
    }

    @Test func integratingTheIMUReproducesTheTrajectory() throws {
        let trajectory = try TrajectoryBuilder.preset(.handheld, duration: 8)
        let perfect = try IMUSimulator(noise: .zero, initialGyroscopeBias: .zero, initialAccelerometerBias: .zero)
            .simulate(trajectory: trajectory, seed: 1)
        #expect(perfect.count == 1601)
        let (pe0, re0) = integrate(perfect[600...1000], subtractBiases: false)
        print("IMU integration, no noise, 2 s: position \(pe0 * 1000) mm, rotation \(re0 * 180 / .pi)°")
        #expect(pe0 < 0.0005)
        #expect(re0 < 1e-4)

        let noisy = try IMUSimulator().simulate(trajectory: trajectory, seed: 7)
        var worst = 0.0, sum = 0.0
        for start in stride(from: 0, to: 1200, by: 200) {
            let (pe, re) = integrate(noisy[start...(start + 400)], subtractBiases: true)
            worst = max(worst, pe)
            sum += pe
            #expect(re < 0.002)
        }
        print("IMU integration, ADIS16448 noise, true biases removed, 2 s windows: mean \(sum / 6 * 1000) mm, worst \(worst * 1000) mm")
        #expect(worst < 0.01)
        // Without removing the biases the error is far larger: the biases are really in the data.
        let (pb, _) = integrate(noisy[600...1000], subtractBiases: false)
        #expect(pb > 0.05)
    }

    @Test func atRestTheAccelerometerReadsGravityUp() throws {
        let trajectory = try TrajectoryBuilder.preset(.still, duration: 1)
        let samples = try IMUSimulator(noise: .zero, initialGyroscopeBias: .zero, initialAccelerometerBias: .zero)
            .simulate(trajectory: trajectory, seed: 3)
        let s = samples[100]
        let upInBody = s.state.T_world_body.rotation.inverse.act(Vector3(0, 0, 1))
        #expect((s.accelerometer - 9.81 * upInBody).norm < 1e-12)
        #expect(s.gyroscope.norm < 1e-12)
    }

    @Test func noiseStatisticsFollowTheDiscretisation() throws {
        let trajectory = try TrajectoryBuilder.preset(.still, duration: 50)
        let imu = IMUSimulator(initialGyroscopeBias: .zero, initialAccelerometerBias: .zero)
        let samples = try imu.simulate(trajectory: trajectory, seed: 11)
        let ideal = try IMUSimulator(noise: .zero, initialGyroscopeBias: .zero, initialAccelerometerBias: .zero)
            .simulate(trajectory: trajectory, seed: 11)
        var sg = 0.0, sa = 0.0
        for (s, t) in zip(samples, ideal) {
            let eg = s.gyroscope - s.gyroscopeBias - t.gyroscope
            let ea = s.accelerometer - s.accelerometerBias - t.accelerometer
            sg += eg.squaredNorm; sa += ea.squaredNorm
        }
        let n = Double(samples.count * 3)
        let expectedG = 1.6968e-4 * 200.0.squareRoot(), expectedA = 2.0e-3 * 200.0.squareRoot()
        #expect(abs((sg / n).squareRoot() / expectedG - 1) < 0.02)
        #expect(abs((sa / n).squareRoot() / expectedA - 1) < 0.02)
        // Bias random walk: after 50 s the accelerometer bias moved by ~σ·√50 per axis.
        let drift = samples[samples.count - 1].accelerometerBias - samples[0].accelerometerBias
        #expect(drift.norm > 0.001 && drift.norm < 0.2)
        // Same seed, same samples, bit for bit.
        #expect(try imu.simulate(trajectory: trajectory, seed: 11) == samples)
    }

    /// With a spread, each seed starts from its own biases (drawn on a stream of their own, so the
    /// white noise and the walks stay the seed's); without one, from the fixed defaults.
    @Test func initialBiasesDrawnPerSeed() throws {
        var config = SimulationConfiguration()
        #expect(config.initialBiases.gyroscope == config.initialGyroscopeBias)
        #expect(config.initialBiases.accelerometer == config.initialAccelerometerBias)
        let spread = InitialBiasSpread(gyroscope: 0.05, accelerometer: 0.2)
        config.initialBiasSpread = spread
        let one = config.initialBiases
        config.seed = 2
        let two = config.initialBiases
        #expect(one.gyroscope != two.gyroscope && one.accelerometer != two.accelerometer)
        #expect(spread.draw(seed: 2) == two)
        // Over many seeds the draws have the stated spread per axis.
        var sg = 0.0, sa = 0.0
        for seed in 1...400 {
            let b = spread.draw(seed: UInt64(seed))
            sg += b.gyroscope.squaredNorm
            sa += b.accelerometer.squaredNorm
        }
        #expect(abs((sg / 1200).squareRoot() / 0.05 - 1) < 0.1)
        #expect(abs((sa / 1200).squareRoot() / 0.2 - 1) < 0.1)
        // The first sample carries the drawn biases; the noise is the seed's whatever the biases.
        let trajectory = try TrajectoryBuilder.preset(.still, duration: 1)
        let drawn = try IMUSimulator(initialGyroscopeBias: two.gyroscope, initialAccelerometerBias: two.accelerometer)
            .simulate(trajectory: trajectory, seed: 2)
        let fixed = try IMUSimulator().simulate(trajectory: trajectory, seed: 2)
        #expect(drawn[0].gyroscopeBias == two.gyroscope)
        let shift = drawn[50].gyroscope - fixed[50].gyroscope
        #expect((shift - (two.gyroscope - fixed[0].gyroscopeBias)).norm < 1e-12)
    }

    /// Scale and misalignment errors: each reading is D times the true signal (plus the bias), D
    /// lower triangular around I with the drawn spread; none gives the original readings.
    @Test func scaleAndMisalignmentErrors() throws {
        #expect(IMUIntrinsicErrorSizes.none.draw(seed: 4) == .none)
        let sizes = IMUIntrinsicErrorSizes(scaleFraction: 0.01, misalignmentDegrees: 0.3)
        let errors = sizes.draw(seed: 4)
        #expect(errors == sizes.draw(seed: 4) && errors != sizes.draw(seed: 5))
        for d in [errors.gyroscope, errors.accelerometer] {
            #expect(d[0, 1] == 0 && d[0, 2] == 0 && d[1, 2] == 0)
            #expect(d[1, 0] != 0 && d[2, 0] != 0 && d[2, 1] != 0 && d[0, 0] != 1)
        }
        // Over many seeds: 1 % per scale error, 0.3° per angle.
        var scales = 0.0, angles = 0.0
        for seed in 1...300 {
            let g = sizes.draw(seed: UInt64(seed)).gyroscope
            scales += [g[0, 0], g[1, 1], g[2, 2]].map { ($0 - 1) * ($0 - 1) }.reduce(0, +)
            angles += [g[1, 0], g[2, 0], g[2, 1]].map { $0 * $0 }.reduce(0, +)
        }
        #expect(abs((scales / 900).squareRoot() / 0.01 - 1) < 0.1)
        #expect(abs((angles / 900).squareRoot() / (0.3 * .pi / 180) - 1) < 0.1)

        let trajectory = try TrajectoryBuilder.preset(.handheld, duration: 2)
        let perfect = IMUSimulator(noise: .zero, initialGyroscopeBias: .zero, initialAccelerometerBias: .zero)
        var flawed = perfect
        flawed.intrinsics = errors
        let a = try perfect.simulate(trajectory: trajectory, seed: 1), b = try flawed.simulate(trajectory: trajectory, seed: 1)
        var moved = 0.0
        for k in stride(from: 0, to: a.count, by: 37) {
            #expect((b[k].gyroscope - errors.gyroscope * a[k].gyroscope).norm < 1e-12)
            #expect((b[k].accelerometer - errors.accelerometer * a[k].accelerometer).norm < 1e-12)
            moved = max(moved, (b[k].gyroscope - a[k].gyroscope).norm)
        }
        #expect(moved > 1e-3)
    }
}

import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The start window's gyro bias from bearings alone, on the alignment tests' synthetic motion:
/// 20 Hz bearings to points 2–6 m away and a 1 kHz IMU whose gyro reads `bias` too much.
@Suite("Gyroscope bias from the start window's images")
struct GyroBiasFromImagesTests {
    typealias Motion = VisualInertialAlignmentTests.Motion
    static let bias = Vector3(-0.083, 0.083, 0.053)   // an EuRoC-size turn-on bias, 0.13 rad/s

    static func solve(_ motion: Motion, bearingNoise: Double = 0) -> GyroBiasFromImages.Solution? {
        let (frames, samples) = VisualInertialAlignmentTests.data(motion: motion, duration: 1.0, stereo: false,
                                                                  bearingNoise: bearingNoise)
        let biased = samples.map { IMUMeasurement(timestamp: $0.timestamp, gyro: $0.gyro + bias, accel: $0.accel) }
        return GyroBiasFromImages(rig: VisualInertialAlignmentTests.rig).solve(frames: frames, samples: biased[...], noise: .zero)
    }

    @Test("recovers the bias while the camera turns and moves")
    func turningAndMoving() throws {
        let solution = try #require(Self.solve(Motion()))
        let error = (solution.bias - Self.bias).norm
        print("gyro bias from images, turning and moving: error \(error * 1e3) mrad/s over \(solution.pairs) pairs")
        #expect(error < 1e-4)
    }

    /// A hand turning in place: no baseline at all, the case the alignment refuses.
    @Test("recovers the bias under a pure rotation")
    func pureRotation() throws {
        var motion = Motion()
        motion.v0 = .zero
        motion.a0 = .zero
        motion.amplitude = .zero
        let solution = try #require(Self.solve(motion))
        #expect((solution.bias - Self.bias).norm < 1e-4)
    }

    /// 0.5 px of bearing noise and 5 % wrong matches: the Huber weights keep the answer.
    @Test("bearing noise and wrong matches")
    func noisyWithOutliers() throws {
        var motion = Motion()
        motion.amplitude = Vector3(0.01, 0.01, 0.005)
        let (frames, samples) = VisualInertialAlignmentTests.data(motion: motion, duration: 1.0, stereo: false,
                                                                  bearingNoise: 0.5 / 458)
        // Every twentieth feature's later observations jump by 10 px: a track that slid onto another corner.
        let corrupted = frames.enumerated().map { k, frame in
            VisualInertialAlignment.Frame(time: frame.time, observations: frame.observations.map { o in
                guard o.id % 20 == 0, k > 5 else { return o }
                return (o.id, o.left + Vector2(10.0 / 458, -6.0 / 458), o.right)
            })
        }
        let biased = samples.map { IMUMeasurement(timestamp: $0.timestamp, gyro: $0.gyro + Self.bias, accel: $0.accel) }
        let solution = try #require(GyroBiasFromImages(rig: VisualInertialAlignmentTests.rig)
            .solve(frames: corrupted, samples: biased[...], noise: .zero))
        let error = (solution.bias - Self.bias).norm
        print("gyro bias from images, 0.5 px noise and 5 % outliers: error \(error * 1e3) mrad/s, σ \(solution.sigma * 1e3) mrad/s")
        #expect(error < 2e-3)
        #expect(solution.sigma < 5e-3)
    }

    /// A bias far beyond the coupled solve's first step limit (0.01 rad/s): from zero, 0.24 rad/s
    /// takes more fixed-size steps than the solve has iterations. With the limit growing while the
    /// steps pay off, the coupled solve itself answers, not the free-baseline fallback. (Bearings
    /// carry 0.3 px of noise: on exact ones the solve's comparison with free baselines is 0 against 0.)
    @Test("the coupled solve reaches a bias far from its start")
    func coupledReachesLargeBias() throws {
        let bias = Vector3(0.15, -0.15, 0.12)
        let (frames, samples) = VisualInertialAlignmentTests.data(motion: Motion(), duration: 1.0, stereo: false,
                                                                  bearingNoise: 0.3 / 458)
        let biased = samples.map { IMUMeasurement(timestamp: $0.timestamp, gyro: $0.gyro + bias, accel: $0.accel) }
        var solver = GyroBiasFromImages(rig: VisualInertialAlignmentTests.rig)
        func coupled() -> GyroBiasFromImages.TimeShift? {
            let pairs = solver.makePairs(frames: frames, samples: biased[...], noise: .zero)
            return solver.solveTimeShift(pairs, samples: biased[...], noise: .zero, bias: .zero, maximumShift: 0.001,
                                         shiftPrior: 1e-7, lineDelayPriorSigma: nil, coupled: true)
        }
        let found = try #require(coupled())
        print("coupled solve from zero to a 0.24 rad/s bias: error \((found.bias - bias).norm * 1e3) mrad/s")
        #expect((found.bias - bias).norm < 2e-3)
        solver.coupledBiasReach = 1
        let fixed = coupled()
        print("with the limit fixed: \(fixed.map { "error \(($0.bias - bias).norm * 1e3) mrad/s" } ?? "no answer")")
        #expect(fixed == nil, "with the step limit fixed at 0.01 rad/s the solve runs out of iterations")
    }

    @Test("too short a window gives no answer")
    func tooShort() {
        let (frames, samples) = VisualInertialAlignmentTests.data(motion: Motion(), duration: 0.35, stereo: false)
        #expect(GyroBiasFromImages(rig: VisualInertialAlignmentTests.rig).solve(frames: frames, samples: samples[...], noise: .zero) == nil)
    }
}

import Foundation
import ParallaxDatasets
import ParallaxMath
import Testing
@testable import ParallaxTracking

/// The gravity direction a start in motion takes from the mean specific force
/// (``EstimatorCore/meanSpecificForce(_:gyroBias:)``): the samples are turned into the newest body
/// frame before they are averaged, so a body that turns during the averaging window still gets
/// its current gravity direction.
@Suite("Start gravity from the mean specific force")
struct StartGravityTests {
    /// One second at 200 Hz of a still body turning at `rate` (rad/s, body frame) with a gyro
    /// `bias`: the accelerometer reads only gravity, in each sample's own frame.
    static func turning(rate: Vector3, bias: Vector3 = .zero) -> (samples: [IMUMeasurement], lastUp: Vector3) {
        let r0 = SO3.exp(Vector3(0.2, -0.4, 0.1))
        var samples: [IMUMeasurement] = []
        var up = Vector3.zero
        for k in 0...200 {
            let t = Double(k) / 200
            let r = r0 * SO3.exp(rate * t)           // body in world
            up = r.transpose * Vector3(0, 0, 1)
            samples.append(IMUMeasurement(timestamp: t, gyro: rate + bias, accel: up * 9.81))
        }
        return (samples, up)
    }

    static func degrees(_ a: Vector3, _ b: Vector3) -> Double {
        acos(min(1, max(-1, a.normalized.dot(b.normalized)))) * 180 / .pi
    }

    @Test("a body that turns 15° during the window gets its current gravity direction")
    func turningBody() throws {
        let (samples, lastUp) = Self.turning(rate: Vector3(0, 0.26, 0))
        let mean = try #require(EstimatorCore.meanSpecificForce(samples, gyroBias: .zero))
        var raw = Vector3.zero
        for s in samples { raw += s.accel }
        let error = Self.degrees(mean, lastUp), rawError = Self.degrees(raw, lastUp)
        print(String(format: "mean specific force 15° turn: %.4f° off (raw average %.2f° off)", error, rawError))
        #expect(error < 0.01)
        #expect(abs(mean.norm - 9.81) < 1e-3)
        #expect(rawError > 5)
    }

    @Test("the gyro bias is taken out of the turn")
    func gyroBias() throws {
        let bias = Vector3(0.05, -0.08, 0.03)
        let (samples, lastUp) = Self.turning(rate: Vector3(0.1, 0.26, -0.2), bias: bias)
        let corrected = try #require(EstimatorCore.meanSpecificForce(samples, gyroBias: bias))
        let uncorrected = try #require(EstimatorCore.meanSpecificForce(samples, gyroBias: .zero))
        #expect(Self.degrees(corrected, lastUp) < 0.01)
        #expect(Self.degrees(uncorrected, lastUp) > 1)
    }

    @Test("fewer than three samples give no mean")
    func tooFew() {
        let (samples, _) = Self.turning(rate: .zero)
        #expect(EstimatorCore.meanSpecificForce(Array(samples.prefix(2)), gyroBias: .zero) == nil)
    }
}

import Foundation
import ParallaxMath
import Testing
@testable import ParallaxTracking

@Suite("Static initialisation")
struct StaticInitializerTests {
    @Test("recovers tilt and biases from noisy still samples")
    func recoversTiltAndBiases() throws {
        let R_world_body = Quaternion(axis: Vector3(1, 0.5, 0), angle: 0.4).rotationMatrix
        let bg = Vector3(0.01, -0.02, 0.03), ba = Vector3(0, 0, 0)
        var rng = SplitMix64(seed: 3)
        let up = R_world_body.transpose * Vector3(0, 0, 9.81)
        let samples = (0..<200).map { k in
            IMUMeasurement(timestamp: Double(k) / 200, gyro: bg + rng.gaussianVector() * 0.002,
                           accel: up + ba + rng.gaussianVector() * 0.03)
        }
        let result = try #require(StaticInitializer().initialize(from: samples[...]))
        let estimatedUp = result.state.T_world_body.rotationMatrix.transpose * Vector3(0, 0, 1)
        #expect(acos(min(1, estimatedUp.dot(up.normalized))) < 0.002)
        #expect((result.state.biasGyro - bg).norm < 0.001)
        #expect(result.state.velocity == .zero)
    }

    @Test("refuses a window with motion")
    func refusesMotion() {
        let samples = (0..<200).map { k in
            let t = Double(k) / 200
            return IMUMeasurement(timestamp: t, gyro: Vector3(0, 0, 2 * sin(6 * t)),
                                  accel: Vector3(0, 3 * sin(12 * t), 9.81 + 4 * cos(9 * t)))
        }
        #expect(StaticInitializer().initialize(from: samples[...]) == nil)
    }

    @Test("does not initialise before the window is full")
    func needsFullWindow() {
        let samples = (0..<50).map { IMUMeasurement(timestamp: Double($0) / 200, gyro: .zero, accel: Vector3(0, 0, 9.81)) }
        #expect(StaticInitializer().initialize(from: samples[...]) == nil)
    }

    @Test("gravity-aligned rotation keeps heading and maps up to +z")
    func gravityAlignedRotation() {
        let up = Vector3(0.1, -0.2, 0.97).normalized
        let r = StaticInitializer.gravityAlignedRotation(upInBody: up)
        #expect(((r * up) - Vector3(0, 0, 1)).norm < 1e-12)
        #expect(abs(r.determinant - 1) < 1e-12)
        let xInWorld = r * Vector3(1, 0, 0)
        #expect(abs(xInWorld.y) < 1e-12 && xInWorld.x > 0)
    }

    @Test("initialises on the real EuRoC snippet within 1 s, gravity within 1° of ground truth", .needsEuRoCSnippet)
    func realSnippet() throws {
        let root = TrackingFixtures.snippet.appendingPathComponent("mav0")
        let imu = try String(contentsOf: root.appendingPathComponent("imu0/data.csv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { line -> IMUMeasurement in
                let v = line.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                return IMUMeasurement(timestamp: v[0] * 1e-9, gyro: Vector3(v[1], v[2], v[3]), accel: Vector3(v[4], v[5], v[6]))
            }
        let start = imu[0].timestamp
        var result: StaticInitializer.Result?
        var end = 0
        while result == nil, end < imu.count {
            end += 1
            result = StaticInitializer().initialize(from: imu[0..<end])
        }
        let r = try #require(result)
        #expect(r.state.timestamp - start <= 1.0)
        // Ground truth at the start: q_RS = (w 0.069433, x -0.824237, y -0.106942, z -0.551702), gyro bias
        // (-0.00224703, 0.0215352, 0.0770299) from state_groundtruth_estimate0.
        let q_world_body = Quaternion(w: 0.069433, x: -0.824237, y: -0.106942, z: -0.551702).normalized
        let trueUp = q_world_body.inverse.act(Vector3(0, 0, 1))
        let estimatedUp = r.state.T_world_body.rotationMatrix.transpose * Vector3(0, 0, 1)
        let angleDeg = acos(min(1, trueUp.dot(estimatedUp))) * 180 / .pi
        #expect(angleDeg < 1.0, "gravity direction error \(angleDeg)°")
        #expect((r.state.biasGyro - Vector3(-0.00224703, 0.0215352, 0.0770299)).norm < 0.005)
    }
}

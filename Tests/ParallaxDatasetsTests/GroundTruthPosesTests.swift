import ParallaxDatasets
import ParallaxMath
import Testing

/// Interpolation of ground-truth poses, and the end hold the AR session's ground-truth source uses.
@Suite struct GroundTruthPosesTests {
    static func state(_ ns: Int64, x: Double, yaw: Double) -> GroundTruthState {
        GroundTruthState(timestampNs: ns, position: Vector3(x, 0, 0),
                         orientation: Quaternion(axis: Vector3(0, 0, 1), angle: yaw),
                         velocity: .zero, gyroscopeBias: .zero, accelerometerBias: .zero)
    }

    let truth = GroundTruthPoses(states: [state(1_000_000_000, x: 0, yaw: 0), state(2_000_000_000, x: 1, yaw: 0.2)])!

    @Test func interpolatesInsideTheSpan() throws {
        let mid = try #require(truth.T_world_body(at: 1_500_000_000))
        #expect(abs(mid.translation.x - 0.5) < 1e-12)
        #expect(abs(mid.rotation.angle - 0.1) < 1e-12)
    }

    @Test func interpolatesTheAccelerometerBias() throws {
        var a = Self.state(1_000_000_000, x: 0, yaw: 0), b = Self.state(2_000_000_000, x: 1, yaw: 0)
        a.accelerometerBias = Vector3(0.03, -0.02, 0.04)
        b.accelerometerBias = Vector3(0.05, -0.04, 0.04)
        let biased = try #require(GroundTruthPoses(states: [a, b]))
        let mid = try #require(biased.accelerometerBias(at: 1_250_000_000))
        #expect((mid - Vector3(0.035, -0.025, 0.04)).norm < 1e-12)
        #expect(biased.accelerometerBias(at: 2_000_000_001) == nil)
    }

    @Test func answersNilOutsideTheSpanByDefault() {
        #expect(truth.T_world_body(at: 999_999_999) == nil)
        #expect(truth.T_world_body(at: 2_000_000_001) == nil)
        #expect(GroundTruthPoses(states: []) == nil)
    }

    @Test func holdsTheEndPosesWithinTheHold() throws {
        let hold: Int64 = 50_000_000
        let before = try #require(truth.T_world_body(at: 960_000_000, holdingEndsFor: hold))
        #expect(before.translation.x == 0)
        let after = try #require(truth.T_world_body(at: 2_050_000_000, holdingEndsFor: hold))
        #expect(after.translation.x == 1 && abs(after.rotation.angle - 0.2) < 1e-12)
        #expect(truth.T_world_body(at: 949_999_999, holdingEndsFor: hold) == nil)
        #expect(truth.T_world_body(at: 2_050_000_001, holdingEndsFor: hold) == nil)
    }
}

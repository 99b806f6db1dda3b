import Foundation
import ParallaxMath
@testable import ParallaxTracking
import Testing

/// ``ResetBridge`` on a motion whose IMU readings are exact: a body that turns about a tilted axis
/// and accelerates, with known biases. The bridge must carry the anchor's pose to the new start's
/// time as the motion did, whichever of the two velocities (anchor's, start's) it leans on.
@Suite("Reset bridge")
struct ResetBridgeTests {
    /// Body rate (rad/s), body-frame, constant.
    static let rate = Vector3(0.3, -0.2, 1.5)
    /// World acceleration (m/s²) at time τ.
    static func acceleration(_ tau: Double) -> Vector3 { Vector3(0.8 * cos(2 * tau), -0.5, 0.3 * sin(3 * tau)) }
    static let biasGyro = Vector3(0.01, -0.02, 0.015)
    static let biasAccel = Vector3(0.1, 0.05, -0.08)
    static let startRotation = SO3.exp(Vector3(0.1, -0.05, 0.7))
    static let startVelocity = Vector3(0.4, -0.2, 0.1)

    /// The true attitude, velocity and position τ seconds after the anchor (velocity and position
    /// integrated finely), and the IMU readings over [0, span] at 200 Hz.
    static func motion(span: Double) -> (rotation: Matrix3, velocity: Vector3, position: Vector3, samples: [IMUMeasurement]) {
        var samples: [IMUMeasurement] = []
        var r = startRotation, v = startVelocity, p = Vector3.zero
        let fine = 1e-4
        var tau = 0.0
        var next = 0.0
        while tau <= span + 1e-9 {
            if tau >= next - 1e-12 {
                let specific = r.transpose * (acceleration(tau) - NavigationState.standardGravity)
                samples.append(IMUMeasurement(timestamp: 10 + tau, gyro: rate + biasGyro, accel: specific + biasAccel))
                next += 0.005
            }
            guard tau < span - 1e-12 else { break }
            let h = min(fine, span - tau)
            let a0 = acceleration(tau), a1 = acceleration(tau + h)
            // Exact for an acceleration linear over the step: p += v h + (2 a₀ + a₁) h² / 6.
            let blend: Vector3 = a0 * 2.0 + a1
            p += v * h + blend * (h * h / 6.0)
            v += (a0 + a1) * (0.5 * h)
            r = r * SO3.exp(rate * h)
            tau += h
        }
        return (r, v, p, samples)
    }

    /// A new start as the estimator makes one: the true tilt with zero yaw, the true velocity in
    /// that frame's world.
    static func newStart(time: Double, rotation: Matrix3, velocity: Vector3) -> NavigationState {
        let m = rotation
        let yaw = atan2(m[1, 0], m[0, 0])
        let unturn = SO3.exp(Vector3(0, 0, -yaw))
        return NavigationState(timestamp: time, T_world_body: RigidTransform(rotationMatrix: unturn * rotation, translation: .zero),
                               velocity: unturn * velocity)
    }

    @Test("Carries the anchor's pose across 1.5 s of turning, accelerating motion",
          arguments: [(0.02, 0.1), (1.0, 0.02), (0.02, 1.0)])
    func carriesPose(_ anchorSigma: Double, _ startSigma: Double) throws {
        let span = 1.5
        let truth = Self.motion(span: span)
        let anchor = ResetBridge.Anchor(time: 10, rotation: Self.startRotation, position: .zero, velocity: Self.startVelocity,
                                        velocitySigma: anchorSigma, biasGyro: Self.biasGyro, biasAccel: Self.biasAccel,
                                        last: (Self.startRotation, .zero))
        var nav = Self.newStart(time: 10 + span, rotation: truth.rotation, velocity: truth.velocity)
        let bridged = ResetBridge().place(&nav, velocitySigma: startSigma, anchor: anchor, samples: truth.samples[...])
        #expect(bridged)
        let rotationError = SO3.log(nav.T_world_body.rotationMatrix * truth.rotation.transpose).norm
        #expect(rotationError < 1e-4)
        #expect((nav.T_world_body.translation - truth.position).norm < 2e-3)
        #expect((nav.velocity - truth.velocity).norm < 1e-3)
    }

    @Test("An unsettled anchor, or a span the samples do not cover, keeps the anchor's pose as it is")
    func keepsWithoutBridge() throws {
        let span = 1.0
        let truth = Self.motion(span: span)
        var anchor = ResetBridge.Anchor(time: 10, rotation: Self.startRotation, position: Vector3(1, 2, 3))
        var nav = Self.newStart(time: 10 + span, rotation: truth.rotation, velocity: truth.velocity)
        #expect(!ResetBridge().place(&nav, velocitySigma: 0.1, anchor: anchor, samples: truth.samples[...]))
        #expect(nav.T_world_body.translation == Vector3(1, 2, 3))
        // Settled (a later last pose given, here the same), but the samples begin after the anchor.
        anchor.last = (Self.startRotation, Vector3(1, 2, 3))
        nav = Self.newStart(time: 10 + span, rotation: truth.rotation, velocity: truth.velocity)
        #expect(!ResetBridge().place(&nav, velocitySigma: 0.1, anchor: anchor, samples: truth.samples.dropFirst(20)))
        #expect(nav.T_world_body.translation == Vector3(1, 2, 3))
        // Settled, covered, but longer than the longest span bridged.
        nav = Self.newStart(time: 10 + span, rotation: truth.rotation, velocity: truth.velocity)
        #expect(!ResetBridge(maximumSpan: 0.5).place(&nav, velocitySigma: 0.1, anchor: anchor, samples: truth.samples[...]))
        #expect(nav.T_world_body.translation == Vector3(1, 2, 3))
        // Not bridged, with a later last pose: that one is kept.
        anchor.last = (Self.startRotation, Vector3(4, 5, 6))
        nav = Self.newStart(time: 10 + span, rotation: truth.rotation, velocity: truth.velocity)
        #expect(!ResetBridge(maximumSpan: 0.5).place(&nav, velocitySigma: 0.1, anchor: anchor, samples: truth.samples[...]))
        #expect(nav.T_world_body.translation == Vector3(4, 5, 6))
    }

    /// The anchor's velocity carried on with the IMU (what picks a restart's answer) is the true
    /// velocity in the body frame at the new start, and there is none from an unsettled anchor.
    @Test("Carries the anchor's velocity to the new start's body frame")
    func carriesVelocity() throws {
        let span = 1.5
        let truth = Self.motion(span: span)
        var anchor = ResetBridge.Anchor(time: 10, rotation: Self.startRotation, position: .zero, velocity: Self.startVelocity,
                                        velocitySigma: 0.02, biasGyro: Self.biasGyro, biasAccel: Self.biasAccel,
                                        last: (Self.startRotation, .zero))
        let carried = try #require(ResetBridge().predictedBodyVelocity(anchor: anchor, at: 10 + span, samples: truth.samples[...]))
        #expect((carried - truth.rotation.transpose * truth.velocity).norm < 1e-3)
        anchor.last = nil
        #expect(ResetBridge().predictedBodyVelocity(anchor: anchor, at: 10 + span, samples: truth.samples[...]) == nil)
    }

    /// Two answers refused for disagreeing: the carried velocity picks the one near it only when the
    /// other lies three times farther (the old filter may be half a metre per second off).
    @Test("A restart's carried velocity picks an answer only when it tells the two apart")
    func restartChoice() {
        func answer(_ v: Vector3) -> VisualInertialAlignment.Solution {
            VisualInertialAlignment.Solution(gravity: Vector3(0, 0, -9.81), velocity: v, featureCount: 40, gravityRatio: 1)
        }
        let configuration = TrackerConfiguration(mode: .mono)
        let carried = Vector3(-0.13, 0.73, -0.72)
        // The phone V1_02 restart: the bias-solved answer 0.47 m/s from the carried velocity, the
        // other 3.3 m/s.
        let right = answer(Vector3(-0.27, 0.38, -1.01)), wrong = answer(Vector3(-0.93, 1.48, -3.51))
        #expect(EstimatorCore.closer(right, wrong, to: carried, configuration: configuration)?.velocity == right.velocity)
        #expect(EstimatorCore.closer(wrong, right, to: carried, configuration: configuration)?.velocity == right.velocity)
        // Neither near it, or the two about as far: no choice.
        #expect(EstimatorCore.closer(right, wrong, to: Vector3(2, 2, 2), configuration: configuration) == nil)
        #expect(EstimatorCore.closer(right, answer(Vector3(-0.2, 1.0, -0.4)), to: carried, configuration: configuration) == nil)
    }
}

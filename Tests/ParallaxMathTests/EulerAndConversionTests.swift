import Foundation
import Testing
@testable import ParallaxMath

/// Component-order constructors, ARKit Euler angles and the rotation check.
@Suite struct EulerAndConversionTests {
    @Test func componentOrderConstructors() {
        let q = Quaternion(w: 0.5, x: -0.5, y: 0.5, z: 0.5)
        #expect(Quaternion(xyzw: q.xyzw) == q)
        #expect(Quaternion(from: Vector4(-0.5, 0.5, 0.5, 0.5)) == q)
        #expect(Quaternion(wxyz: Vector4(0.5, -0.5, 0.5, 0.5)) == q)
    }

    @Test func eulerAnglesMatchExplicitProduct() {
        var rng = SeededGenerator(seed: 71)
        func rx(_ a: Double) -> Matrix3 { Matrix3(rows: Vector3(1, 0, 0), Vector3(0, cos(a), -sin(a)), Vector3(0, sin(a), cos(a))) }
        func ry(_ a: Double) -> Matrix3 { Matrix3(rows: Vector3(cos(a), 0, sin(a)), Vector3(0, 1, 0), Vector3(-sin(a), 0, cos(a))) }
        func rz(_ a: Double) -> Matrix3 { Matrix3(rows: Vector3(cos(a), -sin(a), 0), Vector3(sin(a), cos(a), 0), Vector3(0, 0, 1)) }
        for _ in 0..<500 {
            let pitch = rng.uniform(-Double.pi / 2 + 1e-6, Double.pi / 2 - 1e-6)
            let yaw = rng.uniform(-Double.pi, Double.pi), roll = rng.uniform(-Double.pi, Double.pi)
            let q = Quaternion(eulerAnglesARKit: (pitch, yaw, roll))
            #expect(maxDiff(q.rotationMatrix, ry(yaw) * rx(pitch) * rz(roll)) < 1e-12)
            let e = q.eulerAnglesARKit
            #expect(abs(e.pitch - pitch) < 1e-8 && abs(e.yaw - yaw) < 1e-8 && abs(e.roll - roll) < 1e-8)
        }
        // Single-axis cases read back on their own component.
        let yawOnly = Quaternion(axis: Vector3(0, 1, 0), angle: 0.3).eulerAnglesARKit
        #expect(abs(yawOnly.yaw - 0.3) < 1e-15 && abs(yawOnly.pitch) < 1e-15 && abs(yawOnly.roll) < 1e-15)
        let pitchOnly = Quaternion(axis: Vector3(1, 0, 0), angle: -0.4).eulerAnglesARKit
        #expect(abs(pitchOnly.pitch + 0.4) < 1e-15 && abs(pitchOnly.yaw) < 1e-15)
        // Gimbal lock: the rotation is still reproduced.
        for pitch in [Double.pi / 2, -Double.pi / 2] {
            let q = Quaternion(eulerAnglesARKit: (pitch, 0.7, 0.2))
            let e = q.eulerAnglesARKit
            #expect(abs(e.pitch - pitch) < 1e-6 && e.roll == 0)
            #expect(rotationDistance(Quaternion(eulerAnglesARKit: e), q) < 1e-7)
        }
    }

    @Test func isRotationAcceptsRotationsAndRejectsOthers() {
        var rng = SeededGenerator(seed: 72)
        for _ in 0..<200 {
            let r = SO3.exp(rng.rotationVector())
            #expect(r.isRotation(tolerance: 1e-12))
            #expect(!(r * Matrix3(diagonal: Vector3(1, 1, -1))).isRotation(tolerance: 1e-3))   // reflection
            #expect(!(r * 1.01).isRotation(tolerance: 1e-3))                                   // scaled
        }
        #expect(!Matrix3(diagonal: Vector3(.nan, 1, 1)).isRotation())
    }
}

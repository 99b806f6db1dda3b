import Foundation
import Testing
@testable import ParallaxMath

/// Round trips and cross-checks of the SO(3) and quaternion maps, including the numerically
/// delicate angles near 0 and near π.
@Suite struct RotationPropertyTests {
    /// Angles that stress the series branches and the π boundary.
    static let edgeAngles: [Double] = [0, 1e-12, 1e-9, 1e-6, 1e-5, 1.0001e-5, 1e-3, 0.5, 2, Double.pi - 1e-3, Double.pi - 1e-6]

    @Test func so3LogOfExpIsIdentityForRandomAngles() {
        var rng = SeededGenerator(seed: 1)
        for _ in 0..<500 {
            let phi = rng.rotationVector(maxAngle: Double.pi - 1e-9)
            let back = SO3.log(SO3.exp(phi))
            #expect(maxDiff(back, phi) < 1e-10, "phi \(phi) came back as \(back)")
        }
    }

    @Test func so3LogOfExpAtEdgeAnglesIsRelativelyAccurate() {
        var rng = SeededGenerator(seed: 2)
        for angle in Self.edgeAngles {
            for _ in 0..<50 {
                let phi = rng.unitVector() * angle
                let back = SO3.log(SO3.exp(phi))
                // Relative to the angle for tiny rotations (10 digits), absolute otherwise.
                let tolerance = angle < 1e-3 ? 1e-10 * angle : 1e-10
                #expect(maxDiff(back, phi) <= tolerance, "angle \(angle): \(phi) → \(back)")
            }
        }
    }

    @Test func so3LogAtExactlyPiReturnsAngleOfPi() {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<200 {
            let axis = rng.unitVector()
            let r = SO3.exp(axis * Double.pi)
            let back = SO3.log(r)
            #expect(abs(back.norm - Double.pi) < 1e-9)
            // At π the axis is determined only up to sign.
            #expect(min(maxDiff(back, axis * Double.pi), maxDiff(back, -axis * Double.pi)) < 1e-7)
            #expect(maxDiff(SO3.exp(back), r) < 1e-12)
        }
        // The axis-aligned half turns hit the non-trace branches of Shepperd's method exactly.
        for axis in [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1), Vector3(1, 1, 0).normalized] {
            let back = SO3.log(SO3.exp(axis * Double.pi))
            #expect(abs(back.norm - Double.pi) < 1e-12)
            #expect(min(maxDiff(back, axis * Double.pi), maxDiff(back, -axis * Double.pi)) < 1e-12)
        }
    }

    @Test func so3ExpOfLogIsIdentityOnMatrices() {
        var rng = SeededGenerator(seed: 4)
        for _ in 0..<500 {
            let r = SO3.exp(rng.rotationVector())
            #expect(maxDiff(SO3.exp(SO3.log(r)), r) < 1e-12)
            #expect(r.isRotation(tolerance: 1e-12))
        }
    }

    @Test func quaternionRoundTripsAtAllAngles() {
        var rng = SeededGenerator(seed: 5)
        var angles = Self.edgeAngles
        for _ in 0..<300 { angles.append(rng.uniform(0, Double.pi)) }
        for angle in angles {
            let v = rng.unitVector() * angle
            let q = Quaternion(rotationVector: v)
            #expect(abs(q.norm - 1) < 1e-15)
            let back = q.rotationVector
            #expect(maxDiff(back, v) <= 1e-12 * max(angle, 1e-3), "angle \(angle)")
            // exp ∘ log on quaternions, up to the q ≡ −q sign.
            let q2 = Quaternion(rotationVector: back)
            #expect(rotationDistance(q, q2) < 1e-12)
        }
        // Exactly π: log(q) has norm π and maps back to the same rotation.
        for _ in 0..<100 {
            let axis = rng.unitVector()
            let q = Quaternion(axis: axis, angle: Double.pi)
            #expect(abs(q.rotationVector.norm - Double.pi) < 1e-12)
            #expect(rotationDistance(Quaternion(rotationVector: q.rotationVector), q) < 1e-12)
        }
    }

    @Test func quaternionMatrixAndAxisAngleAgree() {
        var rng = SeededGenerator(seed: 6)
        for i in 0..<500 {
            let axis = rng.unitVector()
            let angle = i < 20 ? Double.pi - Double(i) * 1e-7 : rng.uniform(0, Double.pi)
            let q = Quaternion(axis: axis, angle: angle)
            let r = q.rotationMatrix
            // Rodrigues' formula written out, independent of SO3.exp.
            let k = Matrix3.skew(axis)
            let rodrigues = Matrix3.identity + sin(angle) * k + (1 - cos(angle)) * (k * k)
            #expect(maxDiff(r, rodrigues) < 1e-12)
            #expect(maxDiff(SO3.exp(axis * angle), rodrigues) < 1e-12)
            let v = rng.vector3(scale: 3)
            #expect(maxDiff(q.act(v), r * v) < 1e-12)
            let q2 = Quaternion(rotationMatrix: r)
            #expect(q2.w >= 0)
            #expect(rotationDistance(q, q2) < 1e-9)
            #expect(sameRotation(q2.rotationVector, axis * angle, tolerance: 1e-12))
        }
    }

    @Test func quaternionProductMatchesMatrixProduct() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let a = Quaternion(rotationVector: rng.rotationVector())
            let b = Quaternion(rotationVector: rng.rotationVector())
            #expect(maxDiff((a * b).rotationMatrix, a.rotationMatrix * b.rotationMatrix) < 1e-12)
            #expect(maxDiff((a * a.inverse).rotationMatrix, .identity) < 1e-12)
            #expect(abs(a.angle(to: b) - SO3.log(a.rotationMatrix.transpose * b.rotationMatrix).norm) < 1e-9)
        }
    }

    @Test func slerpInterpolatesAlongGeodesic() {
        var rng = SeededGenerator(seed: 8)
        for _ in 0..<200 {
            let a = Quaternion(rotationVector: rng.rotationVector())
            let b = Quaternion(rotationVector: rng.rotationVector())
            let t = rng.uniform(0, 1)
            let m = a.slerp(to: b, t: t)
            let total = a.angle(to: b)
            #expect(abs(a.angle(to: m) - t * total) < 1e-9)
            #expect(abs(m.angle(to: b) - (1 - t) * total) < 1e-9)
            #expect(rotationDistance(a.slerp(to: b, t: 0), a) < 1e-12)
            #expect(rotationDistance(a.slerp(to: b, t: 1), b) < 1e-9)
        }
    }

    @Test func orthonormalizeRestoresRotation() {
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<200 {
            let r = SO3.exp(rng.rotationVector())
            var noisy = r
            for i in 0..<3 { for j in 0..<3 { noisy[i, j] += rng.uniform(-1e-6, 1e-6) } }
            let fixed = SO3.orthonormalize(noisy)
            #expect(fixed.isRotation(tolerance: 1e-12))
            #expect(maxDiff(fixed, r) < 1e-5)
        }
    }
}

import Foundation
import Testing
@testable import ParallaxMath

/// SE(3) maps checked against an independent matrix exponential and finite differences.
@Suite struct SE3Tests {
    static func samples(seed: UInt64) -> [Vector6] {
        var rng = SeededGenerator(seed: seed)
        var out = [Vector6.zero]
        for angle in [1e-9, 1e-6, 1e-3, 0.999e-2, 1.001e-2, 0.0999, 0.1001, 1, Double.pi - 1e-3] {
            out.append(Vector6(rho: rng.vector3(scale: 3), phi: rng.unitVector() * angle))
        }
        for _ in 0..<300 { out.append(Vector6(rho: rng.vector3(scale: 3), phi: rng.rotationVector(maxAngle: 3))) }
        return out
    }

    /// exp of a 4×4 matrix by scaling and squaring of the Taylor series: independent of SE3.exp.
    static func expm(_ a: Matrix4) -> Matrix4 {
        var norm = 0.0
        for r in 0..<4 { for c in 0..<4 { norm = max(norm, abs(a[r, c])) } }
        let k = max(0, Int(Foundation.log2(max(norm, 1e-300))) + 4)
        var scaled = a
        let f = pow(2.0, -Double(k))
        for r in 0..<4 { for c in 0..<4 { scaled[r, c] *= f } }
        var sum = Matrix4.identity, term = Matrix4.identity
        for n in 1...25 {
            term = term * scaled
            for r in 0..<4 { for c in 0..<4 { term[r, c] /= Double(n) } }
            for r in 0..<4 { for c in 0..<4 { sum[r, c] += term[r, c] } }
        }
        for _ in 0..<k { sum = sum * sum }
        return sum
    }

    static func maxDiff6(_ a: Vector6, _ b: Vector6) -> Double { max(maxDiff(a.rho, b.rho), maxDiff(a.phi, b.phi)) }

    static func maxDiffM(_ a: Matrix, _ b: Matrix) -> Double { (a - b).maxAbs }

    @Test func expMatchesMatrixExponentialOfHat() {
        for xi in Self.samples(seed: 41) {
            #expect(maxDiff(SE3.exp(xi).matrix, Self.expm(SE3.hat(xi))) < 1e-10, "xi \(xi)")
        }
    }

    @Test func logOfExpAndExpOfLogRoundTrip() {
        for xi in Self.samples(seed: 42) {
            let back = SE3.log(SE3.exp(xi))
            let scale = max(xi.norm, 1e-300)
            #expect(Self.maxDiff6(back, xi) < (xi.phi.norm < 1e-3 ? 1e-12 * max(scale, 1) : 1e-9), "xi \(xi) → \(back)")
        }
        var rng = SeededGenerator(seed: 43)
        for _ in 0..<300 {
            let t = rng.transform()
            let back = SE3.exp(SE3.log(t))
            #expect(maxDiff(back.translation, t.translation) < 1e-10)
            #expect(rotationDistance(back.rotation, t.rotation) < 1e-12)
        }
        // Exactly π: log picks one of the two axes, and exp maps it back to the same transform.
        for _ in 0..<50 {
            let t = RigidTransform(rotation: Quaternion(axis: rng.unitVector(), angle: Double.pi), translation: rng.vector3(scale: 2))
            let back = SE3.exp(SE3.log(t))
            #expect(maxDiff(back.translation, t.translation) < 1e-9)
            #expect(rotationDistance(back.rotation, t.rotation) < 1e-9)
        }
        // The tuple overload agrees.
        let xi = Vector6(rho: Vector3(1, 2, 3), phi: Vector3(0.1, -0.2, 0.3))
        #expect(SE3.exp((rho: xi.rho, phi: xi.phi)) == SE3.exp(xi))
    }

    @Test func adjointConjugatesTheExponential() throws {
        var rng = SeededGenerator(seed: 44)
        for _ in 0..<300 {
            let t = rng.transform(), u = rng.transform()
            let xi = Vector6(rho: rng.vector3(), phi: rng.rotationVector(maxAngle: 1))
            let lhs = t * SE3.exp(xi) * t.inverse
            let rhs = SE3.exp(SE3.adjoint(t) * xi)
            #expect(maxDiff(lhs.matrix, rhs.matrix) < 1e-10)
            // Ad is a group homomorphism and Ad(T⁻¹) = Ad(T)⁻¹.
            #expect(Self.maxDiffM(SE3.adjoint(t * u), SE3.adjoint(t) * SE3.adjoint(u)) < 1e-10)
            #expect(Self.maxDiffM(SE3.adjoint(t.inverse) * SE3.adjoint(t), .identity(6)) < 1e-11)
        }
    }

    /// Numerical Jacobians: left column i = ∂ log(exp(ξ + δ) exp(ξ)⁻¹)/∂δᵢ, right = ∂ log(exp(ξ)⁻¹ exp(ξ + δ))/∂δᵢ.
    static func numericJacobian(_ xi: Vector6, left: Bool) -> Matrix {
        let h = 1e-6
        let t0i = SE3.exp(xi).inverse
        var j = Matrix(rows: 6, cols: 6)
        for i in 0..<6 {
            var e = Vector6.zero; e[i] = h
            let plus = left ? SE3.exp(xi + e) * t0i : t0i * SE3.exp(xi + e)
            let minus = left ? SE3.exp(xi - e) * t0i : t0i * SE3.exp(xi - e)
            let d = (SE3.log(plus) - SE3.log(minus)) * (1 / (2 * h))
            for r in 0..<6 { j[r, i] = d[r] }
        }
        return j
    }

    @Test func jacobiansMatchFiniteDifferences() {
        for xi in Self.samples(seed: 45) {
            #expect(Self.maxDiffM(SE3.leftJacobian(xi), Self.numericJacobian(xi, left: true)) < 1e-6, "xi \(xi)")
            #expect(Self.maxDiffM(SE3.rightJacobian(xi), Self.numericJacobian(xi, left: false)) < 1e-6, "xi \(xi)")
        }
    }

    @Test func jacobianInversesAndIdentities() {
        for xi in Self.samples(seed: 46) {
            #expect(Self.maxDiffM(SE3.leftJacobian(xi) * SE3.leftJacobianInverse(xi), .identity(6)) < 1e-10)
            #expect(Self.maxDiffM(SE3.rightJacobian(xi) * SE3.rightJacobianInverse(xi), .identity(6)) < 1e-10)
            // 𝒥l(ξ) = Ad(exp ξ) 𝒥r(ξ) (Barfoot §7.1.5).
            #expect(Self.maxDiffM(SE3.leftJacobian(xi), SE3.adjoint(SE3.exp(xi)) * SE3.rightJacobian(xi)) < 1e-10)
        }
    }

    @Test func qSeriesIsContinuousAtThreshold() {
        var rng = SeededGenerator(seed: 47)
        let axis = rng.unitVector(), rho = rng.vector3(scale: 2)
        let below = SE3.q(Vector6(rho: rho, phi: axis * (SE3.qSeriesThreshold * (1 - 1e-12))))
        let above = SE3.q(Vector6(rho: rho, phi: axis * (SE3.qSeriesThreshold * (1 + 1e-12))))
        #expect(maxDiff(below, above) < 1e-13)
    }

    @Test func vector6Layout() {
        var v = Vector6([1, 2, 3, 4, 5, 6])
        #expect(v.rho == Vector3(1, 2, 3) && v.phi == Vector3(4, 5, 6))
        #expect(v[0] == 1 && v[5] == 6)
        v[4] = -1
        #expect(v.array == [1, 2, 3, 4, -1, 6])
        // Pure translation: exp gives the translation itself, rotation identity.
        let t = SE3.exp(Vector6(rho: Vector3(1, 2, 3), phi: .zero))
        #expect(t.translation == Vector3(1, 2, 3) && t.rotation == .identity)
    }
}

import Foundation
import Testing
@testable import ParallaxMath

/// SO(3) Jacobians checked against central finite differences of the exponential map.
@Suite struct SO3JacobianTests {
    static let h = 1e-6

    /// Numerical left Jacobian: column i = ∂/∂δᵢ log(exp(φ + δ) exp(φ)ᵀ) at δ = 0.
    static func numericLeft(_ phi: Vector3) -> Matrix3 {
        let r0t = SO3.exp(phi).transpose
        var cols = [Vector3]()
        for i in 0..<3 {
            var e = Vector3.zero; e[i] = h
            let plus = SO3.log(SO3.exp(phi + e) * r0t), minus = SO3.log(SO3.exp(phi - e) * r0t)
            cols.append((plus - minus) / (2 * h))
        }
        return Matrix3(columns: cols[0], cols[1], cols[2])
    }

    /// Numerical right Jacobian: column i = ∂/∂δᵢ log(exp(φ)ᵀ exp(φ + δ)) at δ = 0.
    static func numericRight(_ phi: Vector3) -> Matrix3 {
        let r0t = SO3.exp(phi).transpose
        var cols = [Vector3]()
        for i in 0..<3 {
            var e = Vector3.zero; e[i] = h
            let plus = SO3.log(r0t * SO3.exp(phi + e)), minus = SO3.log(r0t * SO3.exp(phi - e))
            cols.append((plus - minus) / (2 * h))
        }
        return Matrix3(columns: cols[0], cols[1], cols[2])
    }

    static func samples() -> [Vector3] {
        var rng = SeededGenerator(seed: 11)
        var out: [Vector3] = [.zero]
        for angle in [1e-9, 1e-6, 1e-5, 1.0001e-5, 1e-4, 1e-2, Double.pi - 1e-2] { out.append(rng.unitVector() * angle) }
        for _ in 0..<300 { out.append(rng.rotationVector(maxAngle: 3.0)) }
        return out
    }

    @Test func leftJacobianMatchesFiniteDifferences() {
        for phi in Self.samples() {
            #expect(maxDiff(SO3.leftJacobian(phi), Self.numericLeft(phi)) < 1e-7, "phi \(phi)")
        }
    }

    @Test func rightJacobianMatchesFiniteDifferences() {
        for phi in Self.samples() {
            #expect(maxDiff(SO3.rightJacobian(phi), Self.numericRight(phi)) < 1e-7, "phi \(phi)")
        }
    }

    /// J₁ and J₂ against Simpson quadrature of exp(sφ) and (1 − s)·exp(sφ) over s ∈ [0, 1].
    @Test func rotationIntegralsMatchQuadrature() {
        var rng = SeededGenerator(seed: 5)
        for angle in [0.0, 1e-6, 0.01, 0.05, 0.1, 0.5, 2.0] {
            let phi = rng.unitVector() * angle
            let n = 200
            var first = Matrix3.zero, second = Matrix3.zero
            for i in 0...n {
                let s = Double(i) / Double(n)
                let w = (i == 0 || i == n ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)) / (3.0 * Double(n))
                first = first + SO3.exp(phi * s) * w
                second = second + SO3.exp(phi * s) * (w * (1 - s))
            }
            let integrals = SO3.rotationIntegrals(phi)
            #expect(maxDiff(integrals.first, first) < 1e-9, "J₁ at \(angle) rad")
            #expect(maxDiff(integrals.second, second) < 1e-9, "J₂ at \(angle) rad")
        }
    }

    /// ∂(J₁a)/∂φ and ∂(J₂a)/∂φ against central differences, for the turns of one IMU interval.
    @Test func rotationIntegralDerivativesMatchFiniteDifferences() {
        var rng = SeededGenerator(seed: 6)
        let a = Vector3(0.4, 9.7, -0.8)
        for angle in [0.0, 0.005, 0.02] {
            let phi = rng.unitVector() * angle
            let analytic = SO3.rotationIntegralDerivatives(phi, applied: a)
            var firstColumns = [Vector3](), secondColumns = [Vector3]()
            for i in 0..<3 {
                var e = Vector3.zero; e[i] = Self.h
                let plus = SO3.rotationIntegrals(phi + e), minus = SO3.rotationIntegrals(phi - e)
                firstColumns.append((plus.first * a - minus.first * a) / (2 * Self.h))
                secondColumns.append((plus.second * a - minus.second * a) / (2 * Self.h))
            }
            let first = Matrix3(columns: firstColumns[0], firstColumns[1], firstColumns[2])
            let second = Matrix3(columns: secondColumns[0], secondColumns[1], secondColumns[2])
            // The series' next terms are about φ²|a|/12: 3·10⁻⁴ at 0.02 rad.
            #expect(maxDiff(analytic.first, first) < 1e-6 + angle * angle * a.norm / 10, "∂J₁a at \(angle) rad")
            #expect(maxDiff(analytic.second, second) < 1e-6 + angle * angle * a.norm / 10, "∂J₂a at \(angle) rad")
        }
    }

    @Test func inverseJacobiansAreInverses() {
        for phi in Self.samples() {
            #expect(maxDiff(SO3.leftJacobian(phi) * SO3.leftJacobianInverse(phi), .identity) < 1e-10)
            #expect(maxDiff(SO3.rightJacobian(phi) * SO3.rightJacobianInverse(phi), .identity) < 1e-10)
        }
    }

    @Test func jacobianIdentities() {
        // Jl(φ) = R Jr(φ) and Jl(φ) = Jr(−φ) (Barfoot 2017, §7.1.5).
        for phi in Self.samples() {
            let r = SO3.exp(phi)
            #expect(maxDiff(SO3.leftJacobian(phi), r * SO3.rightJacobian(phi)) < 1e-12)
            #expect(maxDiff(SO3.leftJacobian(phi), SO3.rightJacobian(-phi)) < 1e-15)
        }
    }

    @Test func seriesBranchesAreContinuousAtTheirThresholds() {
        var rng = SeededGenerator(seed: 12)
        let axis = rng.unitVector()
        for threshold in [1e-5, 1e-4, 1e-3, 1e-2] {
            // 10⁻¹² apart, so the true maps differ by ~10⁻¹⁴; a wrong branch would show far more.
            let below = axis * (threshold * (1 - 1e-12)), above = axis * (threshold * (1 + 1e-12))
            #expect(maxDiff(SO3.leftJacobian(below), SO3.leftJacobian(above)) < 1e-13)
            #expect(maxDiff(SO3.leftJacobianInverse(below), SO3.leftJacobianInverse(above)) < 1e-13)
            #expect(maxDiff(SO3.exp(below), SO3.exp(above)) < 1e-13)
        }
    }
}

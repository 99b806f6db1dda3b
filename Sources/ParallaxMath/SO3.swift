import Foundation

/// The rotation group SO(3): exponential and logarithm maps and their Jacobians.
///
/// Formulas follow Barfoot, *State Estimation for Robotics* (2017), §7.1.3 (exp/log) and §7.1.5 (Jacobians), and Forster et al., "On-Manifold Preintegration for Real-Time Visual-Inertial Odometry"
/// (TRO 2017), eqs. (8)–(9). Rotations here are matrices; ``Quaternion`` offers the same maps on
/// quaternions.
///
/// Every map is written `I + a(θ) φ^ + b(θ) (φ^)²`. The scalar coefficients are where precision is
/// lost: `1 − cos θ` is evaluated as `2 sin²(θ/2)` (no cancellation), and the two coefficients that
/// genuinely cancel (`(θ − sin θ)/θ³` and `(1 − (θ/2)cot(θ/2))/θ²`) switch to their Taylor series
/// below θ = 10⁻², where the first omitted term is below 10⁻¹⁸.
public enum SO3 {
    /// The hat operator: the skew-symmetric matrix of `v`.
    @inlinable public static func hat(_ v: Vector3) -> Matrix3 { Matrix3.skew(v) }

    /// The vee operator: the vector of a skew-symmetric matrix (antisymmetric part is used).
    @inlinable public static func vee(_ m: Matrix3) -> Vector3 {
        Vector3(m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1]) * 0.5
    }

    /// Below this angle the cancelling coefficients use their Taylor series.
    @usableFromInline static let seriesThreshold = 1e-2

    /// `sin θ / θ`, exact for all θ (no cancellation), 1 at θ = 0.
    @inlinable static func sinc(_ theta: Double) -> Double {
        theta < 1e-8 ? 1 - theta * theta / 6 : sin(theta) / theta
    }

    /// `(1 − cos θ) / θ²`, evaluated as `½ (sin(θ/2) / (θ/2))²` to avoid cancellation.
    @inlinable static func oneMinusCosOverTheta2(_ theta: Double) -> Double {
        let s = sinc(theta / 2)
        return 0.5 * s * s
    }

    /// `(θ − sin θ) / θ³`, with its Taylor series `1/6 − θ²/120 + θ⁴/5040 − θ⁶/362880` near zero.
    @inlinable static func thetaMinusSinOverTheta3(_ theta: Double) -> Double {
        let t2 = theta * theta
        if theta < seriesThreshold { return 1.0 / 6 - t2 / 120 + t2 * t2 / 5040 - t2 * t2 * t2 / 362_880 }
        return (theta - sin(theta)) / (t2 * theta)
    }

    /// `(θ²/2 + cos θ − 1) / θ⁴`, with its Taylor series `1/24 − θ²/720 + θ⁴/40320 − θ⁶/3628800`
    /// below 0.1 rad, where the closed form loses digits to cancellation.
    @inlinable static func cosineRemainderOverTheta4(_ theta: Double) -> Double {
        let t2 = theta * theta
        if theta < 0.1 { return 1.0 / 24 - t2 / 720 + t2 * t2 / 40320 - t2 * t2 * t2 / 3_628_800 }
        return (0.5 * t2 + cos(theta) - 1) / (t2 * t2)
    }

    /// `(1 − (θ/2) cot(θ/2)) / θ²`, the coefficient of `(φ^)²` in `Jl⁻¹` (Barfoot §7.1.5, rewritten),
    /// with its series `1/12 + θ²/720 + θ⁴/30240 + θ⁶/1209600` near zero.
    @inlinable static func inverseJacobianCoefficient(_ theta: Double) -> Double {
        let t2 = theta * theta
        if theta < seriesThreshold { return 1.0 / 12 + t2 / 720 + t2 * t2 / 30_240 + t2 * t2 * t2 / 1_209_600 }
        let half = theta / 2
        return (1 - half * cos(half) / sin(half)) / t2
    }

    /// `exp(φ^)`: Rodrigues' formula `I + (sin θ/θ) φ^ + ((1 − cos θ)/θ²) (φ^)²` (Barfoot §7.1.3).
    public static func exp(_ phi: Vector3) -> Matrix3 {
        let theta = phi.norm
        let k = hat(phi)
        return Matrix3.identity + sinc(theta) * k + oneMinusCosOverTheta2(theta) * (k * k)
    }

    /// `log(R)`: the rotation vector φ with `exp(φ) == R`, |φ| in [0, π].
    /// Goes through the quaternion (Shepperd's method), which stays accurate near 0 and near π,
    /// where the textbook `acos((tr R − 1)/2)` loses half the digits.
    public static func log(_ r: Matrix3) -> Vector3 { Quaternion(rotationMatrix: r).rotationVector }

    /// Right Jacobian `Jr(φ) = Jl(−φ)`: `exp(φ + δ) ≈ exp(φ) exp(Jr(φ) δ)` (Barfoot §7.1.5).
    public static func rightJacobian(_ phi: Vector3) -> Matrix3 { leftJacobian(-phi) }

    /// Left Jacobian `Jl(φ) = I + ((1 − cos θ)/θ²) φ^ + ((θ − sin θ)/θ³) (φ^)²`:
    /// `exp(φ + δ) ≈ exp(Jl(φ) δ) exp(φ)` (Barfoot §7.1.5).
    public static func leftJacobian(_ phi: Vector3) -> Matrix3 {
        let theta = phi.norm
        let k = hat(phi)
        return Matrix3.identity + oneMinusCosOverTheta2(theta) * k + thetaMinusSinOverTheta3(theta) * (k * k)
    }

    /// Inverse of the left Jacobian, `I − ½ φ^ + ((1 − (θ/2)cot(θ/2))/θ²) (φ^)²` (Barfoot §7.1.5).
    /// Singular at θ = 2π; fine on the principal range |φ| ≤ π.
    public static func leftJacobianInverse(_ phi: Vector3) -> Matrix3 {
        let theta = phi.norm
        let k = hat(phi)
        return Matrix3.identity - 0.5 * k + inverseJacobianCoefficient(theta) * (k * k)
    }

    /// Inverse of the right Jacobian, `Jr⁻¹(φ) = Jl⁻¹(−φ)`.
    public static func rightJacobianInverse(_ phi: Vector3) -> Matrix3 { leftJacobianInverse(-phi) }

    /// The first and second integrals of a rotation turning at a constant rate through `phi`, with
    /// time scaled to 0…1: `J₁ = ∫₀¹ exp(sφ) ds` (the left Jacobian) and
    /// `J₂ = ∫₀¹ ∫₀ˢ exp(uφ) du ds = Σₙ (φ^)ⁿ/(n+2)!`. A constant body-frame vector `a` seen from
    /// a body turning so for `Δt` integrates to `R·J₁·a·Δt` once and `R·J₂·a·Δt²` twice: the
    /// closed-form integration of piecewise-constant IMU readings (Eckenhoff, Geneva & Huang,
    /// IJRR 2019). In closed form (Rodrigues), `J₂ = ½I + ((θ − sin θ)/θ³) φ^ + ((θ²/2 + cos θ − 1)/θ⁴) (φ^)²`.
    public static func rotationIntegrals(_ phi: Vector3) -> (first: Matrix3, second: Matrix3) {
        let theta = phi.norm
        let k = hat(phi)
        let second = Matrix3.identity * 0.5 + thetaMinusSinOverTheta3(theta) * k + cosineRemainderOverTheta4(theta) * (k * k)
        return (leftJacobian(phi), second)
    }

    /// `∂(J₁a)/∂φ` and `∂(J₂a)/∂φ` for ``rotationIntegrals(_:)``, from the series
    /// `J₁a = a + ½φ×a + ⅙φ×(φ×a) + …` and `J₂a = ½a + ⅙φ×a + ¹⁄₂₄φ×(φ×a) + …`, with
    /// `∂(φ×(φ×a))/∂φ = −[φ×a]× − [φ]×[a]×`. The terms left out are about φ²|a|/12: 3·10⁻⁴ m/s²
    /// per rad at 0.02 rad (4 °/s … 230 °/s over one 200 Hz interval), against |a|/2 for the first.
    /// A gyro bias changes φ, so these enter the bias Jacobians.
    public static func rotationIntegralDerivatives(_ phi: Vector3, applied a: Vector3) -> (first: Matrix3, second: Matrix3) {
        let ax = hat(a)
        let quadratic = hat(phi.cross(a)) + hat(phi) * ax
        return (ax * -0.5 + quadratic * (-1.0 / 6), ax * (-1.0 / 6) + quadratic * (-1.0 / 24))
    }

    /// Projects a nearly orthonormal matrix back onto SO(3) (via the quaternion).
    public static func orthonormalize(_ r: Matrix3) -> Matrix3 { Quaternion(rotationMatrix: r).rotationMatrix }
}

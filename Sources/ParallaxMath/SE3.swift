import Foundation

/// A 6-vector in the tangent space of SE(3): `ξ = [ρ; φ]`, **translation first, rotation second**
/// (Barfoot 2017, §7.1.2 ordering). Index 0–2 are `rho` (ρ), 3–5 are `phi` (φ).
///
/// Beware: Sophus and GTSAM's `Pose3` order the twist as `[ω; v]` (rotation first) in some APIs;
/// convert with ``init(rho:phi:)`` rather than reusing their arrays.
public struct Vector6: Equatable, Sendable, CustomStringConvertible {
    /// Translational part ρ (components 0–2).
    public var rho: Vector3
    /// Rotational part φ (components 3–5).
    public var phi: Vector3

    /// Creates `ξ = [ρ; φ]`.
    @inlinable public init(rho: Vector3, phi: Vector3) { self.rho = rho; self.phi = phi }

    /// Creates a vector from six values `[ρx, ρy, ρz, φx, φy, φz]`.
    public init(_ v: [Double]) {
        precondition(v.count == 6, "Vector6 needs 6 values")
        self.init(rho: Vector3(v[0], v[1], v[2]), phi: Vector3(v[3], v[4], v[5]))
    }

    /// The zero vector.
    public static let zero = Vector6(rho: .zero, phi: .zero)

    /// Component `i` in 0..<6 (ρ first).
    @inlinable public subscript(i: Int) -> Double {
        get { i < 3 ? rho[i] : phi[i - 3] }
        set { if i < 3 { rho[i] = newValue } else { phi[i - 3] = newValue } }
    }

    /// The six components as an array, ρ first.
    public var array: [Double] { [rho.x, rho.y, rho.z, phi.x, phi.y, phi.z] }

    /// Euclidean norm.
    public var norm: Double { (rho.squaredNorm + phi.squaredNorm).squareRoot() }

    /// Componentwise sum.
    @inlinable public static func + (a: Vector6, b: Vector6) -> Vector6 { Vector6(rho: a.rho + b.rho, phi: a.phi + b.phi) }
    /// Componentwise difference.
    @inlinable public static func - (a: Vector6, b: Vector6) -> Vector6 { Vector6(rho: a.rho - b.rho, phi: a.phi - b.phi) }
    /// Negation.
    @inlinable public static prefix func - (a: Vector6) -> Vector6 { Vector6(rho: -a.rho, phi: -a.phi) }
    /// Scalar multiple.
    @inlinable public static func * (a: Vector6, s: Double) -> Vector6 { Vector6(rho: a.rho * s, phi: a.phi * s) }
    /// Scalar multiple.
    @inlinable public static func * (s: Double, a: Vector6) -> Vector6 { a * s }

    /// A readable rendering for logs and test failures.
    public var description: String { "Vector6(rho: \(rho), phi: \(phi))" }
}

extension Matrix {
    /// A 6×6 matrix times a ``Vector6`` (ρ first).
    public static func * (a: Matrix, v: Vector6) -> Vector6 {
        precondition(a.rows == 6 && a.cols == 6, "Matrix * Vector6 needs a 6×6 matrix")
        return Vector6(a * v.array)
    }
}

/// The rigid-motion group SE(3): exponential and logarithm maps, adjoint and Jacobians.
///
/// Formulas: Barfoot, *State Estimation for Robotics* (2017), §7.1.2 (hat operators), §7.1.3 (exp/log),
/// §7.1.4 (adjoints) and §7.1.5 (the `Q` matrix and the 6×6 Jacobians).
/// Ordering: **ξ = [ρ; φ], translation first**, everywhere in this type (see ``Vector6``); the 6×6
/// matrices are blocked the same way, `[[·ρρ, ·ρφ], [·φρ, ·φφ]]`.
///
/// Perturbations: `exp(ξ + δ) ≈ exp(𝒥l(ξ) δ) exp(ξ) ≈ exp(ξ) exp(𝒥r(ξ) δ)`, and
/// `T exp(ξ) T⁻¹ = exp(Ad(T) ξ)`.
public enum SE3 {
    /// Below this rotation angle ``q(_:)`` uses its Taylor series.
    public static let qSeriesThreshold = 0.1

    /// `exp(ξ^)`: rotation `C = exp(φ^)`, translation `r = Jl(φ) ρ` (Barfoot §7.1.3).
    public static func exp(_ xi: Vector6) -> RigidTransform {
        RigidTransform(rotation: Quaternion(rotationVector: xi.phi), translation: SO3.leftJacobian(xi.phi) * xi.rho)
    }

    /// `exp` for a `(rho, phi)` pair; same as ``exp(_:)-(Vector6)``.
    public static func exp(_ xi: (rho: Vector3, phi: Vector3)) -> RigidTransform { exp(Vector6(rho: xi.rho, phi: xi.phi)) }

    /// `log(T)`: `φ = log(C)`, `ρ = Jl(φ)⁻¹ r`, with |φ| ≤ π (Barfoot §7.1.3).
    public static func log(_ t: RigidTransform) -> Vector6 {
        let phi = t.rotation.rotationVector
        return Vector6(rho: SO3.leftJacobianInverse(phi) * t.translation, phi: phi)
    }

    /// The 4×4 matrix `ξ^ = [[φ^, ρ], [0, 0]]` (Barfoot §7.1.2).
    public static func hat(_ xi: Vector6) -> Matrix4 {
        var m = Matrix4(rotation: SO3.hat(xi.phi), translation: xi.rho)
        m[3, 3] = 0
        return m
    }

    /// The 6×6 operator `ξ^⋏ = [[φ^, ρ^], [0, φ^]]` (Barfoot §7.1.2), the adjoint of the algebra.
    public static func curlyHat(_ xi: Vector6) -> Matrix {
        var m = Matrix(rows: 6, cols: 6)
        let p = SO3.hat(xi.phi)
        m.setBlock(row: 0, col: 0, p)
        m.setBlock(row: 0, col: 3, SO3.hat(xi.rho))
        m.setBlock(row: 3, col: 3, p)
        return m
    }

    /// The adjoint `Ad(T) = [[C, r^ C], [0, C]]` (Barfoot §7.1.4): `T exp(ξ^) T⁻¹ = exp((Ad(T) ξ)^)`.
    public static func adjoint(_ t: RigidTransform) -> Matrix {
        let c = t.rotationMatrix
        var m = Matrix(rows: 6, cols: 6)
        m.setBlock(row: 0, col: 0, c)
        m.setBlock(row: 0, col: 3, SO3.hat(t.translation) * c)
        m.setBlock(row: 3, col: 3, c)
        return m
    }

    /// The matrix `Q(ξ)` coupling translation and rotation in the SE(3) Jacobian (Barfoot §7.1.5):
    ///
    ///     Q = ½ρ^ + c₁ (φ^ρ^ + ρ^φ^ + φ^ρ^φ^) + c₂ (φ^φ^ρ^ + ρ^φ^φ^ − 3φ^ρ^φ^)
    ///           + c₃ (φ^ρ^φ^φ^ + φ^φ^ρ^φ^)
    ///
    /// with `c₁ = (θ − sin θ)/θ³`, `c₂ = (θ² + 2cos θ − 2)/(2θ⁴)`, `c₃ = (2θ − 3sin θ + θcos θ)/(2θ⁵)`.
    /// All three cancel badly for small θ (`c₂`'s numerator is ~θ⁴/12 built from O(1) terms), so below
    /// θ = 0.1 their Taylor series to θ⁶ are used; the first omitted terms are below 3·10⁻¹⁶:
    /// `c₁ = 1/6 − θ²/120 + θ⁴/5040 − θ⁶/362880`, `c₂ = 1/24 − θ²/720 + θ⁴/40320 − θ⁶/3628800`,
    /// `c₃ = 1/120 − θ²/2520 + θ⁴/120960 − θ⁶/9979200`.
    public static func q(_ xi: Vector6) -> Matrix3 {
        let theta = xi.phi.norm
        let t2 = theta * theta, t4 = t2 * t2, t6 = t4 * t2
        let c1: Double, c2: Double, c3: Double
        if theta < qSeriesThreshold {
            c1 = 1.0 / 6 - t2 / 120 + t4 / 5040 - t6 / 362_880
            c2 = 1.0 / 24 - t2 / 720 + t4 / 40_320 - t6 / 3_628_800
            c3 = 1.0 / 120 - t2 / 2520 + t4 / 120_960 - t6 / 9_979_200
        } else {
            let s = sin(theta), c = cos(theta)
            c1 = (theta - s) / (t2 * theta)
            c2 = (t2 + 2 * c - 2) / (2 * t4)
            c3 = (2 * theta - 3 * s + theta * c) / (2 * t4 * theta)
        }
        let p = SO3.hat(xi.phi), r = SO3.hat(xi.rho)
        let pr = p * r, rp = r * p, prp = pr * p, pp = p * p
        return 0.5 * r + c1 * (pr + rp + prp) + c2 * (pp * r + r * pp - 3 * prp) + c3 * (prp * p + pp * r * p)
    }

    /// Left Jacobian `𝒥l(ξ) = [[J, Q], [0, J]]`, `J = Jl(φ)` (Barfoot §7.1.5):
    /// `exp((ξ + δ)^) ≈ exp((𝒥l(ξ) δ)^) exp(ξ^)`.
    public static func leftJacobian(_ xi: Vector6) -> Matrix {
        let j = SO3.leftJacobian(xi.phi)
        var m = Matrix(rows: 6, cols: 6)
        m.setBlock(row: 0, col: 0, j)
        m.setBlock(row: 0, col: 3, q(xi))
        m.setBlock(row: 3, col: 3, j)
        return m
    }

    /// Inverse left Jacobian `[[J⁻¹, −J⁻¹ Q J⁻¹], [0, J⁻¹]]` (Barfoot §7.1.5), formed in closed form.
    public static func leftJacobianInverse(_ xi: Vector6) -> Matrix {
        let ji = SO3.leftJacobianInverse(xi.phi)
        var m = Matrix(rows: 6, cols: 6)
        m.setBlock(row: 0, col: 0, ji)
        m.setBlock(row: 0, col: 3, -(ji * q(xi) * ji))
        m.setBlock(row: 3, col: 3, ji)
        return m
    }

    /// Right Jacobian `𝒥r(ξ) = 𝒥l(−ξ)`: `exp((ξ + δ)^) ≈ exp(ξ^) exp((𝒥r(ξ) δ)^)` (Barfoot §7.1.5).
    public static func rightJacobian(_ xi: Vector6) -> Matrix { leftJacobian(-xi) }

    /// Inverse right Jacobian `𝒥r⁻¹(ξ) = 𝒥l⁻¹(−ξ)`.
    public static func rightJacobianInverse(_ xi: Vector6) -> Matrix { leftJacobianInverse(-xi) }
}

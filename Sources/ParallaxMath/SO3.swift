import Foundation

/// The rotation group SO(3): exponential and logarithm maps and their Jacobians.
///
/// Formulas follow Barfoot, *State Estimation for Robotics* (2017), §7.1, and Forster et al.,
/// "On-Manifold Preintegration for Real-Time Visual-Inertial Odometry" (TRO 2017), eqs. (8)–(9).
/// Rotations here are matrices; ``Quaternion`` offers the same maps on quaternions.
public enum SO3 {
    /// The hat operator: the skew-symmetric matrix of `v`.
    @inlinable public static func hat(_ v: Vector3) -> Matrix3 { Matrix3.skew(v) }

    /// The vee operator: the vector of a skew-symmetric matrix (antisymmetric part is used).
    @inlinable public static func vee(_ m: Matrix3) -> Vector3 {
        Vector3(m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1]) * 0.5
    }

    /// `exp(φ^)`: Rodrigues' formula, with a series expansion near zero.
    public static func exp(_ phi: Vector3) -> Matrix3 {
        let theta2 = phi.squaredNorm
        let theta = theta2.squareRoot()
        let a: Double, b: Double
        if theta < 1e-5 {
            a = 1 - theta2 / 6
            b = 0.5 - theta2 / 24
        } else {
            a = sin(theta) / theta
            b = (1 - cos(theta)) / theta2
        }
        let k = hat(phi)
        return Matrix3.identity + a * k + b * (k * k)
    }

    /// `log(R)`: the rotation vector φ with `exp(φ) == R`, |φ| in [0, π].
    /// Goes through the quaternion, which stays accurate near 0 and near π.
    public static func log(_ r: Matrix3) -> Vector3 { Quaternion(rotationMatrix: r).rotationVector }

    /// Right Jacobian `Jr(φ)`: `exp(φ + δ) ≈ exp(φ) exp(Jr(φ) δ)`.
    public static func rightJacobian(_ phi: Vector3) -> Matrix3 { leftJacobian(-phi) }

    /// Left Jacobian `Jl(φ)`: `exp(φ + δ) ≈ exp(Jl(φ) δ) exp(φ)`.
    public static func leftJacobian(_ phi: Vector3) -> Matrix3 {
        let theta2 = phi.squaredNorm
        let theta = theta2.squareRoot()
        let k = hat(phi)
        let a: Double, b: Double
        if theta < 1e-5 {
            a = 0.5 - theta2 / 24
            b = 1.0 / 6 - theta2 / 120
        } else {
            a = (1 - cos(theta)) / theta2
            b = (theta - sin(theta)) / (theta2 * theta)
        }
        return Matrix3.identity + a * k + b * (k * k)
    }

    /// Inverse of the left Jacobian.
    public static func leftJacobianInverse(_ phi: Vector3) -> Matrix3 {
        let theta2 = phi.squaredNorm
        let theta = theta2.squareRoot()
        let k = hat(phi)
        let c: Double
        if theta < 1e-5 {
            c = 1.0 / 12 + theta2 / 720
        } else {
            c = (1 / theta2) * (1 - (theta * sin(theta)) / (2 * (1 - cos(theta))))
        }
        return Matrix3.identity - 0.5 * k + c * (k * k)
    }

    /// Inverse of the right Jacobian.
    public static func rightJacobianInverse(_ phi: Vector3) -> Matrix3 { leftJacobianInverse(-phi) }

    /// Projects a nearly orthonormal matrix back onto SO(3) (via the quaternion).
    public static func orthonormalize(_ r: Matrix3) -> Matrix3 { Quaternion(rotationMatrix: r).rotationMatrix }
}

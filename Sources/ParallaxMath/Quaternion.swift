import Foundation

/// A unit quaternion in the **Hamilton** convention, `q = w + xi + yj + zk`.
///
/// `q.act(v)` computes `q * v * q⁻¹`, which rotates a vector from the child frame into the
/// parent frame: for `q_world_body`, `v_world = q_world_body.act(v_body)`
/// (see `conventions.md`). The JPL convention is never used in Parallax.
public struct Quaternion: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Scalar part.
    public var w: Double
    /// Vector part.
    public var x: Double, y: Double, z: Double

    /// Creates a quaternion from its components (not normalised).
    @inlinable public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    /// Creates a quaternion from a scalar part and a vector part.
    @inlinable public init(w: Double, vector v: Vector3) { self.init(w: w, x: v.x, y: v.y, z: v.z) }

    /// The identity rotation.
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// The rotation of `angle` radians about the unit vector `axis` (right-hand rule).
    @inlinable public init(axis: Vector3, angle: Double) {
        let a = axis.normalized
        let h = angle / 2
        self.init(w: cos(h), vector: a * sin(h))
    }

    /// The rotation `exp(rotationVector)`: rotate by `|v|` radians about `v / |v|`.
    /// Accurate for tiny angles (uses a Taylor series near zero).
    @inlinable public init(rotationVector v: Vector3) {
        let theta = v.norm
        let half = theta / 2
        let k: Double
        if theta < 1e-8 {
            k = 0.5 - theta * theta / 48
        } else {
            k = sin(half) / theta
        }
        self.init(w: cos(half), vector: v * k)
    }

    /// The quaternion of a rotation matrix (Shepperd's method, robust for all angles).
    /// The input is assumed orthonormal with determinant +1.
    public init(rotationMatrix m: Matrix3) {
        let t = m.trace
        if t > 0 {
            let s = (t + 1).squareRoot() * 2
            self.init(w: 0.25 * s, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            self.init(w: (m[2, 1] - m[1, 2]) / s, x: 0.25 * s, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] > m[2, 2] {
            let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
            self.init(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: 0.25 * s, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
            self.init(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: 0.25 * s)
        }
        self = self.normalized.canonical
    }

    /// The vector part `(x, y, z)`.
    @inlinable public var vector: Vector3 { Vector3(x, y, z) }
    /// Components as `(x, y, z, w)`, the TUM file order.
    @inlinable public var xyzw: Vector4 { Vector4(x, y, z, w) }

    /// The norm `sqrt(w² + x² + y² + z²)`.
    @inlinable public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }

    /// The quaternion scaled to unit norm.
    @inlinable public var normalized: Quaternion {
        let n = norm
        return n > 0 ? Quaternion(w: w / n, x: x / n, y: y / n, z: z / n) : .identity
    }

    /// The same rotation with a non-negative scalar part (`q` and `-q` are the same rotation).
    @inlinable public var canonical: Quaternion { w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self }

    /// The conjugate, which for a unit quaternion is the inverse rotation.
    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    /// The inverse rotation (assumes unit norm).
    @inlinable public var inverse: Quaternion { conjugate }

    /// True when all components are finite.
    @inlinable public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// Hamilton product: `(a * b).act(v) == a.act(b.act(v))`.
    @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates `v`: `q * v * q⁻¹`.
    @inlinable public func act(_ v: Vector3) -> Vector3 {
        let u = vector
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// The rotation matrix `R` with `R * v == act(v)`.
    @inlinable public var rotationMatrix: Matrix3 {
        let q = normalized
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return Matrix3(
            rows: Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    }

    /// The rotation vector `log(q)` (axis × angle, angle in [0, π]).
    public var rotationVector: Vector3 {
        let q = normalized.canonical
        let s = q.vector.norm
        if s < 1e-8 {
            // log near identity: v ≈ 2 u / w (1 - s²/(3w²)).
            return q.vector * (2 / q.w) * (1 - s * s / (3 * q.w * q.w))
        }
        let angle = 2 * atan2(s, q.w)
        return q.vector * (angle / s)
    }

    /// The rotation angle in radians, in [0, π].
    public var angle: Double { rotationVector.norm }

    /// The angle in radians between two rotations.
    public func angle(to other: Quaternion) -> Double { (self.inverse * other).angle }

    /// Spherical linear interpolation along the shortest arc (`t` in [0, 1]).
    public func slerp(to other: Quaternion, t: Double) -> Quaternion {
        let delta = (self.inverse * other).canonical
        return (self * Quaternion(rotationVector: delta.rotationVector * t)).normalized
    }

    /// A readable rendering for logs and test failures.
    public var description: String { "Quaternion(w: \(w), x: \(x), y: \(y), z: \(z))" }
}

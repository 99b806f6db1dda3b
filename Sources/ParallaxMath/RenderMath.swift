import Foundation

/// A unit quaternion of `Float` (Hamilton convention) for node orientations in the scene graph.
///
/// Same meaning as ``Quaternion``: `act(v)` rotates from the child frame into the parent frame.
public struct Quaternionf: Equatable, Hashable, Sendable {
    /// Scalar part.
    public var w: Float
    /// Vector part.
    public var x: Float, y: Float, z: Float

    /// Creates a quaternion from its components (not normalised).
    @inlinable public init(w: Float, x: Float, y: Float, z: Float) { self.w = w; self.x = x; self.y = y; self.z = z }

    /// The identity rotation.
    public static let identity = Quaternionf(w: 1, x: 0, y: 0, z: 0)

    /// The rotation of `angle` radians about `axis` (right-hand rule).
    public init(axis: Vector3f, angle: Float) {
        let a = axis.normalized
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// Converts a double-precision quaternion.
    public init(_ q: Quaternion) { self.init(w: Float(q.w), x: Float(q.x), y: Float(q.y), z: Float(q.z)) }

    /// Converts to double precision.
    public var double: Quaternion { Quaternion(w: Double(w), x: Double(x), y: Double(y), z: Double(z)) }

    /// The quaternion scaled to unit norm (identity if zero).
    public var normalized: Quaternionf {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        return n > 0 ? Quaternionf(w: w / n, x: x / n, y: y / n, z: z / n) : .identity
    }

    /// The inverse rotation (assumes unit norm).
    public var inverse: Quaternionf { Quaternionf(w: w, x: -x, y: -y, z: -z) }

    /// True when all components are finite.
    public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// Hamilton product.
    public static func * (a: Quaternionf, b: Quaternionf) -> Quaternionf {
        Quaternionf(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates `v`.
    public func act(_ v: Vector3f) -> Vector3f {
        let u = Vector3f(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// The rotation as a homogeneous 4×4 matrix.
    public var matrix: Matrix4f {
        let q = normalized
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return Matrix4f(
            columns: Vector4f(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y), 0),
            Vector4f(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x), 0),
            Vector4f(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y), 0),
            Vector4f(0, 0, 0, 1))
    }
}

extension Matrix4f {
    /// A translation matrix.
    public static func translation(_ t: Vector3f) -> Matrix4f {
        var m = Matrix4f.identity
        m.columns.3 = Vector4f(t.x, t.y, t.z, 1)
        return m
    }

    /// A non-uniform scale matrix.
    public static func scale(_ s: Vector3f) -> Matrix4f {
        Matrix4f(columns: Vector4f(s.x, 0, 0, 0), Vector4f(0, s.y, 0, 0), Vector4f(0, 0, s.z, 0), Vector4f(0, 0, 0, 1))
    }

    /// `T * R * S`: the local transform of a scene node.
    public static func compose(translation t: Vector3f, rotation r: Quaternionf, scale s: Vector3f) -> Matrix4f {
        translation(t) * r.matrix * scale(s)
    }

    /// OpenGL perspective projection (right-handed, camera looks down -z, NDC z in [-1, 1]).
    /// - Parameters: `fovY` vertical field of view in radians; `aspect` width / height.
    public static func perspective(fovY: Float, aspect: Float, near: Float, far: Float) -> Matrix4f {
        let f = 1 / tan(fovY / 2)
        return Matrix4f(
            columns: Vector4f(f / aspect, 0, 0, 0), Vector4f(0, f, 0, 0),
            Vector4f(0, 0, (far + near) / (near - far), -1), Vector4f(0, 0, 2 * far * near / (near - far), 0))
    }

    /// OpenGL orthographic projection of the box [left, right] × [bottom, top] × [-near, -far].
    public static func orthographic(left: Float, right: Float, bottom: Float, top: Float, near: Float, far: Float) -> Matrix4f {
        Matrix4f(
            columns: Vector4f(2 / (right - left), 0, 0, 0), Vector4f(0, 2 / (top - bottom), 0, 0),
            Vector4f(0, 0, -2 / (far - near), 0),
            Vector4f(-(right + left) / (right - left), -(top + bottom) / (top - bottom), -(far + near) / (far - near), 1))
    }

    /// A view matrix (world → camera) for a camera at `eye` looking at `target`, `up` roughly up.
    public static func lookAt(eye: Vector3f, target: Vector3f, up: Vector3f) -> Matrix4f {
        let f = (target - eye).normalized
        let s = f.cross(up).normalized
        let u = s.cross(f)
        return Matrix4f(
            columns: Vector4f(s.x, u.x, -f.x, 0), Vector4f(s.y, u.y, -f.y, 0), Vector4f(s.z, u.z, -f.z, 0),
            Vector4f(-s.dot(eye), -u.dot(eye), f.dot(eye), 1))
    }

    /// The transpose.
    public var transpose: Matrix4f {
        var t = Matrix4f.identity
        for r in 0..<4 { for c in 0..<4 { t[r, c] = self[c, r] } }
        return t
    }

    /// The inverse (computed in double precision), or `nil` when singular.
    public var inverse: Matrix4f? { double.inverse?.float }

    /// Transforms a point (w = 1) and divides by w.
    public func transformPoint(_ p: Vector3f) -> Vector3f {
        let h = self * Vector4f(p.x, p.y, p.z, 1)
        return Vector3f(h.x, h.y, h.z) / h.w
    }

    /// Transforms a direction (w = 0).
    public func transformDirection(_ v: Vector3f) -> Vector3f {
        let h = self * Vector4f(v.x, v.y, v.z, 0)
        return Vector3f(h.x, h.y, h.z)
    }
}

extension Matrix4 {
    /// The inverse by Gauss–Jordan elimination with partial pivoting (Golub & Van Loan,
    /// *Matrix Computations*, 4th ed., §3.2 and §3.4), or `nil` when the matrix is singular.
    ///
    /// The singularity test is relative: a pivot no larger than `16 ε max|aᵢⱼ|` counts as zero, so a
    /// uniformly tiny (or huge) but well-conditioned matrix still inverts, unlike a fixed
    /// determinant threshold.
    public var inverse: Matrix4? {
        var a = rowMajor
        var inv = Matrix4.identity.rowMajor
        let scale = a.reduce(0) { max($0, abs($1)) }
        guard scale.isFinite, scale > 0 else { return nil }
        let tiny = 16 * Double.ulpOfOne * scale
        for col in 0..<4 {
            var pivotRow = col
            for r in (col + 1)..<4 where abs(a[r * 4 + col]) > abs(a[pivotRow * 4 + col]) { pivotRow = r }
            let pivot = a[pivotRow * 4 + col]
            guard abs(pivot) > tiny else { return nil }
            if pivotRow != col {
                for c in 0..<4 { a.swapAt(col * 4 + c, pivotRow * 4 + c); inv.swapAt(col * 4 + c, pivotRow * 4 + c) }
            }
            for c in 0..<4 { a[col * 4 + c] /= pivot; inv[col * 4 + c] /= pivot }
            for r in 0..<4 where r != col {
                let f = a[r * 4 + col]
                guard f != 0 else { continue }
                for c in 0..<4 { a[r * 4 + c] -= f * a[col * 4 + c]; inv[r * 4 + c] -= f * inv[col * 4 + c] }
            }
        }
        return Matrix4(rowMajor: inv)
    }
}

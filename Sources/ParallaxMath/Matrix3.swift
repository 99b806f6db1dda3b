/// A 3×3 matrix of `Double`, stored as three columns.
///
/// Used for rotations, covariances and small linear systems. Subscript is `m[row, column]`.
public struct Matrix3: Equatable, Sendable, CustomStringConvertible {
    /// Columns of the matrix.
    public var columns: (Vector3, Vector3, Vector3)

    /// Creates a matrix from its three columns.
    @inlinable public init(columns c0: Vector3, _ c1: Vector3, _ c2: Vector3) { columns = (c0, c1, c2) }

    /// Creates a matrix from its three rows.
    @inlinable public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        columns = (Vector3(r0.x, r1.x, r2.x), Vector3(r0.y, r1.y, r2.y), Vector3(r0.z, r1.z, r2.z))
    }

    /// Creates a matrix from nine values in row-major order.
    @inlinable public init(rowMajor v: [Double]) {
        precondition(v.count == 9, "Matrix3(rowMajor:) needs 9 values")
        self.init(rows: Vector3(v[0], v[1], v[2]), Vector3(v[3], v[4], v[5]), Vector3(v[6], v[7], v[8]))
    }

    /// A diagonal matrix.
    @inlinable public init(diagonal d: Vector3) {
        columns = (Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    /// I + diag(`d`) + the strictly lower triangle `l` = (row 1 col 0, row 2 col 0, row 2 col 1): the
    /// shape of an IMU's scale-and-misalignment matrix (Kalibr's `scale-misalignment` model).
    @inlinable public init(identityPlusDiagonal d: Vector3, strictlyLower l: Vector3) {
        self.init(rows: Vector3(1 + d.x, 0, 0), Vector3(l.x, 1 + d.y, 0), Vector3(l.y, l.z, 1 + d.z))
    }

    /// The identity matrix.
    public static let identity = Matrix3(diagonal: Vector3(1, 1, 1))
    /// The zero matrix.
    public static let zero = Matrix3(diagonal: Vector3(0, 0, 0))

    /// Element at `row`, `column` (both 0-based).
    @inlinable public subscript(row: Int, column: Int) -> Double {
        get {
            switch column {
            case 0: return columns.0[row]
            case 1: return columns.1[row]
            default: return columns.2[row]
            }
        }
        set {
            switch column {
            case 0: columns.0[row] = newValue
            case 1: columns.1[row] = newValue
            default: columns.2[row] = newValue
            }
        }
    }

    /// Row `i` as a vector.
    @inlinable public func row(_ i: Int) -> Vector3 { Vector3(columns.0[i], columns.1[i], columns.2[i]) }
    /// Column `j` as a vector.
    @inlinable public func column(_ j: Int) -> Vector3 {
        switch j { case 0: return columns.0; case 1: return columns.1; default: return columns.2 }
    }

    /// The transpose.
    @inlinable public var transpose: Matrix3 { Matrix3(rows: columns.0, columns.1, columns.2) }

    /// The determinant.
    @inlinable public var determinant: Double { columns.0.dot(columns.1.cross(columns.2)) }

    /// The trace.
    @inlinable public var trace: Double { columns.0.x + columns.1.y + columns.2.z }

    /// The inverse, or `nil` when the matrix is singular (|det| below `1e-300`).
    @inlinable public var inverse: Matrix3? {
        let det = determinant
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        let r0 = columns.1.cross(columns.2) / det
        let r1 = columns.2.cross(columns.0) / det
        let r2 = columns.0.cross(columns.1) / det
        return Matrix3(rows: r0, r1, r2)
    }

    /// Frobenius norm.
    @inlinable public var frobeniusNorm: Double {
        (columns.0.squaredNorm + columns.1.squaredNorm + columns.2.squaredNorm).squareRoot()
    }

    /// True when every element is finite.
    @inlinable public var isFinite: Bool { columns.0.isFinite && columns.1.isFinite && columns.2.isFinite }

    /// True when the matrix is a proper rotation: `‖RᵀR − I‖_F ≤ tolerance` and
    /// `|det R − 1| ≤ tolerance` (the defining conditions of SO(3); Barfoot 2017, §7.1.1).
    public func isRotation(tolerance: Double = 1e-9) -> Bool {
        guard isFinite else { return false }
        return (transpose * self - .identity).frobeniusNorm <= tolerance && abs(determinant - 1) <= tolerance
    }

    /// Elements in row-major order.
    public var rowMajor: [Double] { (0..<3).flatMap { r in (0..<3).map { c in self[r, c] } } }

    /// A readable rendering for logs and test failures.
    public var description: String {
        (0..<3).map { r in row(r) }.map { "[\($0.x), \($0.y), \($0.z)]" }.joined(separator: "\n")
    }

    /// Exact elementwise equality.
    @inlinable public static func == (a: Matrix3, b: Matrix3) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
    }

    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (a: Matrix3, v: Vector3) -> Vector3 {
        a.columns.0 * v.x + a.columns.1 * v.y + a.columns.2 * v.z
    }
    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(columns: a * b.columns.0, a * b.columns.1, a * b.columns.2)
    }
    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (a: Matrix3, s: Double) -> Matrix3 {
        Matrix3(columns: a.columns.0 * s, a.columns.1 * s, a.columns.2 * s)
    }
    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (s: Double, a: Matrix3) -> Matrix3 { a * s }
    /// Division by a scalar.
    @inlinable public static func / (a: Matrix3, s: Double) -> Matrix3 { a * (1 / s) }
    /// Elementwise sum.
    @inlinable public static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(columns: a.columns.0 + b.columns.0, a.columns.1 + b.columns.1, a.columns.2 + b.columns.2)
    }
    /// Elementwise difference (or negation).
    @inlinable public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(columns: a.columns.0 - b.columns.0, a.columns.1 - b.columns.1, a.columns.2 - b.columns.2)
    }
    /// Elementwise difference (or negation).
    @inlinable public static prefix func - (a: Matrix3) -> Matrix3 { a * -1 }
    /// In-place sum.
    @inlinable public static func += (a: inout Matrix3, b: Matrix3) { a = a + b }

    /// Outer product `a bᵀ`.
    @inlinable public static func outer(_ a: Vector3, _ b: Vector3) -> Matrix3 {
        Matrix3(columns: a * b.x, a * b.y, a * b.z)
    }

    /// The skew-symmetric (cross-product) matrix: `skew(a) * b == a × b`.
    @inlinable public static func skew(_ v: Vector3) -> Matrix3 {
        Matrix3(rows: Vector3(0, -v.z, v.y), Vector3(v.z, 0, -v.x), Vector3(-v.y, v.x, 0))
    }
}

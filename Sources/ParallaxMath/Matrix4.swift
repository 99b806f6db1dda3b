/// A 4×4 matrix of `Double`, stored as four columns (homogeneous transforms).
public struct Matrix4: Equatable, Sendable {
    /// Columns of the matrix.
    public var columns: (Vector4, Vector4, Vector4, Vector4)

    /// Creates a matrix from its four columns.
    @inlinable public init(columns c0: Vector4, _ c1: Vector4, _ c2: Vector4, _ c3: Vector4) {
        columns = (c0, c1, c2, c3)
    }

    /// Creates a matrix from sixteen values in row-major order (as `sensor.yaml` stores `T_BS`).
    public init(rowMajor v: [Double]) {
        precondition(v.count == 16, "Matrix4(rowMajor:) needs 16 values")
        columns = (Vector4(v[0], v[4], v[8], v[12]), Vector4(v[1], v[5], v[9], v[13]),
                   Vector4(v[2], v[6], v[10], v[14]), Vector4(v[3], v[7], v[11], v[15]))
    }

    /// A homogeneous transform from a rotation and a translation.
    @inlinable public init(rotation r: Matrix3, translation t: Vector3) {
        columns = (Vector4(r.columns.0, 0), Vector4(r.columns.1, 0), Vector4(r.columns.2, 0), Vector4(t, 1))
    }

    /// The identity matrix.
    public static let identity = Matrix4(rotation: .identity, translation: .zero)

    /// Element at `row`, `column`.
    @inlinable public subscript(row: Int, column: Int) -> Double {
        get { self.column(column)[row] }
        set {
            switch column {
            case 0: columns.0[row] = newValue
            case 1: columns.1[row] = newValue
            case 2: columns.2[row] = newValue
            default: columns.3[row] = newValue
            }
        }
    }

    /// Column `j`.
    @inlinable public func column(_ j: Int) -> Vector4 {
        switch j { case 0: return columns.0; case 1: return columns.1; case 2: return columns.2; default: return columns.3 }
    }

    /// The upper-left 3×3 block.
    @inlinable public var upperLeft3x3: Matrix3 { Matrix3(columns: columns.0.xyz, columns.1.xyz, columns.2.xyz) }

    /// Elements in row-major order.
    public var rowMajor: [Double] { (0..<4).flatMap { r in (0..<4).map { c in self[r, c] } } }

    /// The transpose.
    public var transpose: Matrix4 {
        let r = rowMajor
        return Matrix4(columns: Vector4(r[0], r[1], r[2], r[3]), Vector4(r[4], r[5], r[6], r[7]),
                       Vector4(r[8], r[9], r[10], r[11]), Vector4(r[12], r[13], r[14], r[15]))
    }

    /// Exact elementwise equality.
    @inlinable public static func == (a: Matrix4, b: Matrix4) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2 && a.columns.3 == b.columns.3
    }

    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (a: Matrix4, v: Vector4) -> Vector4 {
        a.columns.0 * v.x + a.columns.1 * v.y + a.columns.2 * v.z + a.columns.3 * v.w
    }
    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        Matrix4(columns: a * b.columns.0, a * b.columns.1, a * b.columns.2, a * b.columns.3)
    }

    /// Converts to single precision for rendering.
    public var float: Matrix4f {
        Matrix4f(columns: SIMD4<Float>(columns.0), SIMD4<Float>(columns.1), SIMD4<Float>(columns.2), SIMD4<Float>(columns.3))
    }
}

/// A 4×4 matrix of `Float`, stored as four columns: the renderer's model, view and projection
/// matrices. Column-major, as OpenGL expects.
public struct Matrix4f: Equatable, Sendable {
    /// Columns of the matrix.
    public var columns: (Vector4f, Vector4f, Vector4f, Vector4f)

    /// Creates a matrix from its four columns.
    @inlinable public init(columns c0: Vector4f, _ c1: Vector4f, _ c2: Vector4f, _ c3: Vector4f) {
        columns = (c0, c1, c2, c3)
    }

    /// The identity matrix.
    public static let identity = Matrix4f(
        columns: Vector4f(1, 0, 0, 0), Vector4f(0, 1, 0, 0), Vector4f(0, 0, 1, 0), Vector4f(0, 0, 0, 1))

    /// Element at `row`, `column`.
    @inlinable public subscript(row: Int, column: Int) -> Float {
        get { self.column(column)[row] }
        set {
            switch column {
            case 0: columns.0[row] = newValue
            case 1: columns.1[row] = newValue
            case 2: columns.2[row] = newValue
            default: columns.3[row] = newValue
            }
        }
    }

    /// Column `j`.
    @inlinable public func column(_ j: Int) -> Vector4f {
        switch j { case 0: return columns.0; case 1: return columns.1; case 2: return columns.2; default: return columns.3 }
    }

    /// The sixteen elements in column-major order (for `glUniformMatrix4fv`).
    public var columnMajor: [Float] {
        [columns.0, columns.1, columns.2, columns.3].flatMap { [$0.x, $0.y, $0.z, $0.w] }
    }

    /// Exact elementwise equality.
    @inlinable public static func == (a: Matrix4f, b: Matrix4f) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2 && a.columns.3 == b.columns.3
    }

    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (a: Matrix4f, v: Vector4f) -> Vector4f {
        a.columns.0 * v.x + a.columns.1 * v.y + a.columns.2 * v.z + a.columns.3 * v.w
    }
    /// Product (matrix–matrix, matrix–vector or by a scalar).
    @inlinable public static func * (a: Matrix4f, b: Matrix4f) -> Matrix4f {
        Matrix4f(columns: a * b.columns.0, a * b.columns.1, a * b.columns.2, a * b.columns.3)
    }

    /// Converts to double precision.
    public var double: Matrix4 {
        Matrix4(columns: SIMD4<Double>(columns.0), SIMD4<Double>(columns.1), SIMD4<Double>(columns.2), SIMD4<Double>(columns.3))
    }
}

/// A dense, dynamically sized matrix of `Double` in row-major storage, for the estimator's small
/// systems (6×6 adjoints, 15×15 IMU covariances, normal equations of a few hundred unknowns).
///
/// Vectors are plain `[Double]`; `Matrix * [Double]` gives `[Double]`. Operations work on the flat
/// `elements` buffer through unsafe buffer pointers, so there is one allocation per result and
/// none per element.
///
/// **Why no LAPACK/BLAS.** The sizes involved are tiny (n ≤ a few hundred), where call overhead and
/// marshalling dominate; a system LAPACK would add a C dependency whose presence and version vary
/// across Linux images; and a self-contained implementation gives bit-identical results on every
/// machine, which our deterministic tests and regression figures rely on.
public struct Matrix: Equatable, Sendable, CustomStringConvertible {
    /// Number of rows.
    public let rows: Int
    /// Number of columns.
    public let cols: Int
    /// The elements in row-major order: element (r, c) is `elements[r * cols + c]`.
    public var elements: [Double]

    /// A `rows × cols` matrix filled with `value` (zeros by default).
    public init(rows: Int, cols: Int, repeating value: Double = 0) {
        precondition(rows >= 0 && cols >= 0, "Matrix dimensions must be non-negative")
        self.rows = rows
        self.cols = cols
        elements = [Double](repeating: value, count: rows * cols)
    }

    /// A matrix from row-major elements; `elements.count` must be `rows * cols`.
    public init(rows: Int, cols: Int, elements: [Double]) {
        precondition(elements.count == rows * cols, "Matrix(rows:cols:elements:) needs \(rows * cols) values, got \(elements.count)")
        self.rows = rows
        self.cols = cols
        self.elements = elements
    }

    /// A matrix from an array of equally long rows.
    public init(_ rowArrays: [[Double]]) {
        let c = rowArrays.first?.count ?? 0
        precondition(rowArrays.allSatisfy { $0.count == c }, "Matrix rows must have equal length")
        self.init(rows: rowArrays.count, cols: c, elements: rowArrays.flatMap { $0 })
    }

    /// An n×1 column vector.
    public init(column v: [Double]) { self.init(rows: v.count, cols: 1, elements: v) }

    /// A square diagonal matrix.
    public init(diagonal d: [Double]) {
        self.init(rows: d.count, cols: d.count)
        for i in 0..<d.count { elements[i * cols + i] = d[i] }
    }

    /// A dynamic copy of a `Matrix3`.
    public init(_ m: Matrix3) { self.init(rows: 3, cols: 3, elements: m.rowMajor) }

    /// The n×n identity.
    public static func identity(_ n: Int) -> Matrix { Matrix(diagonal: [Double](repeating: 1, count: n)) }

    /// The rows×cols zero matrix.
    public static func zeros(_ rows: Int, _ cols: Int) -> Matrix { Matrix(rows: rows, cols: cols) }

    /// Element at `row`, `column` (0-based).
    @inlinable public subscript(row: Int, column: Int) -> Double {
        get { elements[row * cols + column] }
        set { elements[row * cols + column] = newValue }
    }

    /// True for a square matrix.
    public var isSquare: Bool { rows == cols }

    /// The transpose.
    public var transpose: Matrix {
        var t = Matrix(rows: cols, cols: rows)
        elements.withUnsafeBufferPointer { a in
            t.elements.withUnsafeMutableBufferPointer { b in
                for r in 0..<rows { for c in 0..<cols { b[c * rows + r] = a[r * cols + c] } }
            }
        }
        return t
    }

    /// Row `i` as an array.
    public func row(_ i: Int) -> [Double] { Array(elements[(i * cols)..<((i + 1) * cols)]) }
    /// Column `j` as an array.
    public func column(_ j: Int) -> [Double] { (0..<rows).map { elements[$0 * cols + j] } }
    /// The main diagonal.
    public var diagonal: [Double] { (0..<min(rows, cols)).map { elements[$0 * cols + $0] } }

    /// The `rowCount × colCount` block whose top-left element is (`row`, `col`).
    public func block(row: Int, col: Int, rows rowCount: Int, cols colCount: Int) -> Matrix {
        precondition(row >= 0 && col >= 0 && row + rowCount <= rows && col + colCount <= cols, "block out of range")
        var b = Matrix(rows: rowCount, cols: colCount)
        for r in 0..<rowCount {
            let src = (row + r) * cols + col
            b.elements.replaceSubrange((r * colCount)..<((r + 1) * colCount), with: elements[src..<(src + colCount)])
        }
        return b
    }

    /// Overwrites the block whose top-left element is (`row`, `col`) with `b`.
    public mutating func setBlock(row: Int, col: Int, _ b: Matrix) {
        precondition(row >= 0 && col >= 0 && row + b.rows <= rows && col + b.cols <= cols, "setBlock out of range")
        for r in 0..<b.rows {
            let dst = (row + r) * cols + col
            elements.replaceSubrange(dst..<(dst + b.cols), with: b.elements[(r * b.cols)..<((r + 1) * b.cols)])
        }
    }

    /// Overwrites a 3×3 block (convenient for SE(3) and IMU Jacobians).
    public mutating func setBlock(row: Int, col: Int, _ m: Matrix3) {
        for r in 0..<3 { for c in 0..<3 { self[row + r, col + c] = m[r, c] } }
    }

    /// The 3×3 block at (`row`, `col`) as a `Matrix3`.
    public func block3(row: Int, col: Int) -> Matrix3 {
        Matrix3(rows: Vector3(self[row, col], self[row, col + 1], self[row, col + 2]),
                Vector3(self[row + 1, col], self[row + 1, col + 1], self[row + 1, col + 2]),
                Vector3(self[row + 2, col], self[row + 2, col + 1], self[row + 2, col + 2]))
    }

    /// Frobenius norm `sqrt(Σ aᵢⱼ²)`.
    public var frobeniusNorm: Double { elements.reduce(0) { $0 + $1 * $1 }.squareRoot() }
    /// Largest absolute element (0 for an empty matrix).
    public var maxAbs: Double { elements.reduce(0) { max($0, abs($1)) } }
    /// Sum of the diagonal.
    public var trace: Double { diagonal.reduce(0, +) }
    /// True when every element is finite.
    public var isFinite: Bool { elements.allSatisfy { $0.isFinite } }

    /// True when `|aᵢⱼ − aⱼᵢ| ≤ tolerance · max(1, max|a|)` for all i, j.
    public func isSymmetric(tolerance: Double = 1e-12) -> Bool {
        guard isSquare else { return false }
        let tol = tolerance * Swift.max(1, maxAbs)
        for r in 0..<rows { for c in (r + 1)..<Swift.max(r + 1, cols) where abs(self[r, c] - self[c, r]) > tol { return false } }
        return true
    }

    /// `(A + Aᵀ) / 2`, the symmetric part (used to clean up covariances after updates).
    public var symmetrized: Matrix {
        precondition(isSquare, "symmetrized needs a square matrix")
        var s = self
        for r in 0..<rows { for c in (r + 1)..<Swift.max(r + 1, cols) {
            let v = 0.5 * (self[r, c] + self[c, r]); s[r, c] = v; s[c, r] = v
        } }
        return s
    }

    /// A readable rendering for logs and test failures.
    public var description: String {
        (0..<rows).map { r in "[" + row(r).map { "\($0)" }.joined(separator: ", ") + "]" }.joined(separator: "\n")
    }
}

extension Matrix {
    /// Elementwise sum.
    public static func + (a: Matrix, b: Matrix) -> Matrix {
        precondition(a.rows == b.rows && a.cols == b.cols, "Matrix + needs equal shapes")
        var c = a
        c.elements.withUnsafeMutableBufferPointer { p in b.elements.withUnsafeBufferPointer { q in for i in 0..<p.count { p[i] += q[i] } } }
        return c
    }

    /// Elementwise difference.
    public static func - (a: Matrix, b: Matrix) -> Matrix {
        precondition(a.rows == b.rows && a.cols == b.cols, "Matrix - needs equal shapes")
        var c = a
        c.elements.withUnsafeMutableBufferPointer { p in b.elements.withUnsafeBufferPointer { q in for i in 0..<p.count { p[i] -= q[i] } } }
        return c
    }

    /// Negation.
    public static prefix func - (a: Matrix) -> Matrix { a * -1 }

    /// In-place sum.
    public static func += (a: inout Matrix, b: Matrix) { a = a + b }
    /// In-place difference.
    public static func -= (a: inout Matrix, b: Matrix) { a = a - b }

    /// Scalar multiple.
    public static func * (a: Matrix, s: Double) -> Matrix {
        var c = a
        c.elements.withUnsafeMutableBufferPointer { p in for i in 0..<p.count { p[i] *= s } }
        return c
    }
    /// Scalar multiple.
    public static func * (s: Double, a: Matrix) -> Matrix { a * s }

    /// Matrix product (i-k-j loop order, contiguous inner loop).
    public static func * (a: Matrix, b: Matrix) -> Matrix {
        precondition(a.cols == b.rows, "Matrix * needs a.cols == b.rows (\(a.cols) vs \(b.rows))")
        var c = Matrix(rows: a.rows, cols: b.cols)
        let n = a.cols, m = b.cols
        a.elements.withUnsafeBufferPointer { pa in
            b.elements.withUnsafeBufferPointer { pb in
                c.elements.withUnsafeMutableBufferPointer { pc in
                    for i in 0..<a.rows {
                        for k in 0..<n {
                            let aik = pa[i * n + k]
                            if aik == 0 { continue }
                            for j in 0..<m { pc[i * m + j] += aik * pb[k * m + j] }
                        }
                    }
                }
            }
        }
        return c
    }

    /// Matrix–vector product.
    public static func * (a: Matrix, v: [Double]) -> [Double] {
        precondition(a.cols == v.count, "Matrix * vector needs a.cols == v.count (\(a.cols) vs \(v.count))")
        var out = [Double](repeating: 0, count: a.rows)
        a.elements.withUnsafeBufferPointer { pa in
            for i in 0..<a.rows {
                var s = 0.0
                for k in 0..<a.cols { s += pa[i * a.cols + k] * v[k] }
                out[i] = s
            }
        }
        return out
    }

    /// `Aᵀ B` without forming the transpose (normal equations).
    public func transposeTimes(_ b: Matrix) -> Matrix {
        precondition(rows == b.rows, "transposeTimes needs equal row counts")
        var c = Matrix(rows: cols, cols: b.cols)
        for k in 0..<rows {
            for i in 0..<cols {
                let aki = self[k, i]
                if aki == 0 { continue }
                for j in 0..<b.cols { c.elements[i * b.cols + j] += aki * b.elements[k * b.cols + j] }
            }
        }
        return c
    }
}

/// Helpers on `[Double]` used as vectors by ``Matrix``.
extension Array where Element == Double {
    /// Euclidean norm.
    public var norm: Double { reduce(0) { $0 + $1 * $1 }.squareRoot() }
    /// Dot product with an equally long array.
    public func dot(_ other: [Double]) -> Double {
        precondition(count == other.count, "dot needs equal lengths")
        var s = 0.0
        for i in 0..<count { s += self[i] * other[i] }
        return s
    }
}

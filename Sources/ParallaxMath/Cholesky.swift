import Foundation

/// Why a dense factorisation failed. Every case names the offending index or size so a caller can
/// report which state block or measurement caused it.
public enum LinearAlgebraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operation needs a square matrix.
    case notSquare(rows: Int, cols: Int)
    /// Operand shapes do not fit together.
    case dimensionMismatch(expected: Int, got: Int)
    /// The input contains NaN or infinity.
    case nonFinite
    /// Cholesky met a non-positive pivot: the matrix is not symmetric positive definite.
    case notPositiveDefinite(pivotIndex: Int, pivot: Double)
    /// LDLᵀ (without pivoting) met a zero pivot.
    case zeroPivot(index: Int)
    /// A least-squares problem has dependent columns (numerical rank below the column count).
    case rankDeficient(rank: Int, columns: Int)
    /// An iterative decomposition did not converge within its sweep budget.
    case noConvergence(sweeps: Int)

    /// A readable rendering for logs and test failures.
    public var description: String {
        switch self {
        case let .notSquare(r, c): return "matrix is \(r)×\(c), not square"
        case let .dimensionMismatch(e, g): return "dimension mismatch: expected \(e), got \(g)"
        case .nonFinite: return "matrix contains NaN or infinity"
        case let .notPositiveDefinite(i, p): return "matrix is not positive definite (pivot \(i) = \(p))"
        case let .zeroPivot(i): return "zero pivot at index \(i) in LDLᵀ"
        case let .rankDeficient(r, c): return "rank \(r) is below the \(c) columns"
        case let .noConvergence(s): return "no convergence after \(s) sweeps"
        }
    }
}

/// Cholesky factorisation `A = L Lᵀ` of a symmetric positive-definite matrix (Golub & Van Loan,
/// *Matrix Computations*, 4th ed., Alg. 4.2.2, the row-oriented "Cholesky–Crout" form).
///
/// Only the lower triangle of `A` is read. A pivot `≤ 0` (or NaN) throws
/// ``LinearAlgebraError/notPositiveDefinite(pivotIndex:pivot:)``: for the estimator this is the
/// signal that an information matrix lost definiteness, never something to paper over silently.
public struct Cholesky: Sendable {
    /// The lower-triangular factor `L` (strict upper triangle is zero).
    public let l: Matrix

    /// Factorises `a`.
    public init(_ a: Matrix) throws {
        guard a.isSquare else { throw LinearAlgebraError.notSquare(rows: a.rows, cols: a.cols) }
        let n = a.rows
        var elements = a.elements
        if let failure = Dense.choleskyFailure(&elements, n: n) {
            throw LinearAlgebraError.notPositiveDefinite(pivotIndex: failure.index, pivot: failure.pivot)
        }
        var l = Matrix(rows: n, cols: n)
        for i in 0..<n { for j in 0...i { l[i, j] = elements[i * n + j] } }
        self.l = l
    }

    /// Solves `A x = b` by forward then back substitution.
    public func solve(_ b: [Double]) throws -> [Double] {
        let n = l.rows
        guard b.count == n else { throw LinearAlgebraError.dimensionMismatch(expected: n, got: b.count) }
        var x = b
        // The pivots are positive (the factorisation succeeded), so the zero-pivot branch of the
        // substitutions never applies.
        Dense.forwardSubstitute(l.elements, n: n, &x)
        Dense.backSubstitute(l.elements, n: n, &x)
        return x
    }

    /// Solves `A X = B` column by column.
    public func solve(_ b: Matrix) throws -> Matrix {
        guard b.rows == l.rows else { throw LinearAlgebraError.dimensionMismatch(expected: l.rows, got: b.rows) }
        var x = Matrix(rows: b.rows, cols: b.cols)
        for j in 0..<b.cols {
            let col = try solve(b.column(j))
            for i in 0..<b.rows { x[i, j] = col[i] }
        }
        return x
    }

    /// `log det A = 2 Σ log Lᵢᵢ` (no overflow for large information matrices).
    public var logDeterminant: Double { 2 * l.diagonal.reduce(0) { $0 + Foundation.log($1) } }

    /// `A⁻¹` (e.g. a covariance from an information matrix).
    public var inverse: Matrix {
        // The factor is valid, so solving against the identity cannot fail on shape.
        (try? solve(Matrix.identity(l.rows))) ?? Matrix(rows: l.rows, cols: l.rows, repeating: .nan)
    }
}

/// The root-free factorisation `A = L D Lᵀ` of a symmetric matrix, `L` unit lower triangular and
/// `D` diagonal (Golub & Van Loan, 4th ed., Alg. 4.1.2). No pivoting: it exists for symmetric
/// positive-definite and quasi-definite matrices (e.g. saddle-point systems with a positive-definite
/// leading block), and throws ``LinearAlgebraError/zeroPivot(index:)`` when a pivot is zero to
/// working precision. Unlike Cholesky it also accepts some indefinite matrices; ``isPositiveDefinite``
/// tells them apart.
public struct LDLT: Sendable {
    /// The unit lower-triangular factor.
    public let l: Matrix
    /// The diagonal of `D`.
    public let d: [Double]

    /// Factorises `a` (only its lower triangle is read).
    public init(_ a: Matrix) throws {
        guard a.isSquare else { throw LinearAlgebraError.notSquare(rows: a.rows, cols: a.cols) }
        guard a.isFinite else { throw LinearAlgebraError.nonFinite }
        let n = a.rows
        var l = Matrix.identity(n)
        var d = [Double](repeating: 0, count: n)
        let tiny = Double(max(n, 1)) * Double.ulpOfOne * max(a.maxAbs, Double.leastNormalMagnitude)
        for j in 0..<n {
            var dj = a[j, j]
            for k in 0..<j { dj -= l[j, k] * l[j, k] * d[k] }
            guard abs(dj) > tiny else { throw LinearAlgebraError.zeroPivot(index: j) }
            d[j] = dj
            for i in (j + 1)..<max(j + 1, n) {
                var s = a[i, j]
                for k in 0..<j { s -= l[i, k] * l[j, k] * d[k] }
                l[i, j] = s / dj
            }
        }
        self.l = l
        self.d = d
    }

    /// True when every pivot is positive (then `A` is positive definite, by Sylvester's criterion).
    public var isPositiveDefinite: Bool { d.allSatisfy { $0 > 0 } }

    /// `det A = Π dᵢ`.
    public var determinant: Double { d.reduce(1, *) }

    /// Solves `A x = b`.
    public func solve(_ b: [Double]) throws -> [Double] {
        let n = d.count
        guard b.count == n else { throw LinearAlgebraError.dimensionMismatch(expected: n, got: b.count) }
        var x = b
        for i in 0..<n { for k in 0..<i { x[i] -= l[i, k] * x[k] } }
        for i in 0..<n { x[i] /= d[i] }
        for i in stride(from: n - 1, through: 0, by: -1) { for k in (i + 1)..<max(i + 1, n) { x[i] -= l[k, i] * x[k] } }
        return x
    }
}

/// Householder QR factorisation `A = Q R` of an m×n matrix with m ≥ n (Golub & Van Loan,
/// *Matrix Computations*, 4th ed., Alg. 5.1.1 and §5.2.1), and the least-squares solve
/// `min ‖A x − b‖₂` via `R x = (Qᵀ b)[0..<n]` (§5.3.3), which avoids squaring the condition number
/// as the normal equations do.
public struct QR: Sendable {
    /// Rows of the factorised matrix.
    public let rows: Int
    /// Columns of the factorised matrix.
    public let cols: Int
    /// Upper-triangular `R` (n×n).
    public let r: Matrix
    /// Householder vectors `vₖ` (length m − k) and their `βₖ = 2 / vₖᵀvₖ`; `Hₖ = I − βₖ vₖ vₖᵀ`.
    private let reflectors: [(v: [Double], beta: Double)]

    /// Factorises `a`; throws when `a` has fewer rows than columns or non-finite entries.
    public init(_ a: Matrix) throws {
        guard a.rows >= a.cols else { throw LinearAlgebraError.dimensionMismatch(expected: a.cols, got: a.rows) }
        guard a.isFinite else { throw LinearAlgebraError.nonFinite }
        let m = a.rows, n = a.cols
        var w = a
        var refl: [(v: [Double], beta: Double)] = []
        refl.reserveCapacity(n)
        for k in 0..<n {
            var v = [Double](repeating: 0, count: m - k)
            for i in k..<m { v[i - k] = w[i, k] }
            let normX = v.norm
            // α = −sign(x₀)‖x‖ keeps v₀ = x₀ − α free of cancellation.
            let alpha = v[0] >= 0 ? -normX : normX
            v[0] -= alpha
            let vtv = v.dot(v)
            let beta = vtv > 0 ? 2 / vtv : 0
            if beta != 0 {
                for j in k..<n {
                    var s = 0.0
                    for i in k..<m { s += v[i - k] * w[i, j] }
                    s *= beta
                    for i in k..<m { w[i, j] -= s * v[i - k] }
                }
            }
            refl.append((v, beta))
        }
        var r = Matrix(rows: n, cols: n)
        for i in 0..<n { for j in i..<n { r[i, j] = w[i, j] } }
        rows = m; cols = n; self.r = r; reflectors = refl
    }

    /// `Qᵀ b` (length m), applying the reflectors in order.
    public func applyQTranspose(_ b: [Double]) throws -> [Double] {
        guard b.count == rows else { throw LinearAlgebraError.dimensionMismatch(expected: rows, got: b.count) }
        var x = b
        for (k, h) in reflectors.enumerated() where h.beta != 0 {
            var s = 0.0
            for i in k..<rows { s += h.v[i - k] * x[i] }
            s *= h.beta
            for i in k..<rows { x[i] -= s * h.v[i - k] }
        }
        return x
    }

    /// The thin orthonormal factor `Q` (m×n), so that `A = Q R`.
    public var q: Matrix {
        var out = Matrix(rows: rows, cols: cols)
        for j in 0..<cols {
            var e = [Double](repeating: 0, count: rows)
            e[j] = 1
            // Q e = H₀ H₁ … Hₙ₋₁ e: apply the reflectors in reverse order.
            for k in stride(from: reflectors.count - 1, through: 0, by: -1) where reflectors[k].beta != 0 {
                let h = reflectors[k]
                var s = 0.0
                for i in k..<rows { s += h.v[i - k] * e[i] }
                s *= h.beta
                for i in k..<rows { e[i] -= s * h.v[i - k] }
            }
            for i in 0..<rows { out[i, j] = e[i] }
        }
        return out
    }

    /// Numerical rank: diagonal entries of `R` above `max(m, n) ε max|Rᵢᵢ|` (an estimate; QR without
    /// column pivoting is not rank-revealing in general; use ``SVD`` when it matters).
    public var rank: Int {
        let diag = r.diagonal.map(abs)
        let tol = Double(max(rows, cols)) * Double.ulpOfOne * (diag.max() ?? 0)
        return diag.filter { $0 > tol }.count
    }

    /// The least-squares solution of `A x ≈ b`; throws ``LinearAlgebraError/rankDeficient(rank:columns:)``
    /// when `R` has a (numerically) zero diagonal entry, in which case ``Matrix/pseudoInverse(tolerance:)``
    /// gives the minimum-norm solution instead.
    public func solveLeastSquares(_ b: [Double]) throws -> [Double] {
        let qtb = try applyQTranspose(b)
        let rk = rank
        guard rk == cols else { throw LinearAlgebraError.rankDeficient(rank: rk, columns: cols) }
        var x = Array(qtb[0..<cols])
        for i in stride(from: cols - 1, through: 0, by: -1) {
            var s = x[i]
            for j in (i + 1)..<max(i + 1, cols) { s -= r[i, j] * x[j] }
            x[i] = s / r[i, i]
        }
        return x
    }
}

extension Matrix {
    /// Least-squares solution of `self · x ≈ b` by Householder QR (see ``QR``).
    public func solveLeastSquares(_ b: [Double]) throws -> [Double] { try QR(self).solveLeastSquares(b) }
}

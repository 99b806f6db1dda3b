/// Thin singular value decomposition `A = U diag(s) Vᵀ` of an m×n matrix by one-sided Jacobi
/// (Hestenes 1958; Demmel & Veselić, "Jacobi's method is more accurate than QR", SIAM J. Matrix
/// Anal. Appl. 13(4), 1992, Alg. 4.1; Golub & Van Loan, 4th ed., §8.6.3).
///
/// With k = min(m, n): `u` is m×k with orthonormal columns, `s` has k values sorted descending,
/// `v` is n×k with orthonormal columns. Pairs of columns are rotated until all are mutually
/// orthogonal to working precision; the column norms are then the singular values. Columns of `u`
/// whose singular value is negligible (≤ max(m, n) ε s₀) are completed to an orthonormal set by
/// Gram–Schmidt on the unit vectors, so `u` stays orthonormal for rank-deficient input too.
public struct SVD: Sendable {
    /// Left singular vectors (m×k).
    public let u: Matrix
    /// Singular values, descending, non-negative.
    public let s: [Double]
    /// Right singular vectors (n×k).
    public let v: Matrix

    /// Sweep budget (convergence is quadratic; small matrices need well under 20 sweeps).
    public static let maxSweeps = 60

    /// Decomposes `a`; throws on non-finite input or (never seen in practice) no convergence.
    public init(_ a: Matrix) throws {
        guard a.isFinite else { throw LinearAlgebraError.nonFinite }
        guard let r = SVD.jacobi(a) else { throw LinearAlgebraError.noConvergence(sweeps: Self.maxSweeps) }
        (u, s, v) = r
    }

    /// Core routine; `nil` when the sweep budget runs out.
    static func jacobi(_ a: Matrix) -> (Matrix, [Double], Matrix)? {
        if a.rows < a.cols {    // Aᵀ = U S Vᵀ  ⇒  A = V S Uᵀ
            guard let (u, s, v) = jacobi(a.transpose) else { return nil }
            return (v, s, u)
        }
        let m = a.rows, n = a.cols
        // Rows of `w` are the columns of A (contiguous access); rows of `vt` are the columns of V.
        var w = a.transpose
        var vt = Matrix.identity(n)
        var converged = false
        for _ in 0..<maxSweeps {
            var rotated = false
            for p in 0..<n {
                for q in (p + 1)..<max(p + 1, n) {
                    var alpha = 0.0, beta = 0.0, gamma = 0.0
                    for i in 0..<m {
                        let x = w.elements[p * m + i], y = w.elements[q * m + i]
                        alpha += x * x; beta += y * y; gamma += x * y
                    }
                    guard gamma != 0, abs(gamma) > Double.ulpOfOne * (alpha * beta).squareRoot() else { continue }
                    rotated = true
                    let zeta = (beta - alpha) / (2 * gamma)
                    let t = (zeta >= 0 ? 1.0 : -1.0) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
                    let c = 1 / (1 + t * t).squareRoot(), s = c * t
                    for i in 0..<m {
                        let x = w.elements[p * m + i], y = w.elements[q * m + i]
                        w.elements[p * m + i] = c * x - s * y
                        w.elements[q * m + i] = s * x + c * y
                    }
                    for i in 0..<n {
                        let x = vt.elements[p * n + i], y = vt.elements[q * n + i]
                        vt.elements[p * n + i] = c * x - s * y
                        vt.elements[q * n + i] = s * x + c * y
                    }
                }
            }
            if !rotated { converged = true; break }
        }
        guard converged else { return nil }
        let norms = (0..<n).map { j in (0..<m).reduce(0.0) { $0 + w.elements[j * m + $1] * w.elements[j * m + $1] }.squareRoot() }
        let order = (0..<n).sorted { norms[$0] > norms[$1] }
        let sigma = order.map { norms[$0] }
        let negligible = Double(max(m, n)) * Double.ulpOfOne * (sigma.first ?? 0)
        var u = Matrix(rows: m, cols: n), v = Matrix(rows: n, cols: n)
        var pending: [Int] = []
        for (k, j) in order.enumerated() {
            for i in 0..<n { v[i, k] = vt.elements[j * n + i] }
            if sigma[k] > negligible && sigma[k] > 0 {
                for i in 0..<m { u[i, k] = w.elements[j * m + i] / sigma[k] }
            } else {
                pending.append(k)
            }
        }
        for k in pending { completeColumn(&u, k, filled: (0..<n).filter { !pending.contains($0) || $0 < k }) }
        return (u, sigma, v)
    }

    /// Fills column `k` of `u` with a unit vector orthogonal to the columns in `filled`
    /// (classical Gram–Schmidt, done twice, on the unit vector that leaves the largest residual).
    private static func completeColumn(_ u: inout Matrix, _ k: Int, filled: [Int]) {
        let m = u.rows
        var best = [Double](), bestNorm = -1.0
        for e in 0..<m {
            var x = [Double](repeating: 0, count: m)
            x[e] = 1
            for _ in 0..<2 {
                for j in filled where j != k {
                    var d = 0.0
                    for i in 0..<m { d += u[i, j] * x[i] }
                    for i in 0..<m { x[i] -= d * u[i, j] }
                }
            }
            let nrm = x.norm
            if nrm > bestNorm { bestNorm = nrm; best = x }
            if nrm > 0.5 { break }
        }
        for i in 0..<m { u[i, k] = best[i] / bestNorm }
    }

    /// Numerical rank: singular values above `tolerance` (default `max(m, n) ε s₀`).
    public func rank(tolerance: Double? = nil) -> Int {
        let tol = tolerance ?? Double(max(u.rows, v.rows)) * Double.ulpOfOne * (s.first ?? 0)
        return s.filter { $0 > tol }.count
    }

    /// 2-norm condition number `s₀ / s_last` (infinity when singular).
    public var conditionNumber: Double {
        guard let first = s.first, let last = s.last else { return 0 }
        return last > 0 ? first / last : .infinity
    }

    /// The Moore–Penrose pseudo-inverse `V diag(1/sᵢ) Uᵀ`, dropping `sᵢ ≤ tolerance`
    /// (default `max(m, n) ε s₀`, as in Golub & Van Loan §5.5.2).
    public func pseudoInverse(tolerance: Double? = nil) -> Matrix {
        let tol = tolerance ?? Double(max(u.rows, v.rows)) * Double.ulpOfOne * (s.first ?? 0)
        var out = Matrix(rows: v.rows, cols: u.rows)
        for k in 0..<s.count where s[k] > tol {
            let inv = 1 / s[k]
            for i in 0..<v.rows {
                let vik = v[i, k] * inv
                if vik == 0 { continue }
                for j in 0..<u.rows { out[i, j] += vik * u[j, k] }
            }
        }
        return out
    }
}

extension Matrix {
    /// The Moore–Penrose pseudo-inverse via ``SVD`` (minimum-norm least squares:
    /// `x = A⁺ b` minimises `‖x‖` among the minimisers of `‖A x − b‖`).
    public func pseudoInverse(tolerance: Double? = nil) throws -> Matrix {
        try SVD(self).pseudoInverse(tolerance: tolerance)
    }
}

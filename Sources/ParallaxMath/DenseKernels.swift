import Foundation

/// Small dense kernels on row-major `[Double]` buffers: the one home of Cholesky factorisation and
/// triangular substitution in Parallax (``Cholesky`` wraps these for ``Matrix``).
///
/// The estimator's matrices change size every frame (clones come and go) and are at most ~100×100,
/// so flat arrays with unchecked pointer loops beat a general matrix type in its hot paths.
public enum Dense {
    /// In-place lower Cholesky factor of the symmetric positive-definite `n×n` matrix `a`
    /// (upper triangle zeroed). Pivots below `tolerance × max diagonal` make the column zero
    /// instead of failing, which gives a factor of the positive semidefinite part (rank-revealing
    /// in the way the MSCKF compression needs). Returns the number of non-zero pivots.
    @discardableResult
    public static func choleskySemidefinite(_ a: inout [Double], n: Int, tolerance: Double = 1e-12) -> Int {
        var maxDiag = 0.0
        for i in 0..<n { maxDiag = max(maxDiag, a[i * n + i]) }
        let floor = max(maxDiag * tolerance, 1e-300)
        var rank = 0
        a.withUnsafeMutableBufferPointer { m in
            for j in 0..<n {
                var d = m[j * n + j]
                for k in 0..<j { d -= m[j * n + k] * m[j * n + k] }
                if d <= floor {
                    for i in j..<n { m[i * n + j] = 0 }
                    continue
                }
                rank += 1
                let l = d.squareRoot()
                m[j * n + j] = l
                let inv = 1 / l
                for i in (j + 1)..<max(j + 1, n) {
                    var s = m[i * n + j]
                    for k in 0..<j { s -= m[i * n + k] * m[j * n + k] }
                    m[i * n + j] = s * inv
                }
            }
            for i in 0..<n { for j in (i + 1)..<max(i + 1, n) { m[i * n + j] = 0 } }
        }
        return rank
    }

    /// `A · B` for row-major `A` (rows×inner) and `B` (inner×columns).
    public static func multiply(_ a: [Double], _ b: [Double], rows: Int, inner: Int, columns: Int) -> [Double] {
        var c = [Double](repeating: 0, count: rows * columns)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                c.withUnsafeMutableBufferPointer { pc in
                    // Raw row pointers: with `pc[ci + j]` the index arithmetic carries overflow checks
                    // that keep the inner loop scalar; this form vectorises (same operations, same order).
                    for i in 0..<rows {
                        let ci = pc.baseAddress! + i * columns
                        for k in 0..<inner {
                            let v = pa[i * inner + k]
                            if v == 0 { continue }
                            let bk = pb.baseAddress! + k * columns
                            for j in 0..<columns { ci[j] += v * bk[j] }
                        }
                    }
                }
            }
        }
        return c
    }

    /// `A · Bᵀ` for row-major `A` (rows×inner) and `B` (columns×inner); symmetric outputs are fine.
    public static func multiplyTransposed(_ a: [Double], _ b: [Double], rows: Int, columns: Int, inner: Int) -> [Double] {
        var c = [Double](repeating: 0, count: rows * columns)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                c.withUnsafeMutableBufferPointer { pc in
                    for i in 0..<rows {
                        for j in 0..<columns {
                            var s = 0.0
                            let ai = i * inner, bj = j * inner
                            for k in 0..<inner { s += pa[ai + k] * pb[bj + k] }
                            pc[i * columns + j] = s
                        }
                    }
                }
            }
        }
        return c
    }

    /// Lower triangle (diagonal included) of `A · Bᵀ` for row-major `A` and `B` (both rows×inner);
    /// the strict upper triangle is left zero. For callers that only read the lower triangle
    /// (`cholesky`, `choleskySemidefinite`, `forwardSubstitute`).
    ///
    /// Each entry is summed over k in ascending order, exactly like `multiplyTransposed`, so the
    /// lower triangle is bit-identical to it; the loops run over a transposed copy of `B` so the
    /// innermost loop is a contiguous axpy (vectorisable) instead of a serial dot product.
    public static func multiplyTransposedLower(_ a: [Double], _ b: [Double], rows: Int, inner: Int) -> [Double] {
        var c = [Double](repeating: 0, count: rows * rows)
        let bt = transpose(b, rows: rows, columns: inner)
        a.withUnsafeBufferPointer { pa in
            bt.withUnsafeBufferPointer { pb in
                c.withUnsafeMutableBufferPointer { pc in
                    for i in 0..<rows {
                        let ci = pc.baseAddress! + i * rows
                        for k in 0..<inner {
                            let v = pa[i * inner + k]
                            let bk = pb.baseAddress! + k * rows
                            for j in 0...i { ci[j] += v * bk[j] }
                        }
                    }
                }
            }
        }
        return c
    }

    /// Row-major transpose of a rows×columns matrix.
    public static func transpose(_ a: [Double], rows: Int, columns: Int) -> [Double] {
        var t = [Double](repeating: 0, count: rows * columns)
        a.withUnsafeBufferPointer { pa in
            t.withUnsafeMutableBufferPointer { pt in
                for i in 0..<rows { for j in 0..<columns { pt[j * rows + i] = pa[i * columns + j] } }
            }
        }
        return t
    }

    /// Solves `X Lᵀ = B` then `X' L = X` (i.e. `X' = B (L Lᵀ)⁻¹`) for all rows of `B` at once, with
    /// `B` given transposed: `bt` is `n × count` (column i of it is row i of `B`) and is overwritten
    /// with the solution, also transposed. `l` is the `n×n` lower Cholesky factor.
    ///
    /// Per column this performs exactly the operations of `forwardSubstitute` then `backSubstitute`
    /// in the same order (bit-identical results); working on the transposed layout turns each step
    /// into a contiguous axpy over all right-hand sides, which vectorises.
    public static func choleskySolveTransposed(_ l: [Double], n: Int, _ bt: inout [Double], count: Int) {
        l.withUnsafeBufferPointer { pl in
            bt.withUnsafeMutableBufferPointer { pb in
                let b = pb.baseAddress!
                // Forward: y_j = (b_j − Σ_{k<j} L_jk y_k) / L_jj, k ascending.
                for j in 0..<n {
                    let rj = b + j * count
                    for k in 0..<j {
                        let f = pl[j * n + k]
                        let rk = b + k * count
                        for i in 0..<count { rj[i] -= f * rk[i] }
                    }
                    let d = pl[j * n + j]
                    if d != 0 { for i in 0..<count { rj[i] = rj[i] / d } } else { for i in 0..<count { rj[i] = 0 } }
                }
                // Back: x_j = (y_j − Σ_{k>j} L_kj x_k) / L_jj, k ascending.
                for j in stride(from: n - 1, through: 0, by: -1) {
                    let rj = b + j * count
                    for k in (j + 1)..<max(j + 1, n) {
                        let f = pl[k * n + j]
                        let rk = b + k * count
                        for i in 0..<count { rj[i] -= f * rk[i] }
                    }
                    let d = pl[j * n + j]
                    if d != 0 { for i in 0..<count { rj[i] = rj[i] / d } } else { for i in 0..<count { rj[i] = 0 } }
                }
            }
        }
    }

    /// Strict Cholesky: false when `a` is not positive definite.
    public static func cholesky(_ a: inout [Double], n: Int) -> Bool { choleskyFailure(&a, n: n) == nil }

    /// In-place lower Cholesky factor of the `n×n` matrix `a` (only the lower triangle is read;
    /// the strict upper triangle is left as it was). Golub & Van Loan, *Matrix Computations*, 4th
    /// ed., Alg. 4.2.2 (row-oriented Cholesky–Crout).
    /// - Returns: nil on success, else the first pivot that was not positive and finite.
    public static func choleskyFailure(_ a: inout [Double], n: Int) -> (index: Int, pivot: Double)? {
        var failure: (index: Int, pivot: Double)?
        a.withUnsafeMutableBufferPointer { m in
            for j in 0..<n {
                var d = m[j * n + j]
                for k in 0..<j { d -= m[j * n + k] * m[j * n + k] }
                guard d > 0, d.isFinite else { failure = (j, d); return }
                let l = d.squareRoot()
                m[j * n + j] = l
                for i in (j + 1)..<max(j + 1, n) {
                    var s = m[i * n + j]
                    for k in 0..<j { s -= m[i * n + k] * m[j * n + k] }
                    m[i * n + j] = s / l
                }
            }
        }
        return failure
    }

    /// Solves `L y = b` in place (forward substitution); zero pivots give zero components.
    public static func forwardSubstitute(_ l: [Double], n: Int, _ b: inout [Double]) {
        l.withUnsafeBufferPointer { pl in
            b.withUnsafeMutableBufferPointer { pb in
                for i in 0..<n {
                    var s = pb[i]
                    for k in 0..<i { s -= pl[i * n + k] * pb[k] }
                    let d = pl[i * n + i]
                    pb[i] = d != 0 ? s / d : 0
                }
            }
        }
    }

    /// Solves `Lᵀ x = y` in place (back substitution).
    public static func backSubstitute(_ l: [Double], n: Int, _ b: inout [Double]) {
        l.withUnsafeBufferPointer { pl in
            b.withUnsafeMutableBufferPointer { pb in
                for i in stride(from: n - 1, through: 0, by: -1) {
                    var s = pb[i]
                    for k in (i + 1)..<max(i + 1, n) { s -= pl[k * n + i] * pb[k] }
                    let d = pl[i * n + i]
                    pb[i] = d != 0 ? s / d : 0
                }
            }
        }
    }
}

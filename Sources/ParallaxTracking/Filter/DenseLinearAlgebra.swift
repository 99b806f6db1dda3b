import ParallaxMath
import Foundation

/// Small dense kernels on row-major `[Double]` buffers for the filter's hot paths.
///
/// The filter's matrices change size every frame (clones come and go) and are at most ~100×100,
/// so flat arrays with unchecked pointer loops beat a general matrix type here.
enum Dense {
    /// In-place lower Cholesky factor of the symmetric positive-definite `n×n` matrix `a`
    /// (upper triangle zeroed). Pivots below `tolerance × max diagonal` make the column zero
    /// instead of failing, which gives a factor of the positive semidefinite part (rank-revealing
    /// in the way the MSCKF compression needs). Returns the number of non-zero pivots.
    @discardableResult
    static func choleskySemidefinite(_ a: inout [Double], n: Int, tolerance: Double = 1e-12) -> Int {
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
    static func multiply(_ a: [Double], _ b: [Double], rows: Int, inner: Int, columns: Int) -> [Double] {
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
    static func multiplyTransposed(_ a: [Double], _ b: [Double], rows: Int, columns: Int, inner: Int) -> [Double] {
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
    static func multiplyTransposedLower(_ a: [Double], _ b: [Double], rows: Int, inner: Int) -> [Double] {
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
    static func transpose(_ a: [Double], rows: Int, columns: Int) -> [Double] {
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
    static func choleskySolveTransposed(_ l: [Double], n: Int, _ bt: inout [Double], count: Int) {
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
    static func cholesky(_ a: inout [Double], n: Int) -> Bool {
        var ok = true
        a.withUnsafeMutableBufferPointer { m in
            for j in 0..<n {
                var d = m[j * n + j]
                for k in 0..<j { d -= m[j * n + k] * m[j * n + k] }
                guard d > 0, d.isFinite else { ok = false; return }
                let l = d.squareRoot()
                m[j * n + j] = l
                for i in (j + 1)..<max(j + 1, n) {
                    var s = m[i * n + j]
                    for k in 0..<j { s -= m[i * n + k] * m[j * n + k] }
                    m[i * n + j] = s / l
                }
            }
        }
        return ok
    }

    /// Solves `L y = b` in place (forward substitution); zero pivots give zero components.
    static func forwardSubstitute(_ l: [Double], n: Int, _ b: inout [Double]) {
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
    static func backSubstitute(_ l: [Double], n: Int, _ b: inout [Double]) {
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

    /// Applies Householder reflections that make the `m×3` block `hf` upper triangular to the rows of
    /// `hx` (`m×c`) and `r` (`m`), then drops the first three rows: the result spans the left null
    /// space of `hf` (Mourikis & Roumeliotis 2007, eq. 23–24, computed without forming the null basis).
    /// Returns the projected `(m−3)×c` matrix and residual; `nil` when `m ≤ 3`.
    static func nullSpaceProject(hf: inout [Double], hx: inout [Double], r: inout [Double], rows m: Int, columns c: Int)
        -> (hx: [Double], r: [Double])? {
        guard m > 3 else { return nil }
        var v = [Double](repeating: 0, count: m)
        for j in 0..<3 {
            // Householder vector for column j, rows j..<m.
            var norm2 = 0.0
            for i in j..<m { norm2 += hf[i * 3 + j] * hf[i * 3 + j] }
            let norm = norm2.squareRoot()
            if norm < 1e-300 { continue }
            let x0 = hf[j * 3 + j]
            let alpha = x0 >= 0 ? -norm : norm
            for i in j..<m { v[i] = hf[i * 3 + j] }
            v[j] = x0 - alpha
            var vv = 0.0
            for i in j..<m { vv += v[i] * v[i] }
            if vv < 1e-300 { continue }
            let beta = 2 / vv
            // Apply (I − β v vᵀ) to hf's remaining columns, hx and r.
            for col in j..<3 {
                var s = 0.0
                for i in j..<m { s += v[i] * hf[i * 3 + col] }
                s *= beta
                for i in j..<m { hf[i * 3 + col] -= s * v[i] }
            }
            hx.withUnsafeMutableBufferPointer { h in
                for col in 0..<c {
                    var s = 0.0
                    for i in j..<m { s += v[i] * h[i * c + col] }
                    s *= beta
                    if s != 0 { for i in j..<m { h[i * c + col] -= s * v[i] } }
                }
            }
            var s = 0.0
            for i in j..<m { s += v[i] * r[i] }
            s *= beta
            for i in j..<m { r[i] -= s * v[i] }
        }
        let out = Array(hx[(3 * c)...])
        return (out, Array(r[3...]))
    }
}

/// Chi-squared quantiles at 95 % (table for small degrees of freedom, Wilson–Hilferty beyond).
enum ChiSquared {
    private static let table95: [Double] = [3.841, 5.991, 7.815, 9.488, 11.070, 12.592, 14.067, 15.507, 16.919, 18.307,
                                             19.675, 21.026, 22.362, 23.685, 24.996, 26.296, 27.587, 28.869, 30.144, 31.410]

    /// The quantile of probability `p` for `dof` degrees of freedom (p = 0.95 uses the table).
    static func quantile(dof: Int, probability p: Double = 0.95) -> Double {
        if abs(p - 0.95) < 1e-9, dof >= 1, dof <= table95.count { return table95[dof - 1] }
        // Wilson & Hilferty (1931): (X/ν)^(1/3) is approximately normal.
        let z = normalQuantile(p)
        let k = Double(max(dof, 1))
        let a = 2 / (9 * k)
        let t = 1 - a + z * a.squareRoot()
        return k * t * t * t
    }

    /// Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9).
    static func normalQuantile(_ p: Double) -> Double {
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
                 -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
                 -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
                 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let pl = 0.02425
        if p < pl {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - pl { return -normalQuantile(1 - p) }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}

/// Eigen-decomposition `A = V diag(λ) Vᵀ` of a real symmetric matrix by the cyclic Jacobi method
/// (Golub & Van Loan, *Matrix Computations*, 4th ed., §8.5.2–8.5.3, Algs. 8.5.1 and 8.5.3).
///
/// Jacobi is slower than tridiagonal QR for large n but, for the small matrices here (covariances,
/// 3×3 inertia/structure tensors), it is simple, converges quadratically and computes small
/// eigenvalues to high *relative* accuracy (Demmel & Veselić, SIAM J. Matrix Anal. Appl. 1992).
/// Only the symmetric part `(A + Aᵀ)/2` is used.
public struct SymmetricEigen: Sendable {
    /// Eigenvalues in ascending order.
    public let values: [Double]
    /// Orthonormal eigenvectors as columns, in the order of ``values``.
    public let vectors: Matrix

    /// The eigenvector of `values[index]` (column `index` of ``vectors``), e.g. `vector(0)` for the
    /// direction of least variance or the null vector of a normal matrix.
    public func vector(_ index: Int) -> [Double] { (0..<vectors.rows).map { vectors[$0, index] } }

    /// Sweep budget; Jacobi needs ~5–10 sweeps to reach machine precision for n ≤ 100.
    public static let maxSweeps = 100

    /// Decomposes `a`.
    public init(_ a: Matrix) throws {
        guard a.isSquare else { throw LinearAlgebraError.notSquare(rows: a.rows, cols: a.cols) }
        guard a.isFinite else { throw LinearAlgebraError.nonFinite }
        let n = a.rows
        var w = a.symmetrized
        var v = Matrix.identity(n)
        var converged = false
        var total = 0.0
        for x in w.elements { total += x * x }
        // Negligible in absolute terms: far below anything that can change an eigenvalue.
        let floor = Double.ulpOfOne * Double.ulpOfOne * total.squareRoot()
        for _ in 0..<Self.maxSweeps {
            var rotated = false
            for p in 0..<n {
                for q in (p + 1)..<max(p + 1, n) {
                    let apq = w[p, q]
                    // Demmel–Veselić stopping rule: |a_pq| ≤ ε √|a_pp a_qq| keeps small eigenvalues
                    // accurate to high relative precision.
                    if abs(apq) <= Double.ulpOfOne * abs(w[p, p] * w[q, q]).squareRoot() || abs(apq) <= floor { continue }
                    rotated = true
                    // The 2×2 symmetric Schur rotation (Alg. 8.5.1): t = tan θ, the smaller root.
                    let tau = (w[q, q] - w[p, p]) / (2 * apq)
                    let t = (tau >= 0 ? 1.0 : -1.0) / (abs(tau) + (1 + tau * tau).squareRoot())
                    let c = 1 / (1 + t * t).squareRoot(), s = t * c
                    for k in 0..<n {    // W ← W J (columns p, q)
                        let wp = w[k, p], wq = w[k, q]
                        w[k, p] = c * wp - s * wq
                        w[k, q] = s * wp + c * wq
                    }
                    for k in 0..<n {    // W ← Jᵀ W (rows p, q)
                        let wp = w[p, k], wq = w[q, k]
                        w[p, k] = c * wp - s * wq
                        w[q, k] = s * wp + c * wq
                    }
                    w[p, q] = 0; w[q, p] = 0    // annihilated by construction; drop the rounding residue
                    for k in 0..<n {
                        let vp = v[k, p], vq = v[k, q]
                        v[k, p] = c * vp - s * vq
                        v[k, q] = s * vp + c * vq
                    }
                }
            }
            if !rotated { converged = true; break }
        }
        guard converged else { throw LinearAlgebraError.noConvergence(sweeps: Self.maxSweeps) }
        let order = (0..<n).sorted { w[$0, $0] < w[$1, $1] }
        values = order.map { w[$0, $0] }
        var sorted = Matrix(rows: n, cols: n)
        for (newCol, oldCol) in order.enumerated() { for k in 0..<n { sorted[k, newCol] = v[k, oldCol] } }
        vectors = sorted
    }
}

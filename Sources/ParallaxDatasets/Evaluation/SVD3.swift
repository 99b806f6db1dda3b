import Foundation
import ParallaxMath

/// Singular value decomposition `A = U · diag(σ) · Vᵀ` of a 3×3 matrix by one-sided
/// (Hestenes) Jacobi rotations, with `σ` sorted in decreasing order.
///
/// Private to evaluation until `Matrix3.svd()` lands in ParallaxMath. One-sided Jacobi works on
/// `A` itself (not `AᵀA`), so small singular values keep their relative accuracy — which
/// matters for near-planar trajectories. Reference: Demmel & Veselić, "Jacobi's method is more
/// accurate than QR", SIAM J. Matrix Anal. Appl. 13(4), 1992.
struct SVD3 {
    /// Left singular vectors (orthonormal columns).
    var u: Matrix3
    /// Singular values, decreasing, non-negative.
    var singularValues: Vector3
    /// Right singular vectors (orthonormal columns).
    var v: Matrix3

    init(_ a: Matrix3) {
        var cols = [a.column(0), a.column(1), a.column(2)]
        var vCols = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        // Rotate column pairs until all are mutually orthogonal (converges quadratically).
        for _ in 0..<60 {
            var rotated = false
            for (p, q) in [(0, 1), (0, 2), (1, 2)] {
                let alpha = cols[p].squaredNorm, beta = cols[q].squaredNorm, gamma = cols[p].dot(cols[q])
                guard abs(gamma) > 1e-300, abs(gamma) > Double.ulpOfOne * (alpha * beta).squareRoot() else { continue }
                rotated = true
                let zeta = (beta - alpha) / (2 * gamma)
                let t = (zeta >= 0 ? 1.0 : -1.0) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
                let c = 1 / (1 + t * t).squareRoot(), s = c * t
                (cols[p], cols[q]) = (c * cols[p] - s * cols[q], s * cols[p] + c * cols[q])
                (vCols[p], vCols[q]) = (c * vCols[p] - s * vCols[q], s * vCols[p] + c * vCols[q])
            }
            if !rotated { break }
        }
        let order = [0, 1, 2].sorted { cols[$0].squaredNorm > cols[$1].squaredNorm }
        let sigma = order.map { cols[$0].norm }
        var uCols = order.map { cols[$0] }
        let vSorted = order.map { vCols[$0] }
        // Normalise the left vectors; complete a basis where σ vanishes (rank-deficient input).
        let tiny = max(sigma[0], 1e-300) * 1e-15
        for k in 0..<3 {
            if sigma[k] > tiny {
                uCols[k] = uCols[k] / sigma[k]
            } else if k == 2 {
                uCols[2] = uCols[0].cross(uCols[1]).normalized
            } else {
                // Any unit vector orthogonal to the previous ones.
                let previous = k == 0 ? Vector3(0, 0, 0) : uCols[0]
                var candidate = abs(previous.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
                candidate = (candidate - previous * previous.dot(candidate)).normalized
                uCols[k] = candidate
            }
        }
        u = Matrix3(columns: uCols[0], uCols[1], uCols[2])
        singularValues = Vector3(sigma[0], sigma[1], sigma[2])
        v = Matrix3(columns: vSorted[0], vSorted[1], vSorted[2])
    }
}

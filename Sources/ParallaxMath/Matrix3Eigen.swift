import Foundation

extension Matrix3 {
    /// Eigenvalues of a **symmetric** matrix in closed form, `x ≥ y ≥ z` (only the upper triangle
    /// is read).
    ///
    /// The trigonometric solution of the characteristic cubic (Smith, "Eigenvalues of a symmetric
    /// 3 × 3 matrix", Comm. ACM 4(4), 1961; Kopp, "Efficient numerical diagonalization of hermitian
    /// 3 × 3 matrices", 2008): with `q = tr A / 3`, `p² = ‖A − qI‖²_F / 6` and `B = (A − qI) / p`,
    /// the eigenvalues are `q + 2p cos(φ + 2πk/3)` where `φ = acos(det B / 2) / 3`.
    /// Absolute errors are a few ulps of ‖A‖, except at a double root, where `acos` near ±1 turns
    /// rounding into errors of about √ε ‖A‖ (1e-8 relative); eigenvalues far smaller than the
    /// largest lose their relative precision. The iterative ``SymmetricEigen`` keeps both. Used
    /// where thousands of small covariances are classified per frame (the plane detector's local
    /// surfaces).
    public var symmetricEigenvalues: Vector3 {
        let a00 = self[0, 0], a11 = self[1, 1], a22 = self[2, 2]
        let a01 = self[0, 1], a02 = self[0, 2], a12 = self[1, 2]
        let offDiagonal = a01 * a01 + a02 * a02 + a12 * a12
        let q = (a00 + a11 + a22) / 3
        let d0 = a00 - q, d1 = a11 - q, d2 = a22 - q
        let p = ((d0 * d0 + d1 * d1 + d2 * d2 + 2 * offDiagonal) / 6).squareRoot()
        guard p > 0, p.isFinite else { return p == 0 ? Vector3(q, q, q) : Vector3(repeating: .nan) }
        // det(B) / 2 for B = (A − qI) / p, clamped against rounding outside [−1, 1].
        let b00 = d0 / p, b11 = d1 / p, b22 = d2 / p, b01 = a01 / p, b02 = a02 / p, b12 = a12 / p
        let det = b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) + b02 * (b01 * b12 - b11 * b02)
        let phi = acos(max(-1, min(1, det / 2))) / 3
        let largest = q + 2 * p * cos(phi)
        let smallest = q + 2 * p * cos(phi + 2 * Double.pi / 3)
        return Vector3(largest, 3 * q - largest - smallest, smallest)
    }

    /// The unit eigenvector of a **symmetric** matrix for its eigenvalue `lambda` (only the upper
    /// triangle is read): the longest cross product of two rows of `A − λI`, which spans that
    /// matrix's null space when λ is a simple eigenvalue. Nil when no cross product is clearly
    /// non-zero: λ is a repeated eigenvalue (a plane of eigenvectors, no single direction) or not
    /// an eigenvalue. The sign is arbitrary.
    public func symmetricEigenvector(for lambda: Double) -> Vector3? {
        let r0 = Vector3(self[0, 0] - lambda, self[0, 1], self[0, 2])
        let r1 = Vector3(self[0, 1], self[1, 1] - lambda, self[1, 2])
        let r2 = Vector3(self[0, 2], self[1, 2], self[2, 2] - lambda)
        let c01 = r0.cross(r1), c02 = r0.cross(r2), c12 = r1.cross(r2)
        let n01 = c01.squaredNorm, n02 = c02.squaredNorm, n12 = c12.squaredNorm
        let (best, norm2) = n01 >= n02 && n01 >= n12 ? (c01, n01) : (n02 >= n12 ? (c02, n02) : (c12, n12))
        // Rows of size ‖A‖: a cross product below ‖A‖² · 1e-20 is rounding, not a direction.
        let scale = max(r0.squaredNorm, r1.squaredNorm, r2.squaredNorm)
        guard norm2.isFinite, norm2 > 1e-20 * scale * scale, norm2 > 0 else { return nil }
        return best / norm2.squareRoot()
    }
}

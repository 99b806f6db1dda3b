extension Matrix3 {
    /// The "signed" SVD `self = u · diag(s) · vᵀ` with **both `u` and `v` proper rotations**
    /// (det = +1), `s.x ≥ s.y ≥ |s.z|`, and `s.z` carrying the sign of `det(self)`.
    ///
    /// Computed with the one-sided Jacobi ``SVD``, then made proper: if exactly one of the ordinary
    /// factors `U`, `V` is a reflection, its last column and `s.z` are negated; if both are, both last
    /// columns are negated (which leaves the product unchanged).
    ///
    /// This is the form point-set registration needs. In Umeyama's method (Umeyama, "Least-squares
    /// estimation of transformation parameters between two point patterns", IEEE PAMI 13(4), 1991,
    /// eqs. 38–43) with `Σ_xy = U D Vᵀ` and `S = diag(1, 1, sign(det U det V))`, the optimal rotation
    /// is `R = U S Vᵀ` and the scale is `tr(D S) / σ²ₓ`. In the signed form these are simply
    /// `R = u * v.transpose` and `c = (s.x + s.y + s.z) / σ²ₓ` — no reflection case left for the caller.
    ///
    /// Non-finite input yields non-finite output (no trap).
    public func svd() -> (u: Matrix3, s: Vector3, v: Matrix3) {
        guard isFinite, let (um, sv, vm) = SVD.jacobi(Matrix(self)) else {
            let nan = Matrix3(diagonal: Vector3(repeating: .nan))
            return (nan, Vector3(repeating: .nan), nan)
        }
        var u = um.block3(row: 0, col: 0), v = vm.block3(row: 0, col: 0)
        var s = Vector3(sv[0], sv[1], sv[2])
        let du = u.determinant < 0, dv = v.determinant < 0
        if du { u.columns.2 = -u.columns.2 }
        if dv { v.columns.2 = -v.columns.2 }
        if du != dv { s.z = -s.z }
        return (u, s, v)
    }

    /// The rotation closest to `self` in the Frobenius norm, `u vᵀ` from the signed ``svd()``
    /// (the orthogonal Procrustes solution restricted to SO(3); Umeyama 1991, Lemma).
    public var nearestRotation: Matrix3 {
        let (u, _, v) = svd()
        return u * v.transpose
    }
}

import ParallaxMath

/// The steps of one MSCKF feature update, each spelled out (OpenVINS's `UpdaterHelper`), in the
/// order ``MSCKFUpdater`` runs them: linearise → null-space projection → χ² gate → compression.
/// The EKF update itself is ``StateHelper/update(_:jacobian:columns:residual:noiseVariance:structure:)``.
enum UpdaterHelper {
    /// One feature's stacked measurement model `r = H_x δx + H_f δX + n` over the state blocks it
    /// involves: the estimated camera extrinsics and intrinsics (if any) and the clones that saw it.
    struct FeatureLinearization {
        /// State blocks of 6 columns each, in Jacobian order after the readout column: first the
        /// calibration blocks (camera `i`'s extrinsics at block `i`, its intrinsics at
        /// `calibratedCameras + i`), then the clones that saw the feature (block
        /// `calibrationBlocks + k` for clone `k`), in observation order (distinct frames).
        var involved: [Int]
        /// Rows: 2 per camera observation.
        var rows: Int
        /// Columns of `hx`: the readout, then 6 per involved block.
        var columns: Int
        /// `rows × columns` Jacobian with respect to the involved blocks.
        var hx: [Double]
        /// `rows × 3` Jacobian with respect to the feature position.
        var hf: [Double]
        /// Reprojection residuals in normalised coordinates.
        var residual: [Double]
    }

    /// Step 0: an observation as the filter's current model sees it: moved from the calibration's
    /// intrinsics to the current estimate (cameras whose intrinsics are states), and with each row's
    /// rotation undone for the current readout estimate (``Observation/withReadout(_:)``). Every user
    /// of the window's observations (the update, the reported feature points) starts from this, so
    /// that they agree with the filter's model.
    static func modelled(_ o: Observation, state: FilterState, lenses: [LensIntrinsics]) -> Observation {
        var o = o
        let intrinsic = min(state.intrinsicCameras, lenses.count)
        if intrinsic > 0 { o.left = lenses[0].corrected(o.left, offset: state.intrinsicOffsets[0]) }
        if intrinsic > 1, let r = o.right { o.right = lenses[1].corrected(r, offset: state.intrinsicOffsets[1]) }
        return o.withReadout(state.readout)
    }

    /// The body pose `(R_world_body, p_world_body)` from which `o`'s cam0 row was read: a
    /// rolling-shutter row read δ after the clone saw the camera moved along the clone's velocity
    /// (cam0's row stands for both cameras).
    static func rowPose(of o: Observation, clone: Clone, readout: Double) -> (Matrix3, Vector3) {
        (clone.rotation, clone.position + clone.velocity * o.leftDelay(readout: readout))
    }

    /// Step 1 (Mourikis & Roumeliotis, ICRA 2007, §III-C, eq. 19–22): residuals and Jacobians of
    /// every observation of a feature at world point `x`.
    ///
    /// Residuals use the clones' current estimates; clone Jacobians use their first estimates (FEJ,
    /// Li & Mourikis IJRR 2013), so the linearised system keeps yaw and position unobservable. With
    /// the world-frame rotation error on the body, ∂p_cam/∂X = R_wcᵀ, ∂p_cam/∂δθ = R_wcᵀ [X − p_body]×,
    /// ∂p_cam/∂δp = −R_wcᵀ. For an estimated extrinsic (R_bc = Exp(δθ_e) R̂_bc, p_bc = p̂_bc + δp_e;
    /// Li & Mourikis IJRR 2013 §IV, OpenVINS's `get_feature_jacobian_full`), with q = R_wbᵀ(X − p_wb) − p_bc
    /// the point relative to the camera in body axes, p_cam = R_bcᵀ q gives ∂p_cam/∂δθ_e = R̂_bcᵀ [q]×
    /// and ∂p_cam/∂δp_e = −R̂_bcᵀ (current extrinsic estimate, clone at its first estimate). For
    /// estimated intrinsics the observations must already be moved to the current estimate
    /// (``LensIntrinsics/corrected(_:offset:)``), and the block is −G (``LensIntrinsics``).
    /// Readout (column 0; observations already turned back with the current estimate,
    /// ``Observation/withReadout(_:)``): row v was read ρ t_r after the clone, so the camera sat at
    /// p + v ρ t_r, and the stored bearing is the middle-row one turned by Exp(ω ρ (t̂_r − t_r)); hence
    /// ∂h/∂t_r = −ρ (dπ (ω × p_cam) + dπ R_wcᵀ v) (Li, Kim & Mourikis, ICRA 2013, §III-B).
    /// With a global shutter ρ = 0 and the column is zero.
    /// Returns nil when the point is (nearly) behind a camera in either estimate.
    static func linearize(_ obs: [Observation], point x: Vector3, cloneIndex: [Int: Int], state: FilterState,
                          lenses: [LensIntrinsics] = []) -> FeatureLinearization? {
        let rig = state.rig, calibrated = state.calibratedCameras, blocks = state.calibrationBlocks
        let intrinsic = min(state.intrinsicCameras, lenses.count)
        guard let clones = try? obs.map({ o -> Int in
            guard let k = cloneIndex[o.frame] else { throw MissingClone() }
            return k
        }) else { return nil }
        let involved = Array(0..<blocks) + clones.map { blocks + $0 }
        let c = 1 + involved.count * 6
        let m = obs.reduce(0) { $0 + ($1.right != nil && rig.hasRight ? 4 : 2) }
        var hx = [Double](repeating: 0, count: m * c)
        var hf = [Double](repeating: 0, count: m * 3)
        var r = [Double](repeating: 0, count: m)
        var row = 0
        for (k, o) in obs.enumerated() {
            let clone = state.clones[clones[k]]
            let cloneCol = 1 + 6 * (blocks + k)
            for cam in (o.right != nil && rig.hasRight) ? [0, 1] : [0] {
                let z = cam == 0 ? o.left : (o.right ?? o.left)
                // Rolling shutter: the row was read ρ t_r after the clone's time.
                let fraction = cam == 0 ? o.leftRowFraction : o.rightRowFraction
                let shift = clone.velocity * (fraction * state.readout)
                // Residual with current estimates.
                let (rc, pc) = rig.cameraPose(cam, bodyRotation: clone.rotation, bodyPosition: clone.position + shift)
                let pCam = rc.transpose * (x - pc)
                // Jacobians with first estimates.
                let (rcF, pcF) = rig.cameraPose(cam, bodyRotation: clone.rotationFE, bodyPosition: clone.positionFE + shift)
                let pCamF = rcF.transpose * (x - pcF)
                guard pCam.z > 0.05, pCamF.z > 0.05 else { continue }
                r[row] = z.x - pCam.x / pCam.z
                r[row + 1] = z.y - pCam.y / pCam.z
                let iz = 1 / pCamF.z
                let d0 = Vector3(iz, 0, -pCamF.x * iz * iz)
                let d1 = Vector3(0, iz, -pCamF.y * iz * iz)
                let jf0 = rcF * d0, jf1 = rcF * d1   // rows of d·R_wcᵀ as vectors
                let skew = Matrix3.skew(x - clone.positionFE - shift)
                let jt0 = skew.transpose * jf0, jt1 = skew.transpose * jf1
                for a in 0..<3 {
                    hf[row * 3 + a] = jf0[a]
                    hf[(row + 1) * 3 + a] = jf1[a]
                    hx[row * c + cloneCol + a] = jt0[a]
                    hx[(row + 1) * c + cloneCol + a] = jt1[a]
                    hx[row * c + cloneCol + 3 + a] = -jf0[a]
                    hx[(row + 1) * c + cloneCol + 3 + a] = -jf1[a]
                }
                if fraction != 0 {
                    let rate = cam == 0 ? o.leftRate : o.rightRate
                    let turn = rate.cross(pCamF)
                    hx[row * c] = -fraction * (d0.dot(turn) + jf0.dot(clone.velocity))
                    hx[(row + 1) * c] = -fraction * (d1.dot(turn) + jf1.dot(clone.velocity))
                }
                if cam < calibrated {
                    let (rbc, pbc) = rig.extrinsics(cam)
                    let q = clone.rotationFE.transpose * (x - clone.positionFE - shift) - pbc
                    let u0 = rbc * d0, u1 = rbc * d1          // rows of d·R_bcᵀ as vectors
                    let qs = Matrix3.skew(q).transpose
                    let je0 = qs * u0, je1 = qs * u1
                    let col = 1 + 6 * cam
                    for a in 0..<3 {
                        hx[row * c + col + a] = je0[a]
                        hx[(row + 1) * c + col + a] = je1[a]
                        hx[row * c + col + 3 + a] = -u0[a]
                        hx[(row + 1) * c + col + 3 + a] = -u1[a]
                    }
                }
                if cam < intrinsic {
                    let (g0, g1) = lenses[cam].sensitivity(at: z)
                    let col = 1 + 6 * (calibrated + cam)
                    for a in 0..<LensIntrinsics.dimension {
                        hx[row * c + col + a] = -g0[a]
                        hx[(row + 1) * c + col + a] = -g1[a]
                    }
                }
                if clone.noiseScale != 1 {
                    // Whitening: the rows of a noisier clone are scaled to the common σ.
                    let w = 1 / clone.noiseScale
                    for rr in row..<(row + 2) {
                        r[rr] *= w
                        for a in 0..<3 { hf[rr * 3 + a] *= w }
                        for a in 0..<c { hx[rr * c + a] *= w }
                    }
                }
                row += 2
            }
        }
        guard row == m else { return nil }
        return FeatureLinearization(involved: involved, rows: m, columns: c, hx: hx, hf: hf, residual: r)
    }

    private struct MissingClone: Error {}

    /// Step 2 (eq. 23–24): the feature position leaves the problem.
    ///
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

    /// Where the readout column and an involved block's 6 columns sit in the update's column range
    /// (the readout, the calibration blocks, then the clones, from ``FilterState/updateStart``),
    /// with runs of consecutive columns merged: they are contiguous both in the projected Jacobian
    /// and in the covariance, so gathers and accumulations copy whole runs at a time.
    struct CloneColumns {
        /// For each Jacobian column, its column in the update's range (0 = ``FilterState/updateStart``).
        var window: [Int]
        /// Runs of contiguous columns: start in the Jacobian, start in the update range, width.
        var runs: [(hoStart: Int, infoStart: Int, width: Int)]

        init(involved: [Int]) {
            let c = 1 + involved.count * 6
            window = [0] + (1..<c).map { 1 + 6 * involved[($0 - 1) / 6] + ($0 - 1) % 6 }
            runs = [(0, 0, 1)]
            for kb in 0..<involved.count {
                let ho = 1 + 6 * kb, info = 1 + 6 * involved[kb]
                if let last = runs.last, last.infoStart + last.width == info, last.hoStart + last.width == ho {
                    runs[runs.count - 1].width += 6
                } else {
                    runs.append((ho, info, 6))
                }
            }
        }
    }

    /// Step 3 (eq. 25 and OpenVINS's Mahalanobis gate): γ = rᵀ (H P Hᵀ + σ²I)⁻¹ r against the χ²
    /// quantile of `probability` for `rows` degrees of freedom. `h` is `rows × columns.window.count`.
    ///
    /// Why the early accept is exact: P is positive semidefinite, so S = H P Hᵀ + σ²I ⪰ σ²I and
    /// γ ≤ ‖r‖²/σ². A feature whose residual alone is under the quantile passes whatever H P Hᵀ is,
    /// and the `rows × c × c` product (the gate's whole cost) is skipped for it.
    static func passesChiSquared(h: [Double], residual: [Double], rows: Int, columns: CloneColumns,
                                 state: FilterState, noiseVariance: Double, probability: Double) -> Bool {
        let threshold = ChiSquared.quantile(dof: rows, probability: probability)
        if residual.reduce(0, { $0 + $1 * $1 }) <= threshold * noiseVariance { return true }
        let c = columns.window.count, n = state.dimension, start = state.updateStart
        var pSub = [Double](repeating: 0, count: c * c)
        state.covariance.withUnsafeBufferPointer { p in
            pSub.withUnsafeMutableBufferPointer { ps in
                for a in 0..<c {
                    let src = p.baseAddress! + (start + columns.window[a]) * n + start
                    let dst = ps.baseAddress! + a * c
                    for run in columns.runs { (dst + run.hoStart).update(from: src + run.infoStart, count: run.width) }
                }
            }
        }
        return passesChiSquared(h: h, residual: residual, rows: rows, covariance: pSub, columns: c,
                                noiseVariance: noiseVariance, probability: probability)
    }

    /// The χ² gate for a measurement with Jacobian `h` (`rows × columns`) on a state block whose
    /// covariance is `covariance` (`columns × columns`).
    static func passesChiSquared(h: [Double], residual: [Double], rows: Int, covariance: [Double], columns c: Int,
                                 noiseVariance: Double, probability: Double) -> Bool {
        let hp = Dense.multiply(h, covariance, rows: rows, inner: c, columns: c)
        // Only the lower triangle: `cholesky` and `forwardSubstitute` read nothing else.
        var s = Dense.multiplyTransposedLower(hp, h, rows: rows, inner: c)
        for i in 0..<rows { s[i * rows + i] += noiseVariance }
        var y = residual
        guard Dense.cholesky(&s, n: rows) else { return false }
        Dense.forwardSubstitute(s, n: rows, &y)
        let gamma = y.reduce(0) { $0 + $1 * $1 }
        return gamma <= ChiSquared.quantile(dof: rows, probability: probability)
    }
}

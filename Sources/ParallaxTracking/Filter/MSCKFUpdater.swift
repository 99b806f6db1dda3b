import ParallaxMath

/// The MSCKF measurement update (Mourikis & Roumeliotis, ICRA 2007, §III-D/E):
/// per feature, stack the reprojection residuals of all its observations, project them onto the
/// left null space of the feature Jacobian (so the feature position leaves the problem), gate with
/// a χ² test, then fuse all features at once after compressing the stacked system.
///
/// Compression: the update depends on the data only through HᵀH and Hᵀr (R = σ²I), so instead of
/// a QR of the tall stacked H we accumulate HᵀH over the clone columns and use its Cholesky factor
/// Lᵀ as the compressed Jacobian with r' = L⁻¹Hᵀr — the same information as the QR's R factor
/// (Mourikis & Roumeliotis 2007, eq. 26–28).
///
/// Jacobians use the clones' first estimates (FEJ, Li & Mourikis IJRR 2013); residuals use the
/// current estimates.
struct MSCKFUpdater {
    let rig: CameraRig
    /// Measurement standard deviation in normalised image coordinates.
    let sigma: Double
    let chiSquaredProbability: Double
    /// Observations whose reprojection error exceeds this many σ are dropped before the update (a
    /// wrong stereo match or a KLT slip in one frame should not cost the whole track).
    var outlierSigmas: Double = 5

    /// Outcome counts for diagnostics and tracking-state decisions.
    struct Outcome {
        var used = 0
        var rejected = 0
        var failedTriangulation = 0
    }

    /// Updates `state` with `tracks`; returns counts and the triangulated positions of used features.
    func update(_ state: inout FilterState, tracks: [FeatureTrack]) -> (Outcome, [(Int, Vector3)]) {
        var outcome = Outcome()
        var points: [(Int, Vector3)] = []
        let w = state.clones.count
        guard w >= 2, !tracks.isEmpty else { return (outcome, points) }
        var cloneIndex: [Int: Int] = [:]
        for (k, c) in state.clones.enumerated() { cloneIndex[c.frame] = k }
        let kdim = 6 * w
        var info = [Double](repeating: 0, count: kdim * kdim)
        var infoVec = [Double](repeating: 0, count: kdim)
        let n = state.dimension
        let sigma2 = sigma * sigma

        for track in tracks {
            var obs = track.observations.filter { cloneIndex[$0.frame] != nil }
            guard obs.count >= 2 else { continue }
            var poses = obs.map { o -> (Matrix3, Vector3) in
                let c = state.clones[cloneIndex[o.frame]!]
                return (c.rotation, c.position)
            }
            guard let x = Triangulation.triangulateRobust(&obs, poses: &poses, rig: rig, maxErrorNormalized: 0.05,
                                                          outlierNormalized: outlierSigmas * sigma) else {
                outcome.failedTriangulation += 1
                continue
            }
            // Involved clones, in observation order (distinct frames).
            let involved = obs.map { cloneIndex[$0.frame]! }
            let c = involved.count * 6
            let m = obs.reduce(0) { $0 + ($1.right != nil && rig.hasRight ? 4 : 2) }
            var hx = [Double](repeating: 0, count: m * c)
            var hf = [Double](repeating: 0, count: m * 3)
            var r = [Double](repeating: 0, count: m)
            var row = 0
            for (k, o) in obs.enumerated() {
                let clone = state.clones[involved[k]]
                let cams = (o.right != nil && rig.hasRight) ? [0, 1] : [0]
                for cam in cams {
                    let z = cam == 0 ? o.left : o.right!
                    // Residual with current estimates.
                    let (rc, pc) = rig.cameraPose(cam, bodyRotation: clone.rotation, bodyPosition: clone.position)
                    let pCam = rc.transpose * (x - pc)
                    // Jacobians with first estimates.
                    let (rcF, pcF) = rig.cameraPose(cam, bodyRotation: clone.rotationFE, bodyPosition: clone.positionFE)
                    let pCamF = rcF.transpose * (x - pcF)
                    guard pCam.z > 0.05, pCamF.z > 0.05 else { continue }
                    r[row] = z.x - pCam.x / pCam.z
                    r[row + 1] = z.y - pCam.y / pCam.z
                    let iz = 1 / pCamF.z
                    let d0 = Vector3(iz, 0, -pCamF.x * iz * iz)
                    let d1 = Vector3(0, iz, -pCamF.y * iz * iz)
                    // ∂p_cam/∂X = R_wcᵀ; ∂p_cam/∂δθ (world error on body) = R_wcᵀ [X − p_body]×;
                    // ∂p_cam/∂δp = −R_wcᵀ.
                    let rt = rcF.transpose
                    let jf0 = rt.transpose * d0, jf1 = rt.transpose * d1   // rows of d·R_wcᵀ as vectors
                    let skew = Matrix3.skew(x - clone.positionFE)
                    let jt0 = skew.transpose * jf0, jt1 = skew.transpose * jf1
                    for a in 0..<3 {
                        hf[row * 3 + a] = jf0[a]
                        hf[(row + 1) * 3 + a] = jf1[a]
                        hx[row * c + 6 * k + a] = jt0[a]
                        hx[(row + 1) * c + 6 * k + a] = jt1[a]
                        hx[row * c + 6 * k + 3 + a] = -jf0[a]
                        hx[(row + 1) * c + 6 * k + 3 + a] = -jf1[a]
                    }
                    row += 2
                }
            }
            guard row == m, let (ho, ro) = Dense.nullSpaceProject(hf: &hf, hx: &hx, r: &r, rows: m, columns: c) else {
                outcome.failedTriangulation += 1
                continue
            }
            let mo = m - 3
            // χ² gate: γ = rᵀ (H P Hᵀ + σ²I)⁻¹ r.
            let g = (0..<c).map { 6 * involved[$0 / 6] + $0 % 6 }   // column in the clone block
            // Runs of consecutive clones: their columns are contiguous both in `ho` and in the
            // covariance / `info`, so gathers and accumulations copy whole runs at a time.
            var runs: [(hoStart: Int, infoStart: Int, width: Int)] = []
            for kb in 0..<involved.count {
                if let last = runs.last, last.infoStart + last.width == 6 * involved[kb],
                   last.hoStart + last.width == 6 * kb {
                    runs[runs.count - 1].width += 6
                } else {
                    runs.append((6 * kb, 6 * involved[kb], 6))
                }
            }
            var pSub = [Double](repeating: 0, count: c * c)
            state.covariance.withUnsafeBufferPointer { p in
                pSub.withUnsafeMutableBufferPointer { ps in
                    for a in 0..<c {
                        let src = p.baseAddress! + (FilterState.imuDimension + g[a]) * n + FilterState.imuDimension
                        let dst = ps.baseAddress! + a * c
                        for run in runs { (dst + run.hoStart).update(from: src + run.infoStart, count: run.width) }
                    }
                }
            }
            let hp = Dense.multiply(ho, pSub, rows: mo, inner: c, columns: c)
            // Only the lower triangle: `cholesky` and `forwardSubstitute` read nothing else.
            var s = Dense.multiplyTransposedLower(hp, ho, rows: mo, inner: c)
            for i in 0..<mo { s[i * mo + i] += sigma2 }
            var y = ro
            guard Dense.cholesky(&s, n: mo) else { outcome.rejected += 1; continue }
            Dense.forwardSubstitute(s, n: mo, &y)
            let gamma = y.reduce(0) { $0 + $1 * $1 }
            guard gamma <= ChiSquared.quantile(dof: mo, probability: chiSquaredProbability) else {
                outcome.rejected += 1
                continue
            }
            // Accumulate HᵀH and Hᵀr over the window's clone columns. Only the lower triangle of
            // `info` is accumulated (`choleskySemidefinite` reads nothing else), over runs of
            // consecutive clones so the inner loop covers contiguous columns of both `ho` and `info`;
            // every entry still receives its terms in ascending row order, as before.
            info.withUnsafeMutableBufferPointer { inf in
                ho.withUnsafeBufferPointer { h in
                    ro.withUnsafeBufferPointer { rr in
                        for i in 0..<mo {
                            let hrow = h.baseAddress! + i * c
                            for a in 0..<c {
                                let va = hrow[a]
                                if va == 0 { continue }
                                let ga = g[a]
                                infoVec[ga] += va * rr[i]
                                let base = inf.baseAddress! + ga * kdim
                                for run in runs where run.infoStart <= ga {
                                    // Columns of this run on or below the diagonal of row ga.
                                    let count = min(run.width, ga - run.infoStart + 1)
                                    let hb = hrow + run.hoStart
                                    let dst = base + run.infoStart
                                    for b in 0..<count { dst[b] += va * hb[b] }
                                }
                            }
                        }
                    }
                }
            }
            outcome.used += 1
            points.append((track.id, x))
        }
        guard outcome.used > 0 else { return (outcome, points) }

        // Compressed system: H' = Lᵀ, r' = L⁻¹ Hᵀr.
        Dense.choleskySemidefinite(&info, n: kdim)
        var rc = infoVec
        Dense.forwardSubstitute(info, n: kdim, &rc)
        // PHt = P[:, clones] · H'ᵀ = P[:, clones] · L. Row-axpy over a ascending: each entry gets
        // the same terms in the same order as the dot product Σ_{a≥j} P_i,a L_a,j, but the inner
        // loop runs over a contiguous row of L (L is lower triangular, so j ≤ a).
        var pht = [Double](repeating: 0, count: n * kdim)
        state.covariance.withUnsafeBufferPointer { p in
            info.withUnsafeBufferPointer { l in
                pht.withUnsafeMutableBufferPointer { out in
                    for i in 0..<n {
                        let orow = out.baseAddress! + i * kdim
                        for a in 0..<kdim {
                            let v = p[i * n + 15 + a]
                            let lrow = l.baseAddress! + a * kdim
                            for j in 0...a { orow[j] += v * lrow[j] }
                        }
                    }
                }
            }
        }
        // S = H' P Hᵀ' + σ²I = Lᵀ · PHt[clone rows] (upper triangle, then mirrored).
        var sm = [Double](repeating: 0, count: kdim * kdim)
        info.withUnsafeBufferPointer { l in
            pht.withUnsafeBufferPointer { ph in
                sm.withUnsafeMutableBufferPointer { out in
                    for i in 0..<kdim {
                        let orow = out.baseAddress! + i * kdim
                        for a in i..<kdim {
                            let f = l[a * kdim + i]
                            let prow = ph.baseAddress! + (15 + a) * kdim
                            for j in i..<kdim { orow[j] += f * prow[j] }
                        }
                    }
                }
            }
        }
        for i in 0..<kdim { for j in 0..<i { sm[i * kdim + j] = sm[j * kdim + i] }; sm[i * kdim + i] += sigma2 }
        guard Dense.cholesky(&sm, n: kdim) else { return (outcome, points) }
        // K = PHt S⁻¹, solved for all rows at once in the transposed layout (kdim × n), which makes
        // every substitution step a contiguous axpy across the n right-hand sides.
        let phtT = Dense.transpose(pht, rows: n, columns: kdim)
        var gainT = phtT
        Dense.choleskySolveTransposed(sm, n: kdim, &gainT, count: n)
        var dx = [Double](repeating: 0, count: n)
        for j in 0..<kdim {
            let rj = rc[j]
            for i in 0..<n { dx[i] += gainT[j * n + i] * rj }
        }
        // P ← P − K PHtᵀ (upper triangle, mirrored). acc[j] = Σ_a K_i,a PHt_j,a over a ascending.
        var acc = [Double](repeating: 0, count: n)
        state.covariance.withUnsafeMutableBufferPointer { p in
            gainT.withUnsafeBufferPointer { gt in
                phtT.withUnsafeBufferPointer { ht in
                    acc.withUnsafeMutableBufferPointer { ac in
                        let acp = ac.baseAddress!
                        for i in 0..<n {
                            for j in i..<n { acp[j] = 0 }
                            for a in 0..<kdim {
                                let gv = gt[a * n + i]
                                let hrow = ht.baseAddress! + a * n
                                for j in i..<n { acp[j] += gv * hrow[j] }
                            }
                            for j in i..<n {
                                p[i * n + j] -= acp[j]
                                if i != j { p[j * n + i] = p[i * n + j] }
                            }
                        }
                    }
                }
            }
        }
        state.inject(dx)
        return (outcome, points)
    }
}


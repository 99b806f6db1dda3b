import ParallaxMath

/// Every edit of the filter covariance, in one place (OpenVINS's `StateHelper`): covariance
/// propagation, stochastic cloning, marginalisation and the EKF update. The updaters compute
/// Jacobians and residuals; they never write the covariance themselves.
enum StateHelper {
    /// Shape of a Jacobian handed to ``update(_:jacobian:columns:residual:noiseVariance:structure:)``.
    enum JacobianStructure {
        /// Any dense matrix.
        case dense
        /// Upper triangular (the compressed MSCKF Jacobian, a transposed Cholesky factor): the
        /// known zeros are skipped, with the same result as the dense path.
        case upperTriangular
    }

    // MARK: Propagation

    /// Covariance propagation with the composed IMU transition `phi` and noise `q` (9×9 blocks
    /// over θ, p, v, b_g, b_a and the IMU intrinsics s_g, m_g, s_a, m_a): P_II ← Φ P_II Φᵀ + Q, P_IC ← Φ P_IC (Li & Mourikis IJRR 2013, eq. 10–12).
    /// The clone block P_CC does not change: clones are static.
    static func propagate(_ state: inout FilterState, phi: BlockMatrix, q: BlockMatrix) {
        let n = state.dimension, blocks = state.imuBlocks, m = state.imuDimension
        var pii = BlockMatrix(zero: blocks)
        for bi in 0..<blocks {
            for bj in 0..<blocks {
                var x = Matrix3.zero
                for a in 0..<3 { for b in 0..<3 { x[a, b] = state.covariance[(3 * bi + a) * n + 3 * bj + b] } }
                pii[bi, bj] = x
            }
        }
        let newPii = phi * pii * phi.transpose + q
        for bi in 0..<blocks {
            for bj in 0..<blocks {
                let x = newPii[bi, bj]
                for a in 0..<3 { for b in 0..<3 { state.covariance[(3 * bi + a) * n + 3 * bj + b] = x[a, b] } }
            }
        }
        if n > m {
            // Cross terms with the clones, column by column.
            var col = [Double](repeating: 0, count: m)
            for j in m..<n {
                for i in 0..<m { col[i] = state.covariance[i * n + j] }
                for i in 0..<m {
                    var s = 0.0
                    let bi = i / 3, a = i % 3
                    for k in 0..<m {
                        let e = phi[bi, k / 3][a, k % 3]
                        if e != 0 { s += e * col[k] }
                    }
                    state.covariance[i * n + j] = s
                    state.covariance[j * n + i] = s
                }
            }
        }
        symmetrize(&state)
    }

    // MARK: Clones

    /// Appends a clone of the current body pose (stochastic cloning, Roumeliotis & Burdick, ICRA
    /// 2002): the new block rows and columns are copies of the IMU pose rows (θ, p), so the clone is
    /// perfectly correlated with the pose it copies.
    ///
    /// The state was propagated to the frame's time on the IMU clock, t_cam + t̂_d. Were the offset
    /// off by δt_d, the true pose would be the clone moved along the motion for δt_d, so the clone's
    /// error is [δθ, δp] + J δt_d with J = [ω_world; v] (Li & Mourikis, IJRR 2014, §III-B; OpenVINS's
    /// `StateHelper::augment_clone`): `angularVelocityWorld` is R (ω − b_g) at the frame.
    static func augmentClone(_ state: inout FilterState, frame: Int, angularVelocityWorld w: Vector3 = .zero) {
        let n = state.dimension, m = n + 6, td = state.timeOffsetColumn
        let j = [w.x, w.y, w.z, state.velocity.x, state.velocity.y, state.velocity.z]
        var p = [Double](repeating: 0, count: m * m)
        state.covariance.withUnsafeBufferPointer { old in
            p.withUnsafeMutableBufferPointer { new in
                for i in 0..<n { for c in 0..<n { new[i * m + c] = old[i * n + c] } }
                for a in 0..<6 {
                    for c in 0..<n {
                        let v = old[a * n + c] + j[a] * old[td * n + c]
                        new[(n + a) * m + c] = v
                        new[c * m + n + a] = v
                    }
                }
                for a in 0..<6 {
                    for b in 0..<6 { new[(n + a) * m + n + b] = new[(n + a) * m + b] + new[(n + a) * m + td] * j[b] }
                }
            }
        }
        state.covariance = p
        state.clones.append(Clone(frame: frame, timestamp: state.timestamp, rotation: state.rotation,
                                  position: state.position, rotationFE: state.rotation, positionFE: state.position,
                                  velocity: state.velocity, heldTime: state.heldTime))
    }

    /// Gives a start from the visual–inertial alignment the answer's joint uncertainty: `answer` is
    /// the covariance of [g, v, b_a] in the body frame (``VisualInertialAlignment/Solution/covariance``),
    /// `gravityInBody` the answer's gravity. The state's rotation is gravity-aligned with it
    /// (R ĝ = −‖g‖ e_z) and its velocity is R v̂. With the left rotation error R = Exp(δθ) R̂:
    /// - a gravity error δg turns the world's vertical: δθ × e_z = R̂ δg / ‖g‖, that is
    ///   δθ_x = −(R̂ δg)_y / ‖g‖, δθ_y = (R̂ δg)_x / ‖g‖ (no yaw);
    /// - δv_world = R̂ δv − [R̂ v̂]× δθ; the bias error stays in the body frame.
    /// The tilt, velocity and accelerometer-bias blocks and their correlations are replaced by that
    /// covariance plus `floor`'s tilt, velocity and bias σ on the diagonal; the yaw keeps
    /// its prior, and nothing else is touched.
    static func setAlignedStartCovariance(_ state: inout FilterState, answer: Matrix, gravityInBody g: Vector3,
                                          floor: TrackerConfiguration.InitialUncertainty) {
        let r = state.rotation, m = r * (1 / g.norm)
        var tilt = Matrix3.zero
        for q in 0..<3 { tilt[0, q] = -m[1, q]; tilt[1, q] = m[0, q] }
        var j = Matrix(rows: 9, cols: 9)
        j.setBlock(row: 0, col: 0, tilt)
        j.setBlock(row: 3, col: 0, Matrix3.skew(state.velocity) * tilt * -1)
        j.setBlock(row: 3, col: 3, r)
        j.setBlock(row: 6, col: 6, Matrix3.identity)
        let c = j * answer * j.transpose
        let floors = [floor.tilt, floor.tilt, 0, floor.velocity, floor.velocity, floor.velocity,
                      floor.accelBias, floor.accelBias, floor.accelBias]
        let columns = [0, 1, 2, FilterState.Block.velocity, FilterState.Block.velocity + 1, FilterState.Block.velocity + 2,
                       FilterState.Block.accelBias, FilterState.Block.accelBias + 1, FilterState.Block.accelBias + 2]
        let n = state.dimension
        let yaw = state.covariance[2 * n + 2]
        for (i, a) in columns.enumerated() {
            for (k, b) in columns.enumerated() {
                state.covariance[a * n + b] = a == 2 || b == 2 ? 0 : c[i, k] + (i == k ? floors[i] * floors[i] : 0)
            }
        }
        state.covariance[2 * n + 2] = yaw
    }

    /// Sets the readout to `value` with standard deviation `sigma`, uncorrelated with the rest (a
    /// fresh prior: the first estimate of ``ReadoutEstimator``; σ 0 fixes it).
    static func resetReadout(_ state: inout FilterState, value: Double, sigma: Double) {
        freshPrior(&state, column: state.readoutColumn, sigma: sigma)
        state.readout = value
    }

    /// Gives the time offset the standard deviation `sigma`, uncorrelated with the rest: a fresh
    /// prior for an offset held at zero variance until now (its rows and columns are zero then,
    /// and stay so through updates and propagation, so nothing is lost by zeroing them).
    static func releaseTimeOffset(_ state: inout FilterState, sigma: Double) {
        freshPrior(&state, column: state.timeOffsetColumn, sigma: sigma)
    }

    /// Sets one scalar state's variance to σ² and its correlations with the rest to zero.
    private static func freshPrior(_ state: inout FilterState, column c: Int, sigma: Double) {
        let n = state.dimension
        for i in 0..<n {
            state.covariance[i * n + c] = 0
            state.covariance[c * n + i] = 0
        }
        state.covariance[c * n + c] = sigma * sigma
    }

    /// Removes clone `k` and its rows and columns: marginalising a Gaussian is deleting its block.
    static func marginalizeClone(_ state: inout FilterState, at k: Int) {
        let n = state.dimension, m = n - 6, start = state.cloneColumn(k)
        var p = [Double](repeating: 0, count: m * m)
        state.covariance.withUnsafeBufferPointer { old in
            p.withUnsafeMutableBufferPointer { new in
                var ni = 0
                for i in 0..<n where i < start || i >= start + 6 {
                    var nj = 0
                    for j in 0..<n where j < start || j >= start + 6 {
                        new[ni * m + nj] = old[i * n + j]
                        nj += 1
                    }
                    ni += 1
                }
            }
        }
        state.covariance = p
        state.clones.remove(at: k)
    }

    // MARK: Update

    /// The EKF update for the measurement `r = H δx[columns] + n`, `n ~ N(0, σ² I)`, where the
    /// `m × w` Jacobian `jacobian` (row-major) acts on the contiguous error-state columns `columns`
    /// (w = `columns.count`) and is zero elsewhere:
    ///
    ///     S = H P_cc Hᵀ + σ² I,   K = P[:, c] Hᵀ S⁻¹,   δx = K r,   P ← P − K (P[:, c] Hᵀ)ᵀ
    ///
    /// then δx is injected into the mean. Only the upper triangle of P is computed and mirrored, so
    /// P stays exactly symmetric.
    ///
    /// `considered` entries (a Schmidt–Kalman or "consider" update; Schmidt 1966, as OpenVINS's
    /// `StateHelper` offers for its SKF clones) get zero gain: their mean and their own covariance
    /// block stay, while their cross-covariances with the updated entries are corrected — which is
    /// the Joseph form with those gain rows zeroed. For an assumption rather than a sensor's
    /// reading, the entries it should not inform.
    /// - Returns: false (state untouched) when S is not positive definite.
    @discardableResult
    static func update(_ state: inout FilterState, jacobian h: [Double], columns: Range<Int>, residual r: [Double],
                       noiseVariance: Double, structure: JacobianStructure = .dense,
                       considered: Range<Int> = 0..<0) -> Bool {
        let n = state.dimension, w = columns.count, m = r.count, c0 = columns.lowerBound
        precondition(h.count == m * w && columns.upperBound <= n, "Jacobian shape does not match the state")
        let upper = structure == .upperTriangular
        // PHt = P[:, c] Hᵀ (n × m). Row-axpy over the Jacobian's columns a in ascending order: the
        // inner loop runs over a contiguous row of Hᵀ (for an upper-triangular H only j ≤ a).
        let ht = Dense.transpose(h, rows: m, columns: w)
        var pht = [Double](repeating: 0, count: n * m)
        state.covariance.withUnsafeBufferPointer { p in
            ht.withUnsafeBufferPointer { hT in
                pht.withUnsafeMutableBufferPointer { out in
                    for i in 0..<n {
                        let orow = out.baseAddress! + i * m
                        for a in 0..<w {
                            let v = p[i * n + c0 + a]
                            let hrow = hT.baseAddress! + a * m
                            let last = upper ? min(a, m - 1) : m - 1
                            if last < 0 { continue }
                            for j in 0...last { orow[j] += v * hrow[j] }
                        }
                    }
                }
            }
        }
        // S = H · PHt[c rows] + σ²I (upper triangle, then mirrored).
        var sm = [Double](repeating: 0, count: m * m)
        h.withUnsafeBufferPointer { hp in
            pht.withUnsafeBufferPointer { ph in
                sm.withUnsafeMutableBufferPointer { out in
                    for i in 0..<m {
                        let orow = out.baseAddress! + i * m
                        for a in (upper ? i : 0)..<w {
                            let f = hp[i * w + a]
                            let prow = ph.baseAddress! + (c0 + a) * m
                            for j in i..<m { orow[j] += f * prow[j] }
                        }
                    }
                }
            }
        }
        for i in 0..<m { for j in 0..<i { sm[i * m + j] = sm[j * m + i] }; sm[i * m + i] += noiseVariance }
        guard Dense.cholesky(&sm, n: m) else { return false }
        // K = PHt S⁻¹, solved for all rows at once in the transposed layout (m × n), which makes
        // every substitution step a contiguous axpy across the n right-hand sides.
        let phtT = Dense.transpose(pht, rows: n, columns: m)
        var gainT = phtT
        Dense.choleskySolveTransposed(sm, n: m, &gainT, count: n)
        var dx = [Double](repeating: 0, count: n)
        for j in 0..<m {
            let rj = r[j]
            for i in 0..<n { dx[i] += gainT[j * n + i] * rj }
        }
        for i in considered { dx[i] = 0 }
        // P ← P − K PHtᵀ (upper triangle, mirrored). acc[j] = Σ_a K_i,a PHt_j,a over a ascending.
        var acc = [Double](repeating: 0, count: n)
        state.covariance.withUnsafeMutableBufferPointer { p in
            gainT.withUnsafeBufferPointer { gt in
                phtT.withUnsafeBufferPointer { htT in
                    acc.withUnsafeMutableBufferPointer { ac in
                        let acp = ac.baseAddress!
                        for i in 0..<n {
                            for j in i..<n { acp[j] = 0 }
                            for a in 0..<m {
                                let gv = gt[a * n + i]
                                let hrow = htT.baseAddress! + a * n
                                for j in i..<n { acp[j] += gv * hrow[j] }
                            }
                            let rowConsidered = considered.contains(i)
                            for j in i..<n where !(rowConsidered && considered.contains(j)) {
                                p[i * n + j] -= acp[j]
                                if i != j { p[j * n + i] = p[i * n + j] }
                            }
                        }
                    }
                }
            }
        }
        state.inject(dx)
        return true
    }

    /// Makes the covariance exactly symmetric (averaging) so round-off cannot accumulate.
    static func symmetrize(_ state: inout FilterState) {
        let n = state.dimension
        state.covariance.withUnsafeMutableBufferPointer { p in
            for i in 0..<n {
                for j in (i + 1)..<max(i + 1, n) {
                    let s = 0.5 * (p[i * n + j] + p[j * n + i])
                    p[i * n + j] = s
                    p[j * n + i] = s
                }
            }
        }
    }
}

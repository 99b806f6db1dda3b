import ParallaxMath

/// The camera–IMU time offset from the start window's images, before the filter exists.
///
/// The filter estimates the offset online (Li & Mourikis, IJRR 2014), but it starts from the
/// calibration's value, and so do the gyro bias from the images and the visual–inertial alignment
/// that come before it. A stated offset a few milliseconds off is harmless on a slow hand, but a
/// walker turning at 100 °/s turns 0.3° in 3 ms: the alignment then fits rays two or three pixels
/// off, and the mono scale error it leaves stays until the walk turns (docs/tracking-design.md,
/// "Second sweep"). So the offset is solved first, from the same coplanarity residuals as the
/// gyro bias (``GyroBiasFromImages``): shifting both frames of a pair by δ on the IMU clock turns
/// the integrated rotation into `Exp(−ωᵢ δ) ΔR Exp(ω_j δ)`, with `ωᵢ`, `ω_j` the bias-corrected
/// rates at the pair's two ends, so
///
///     ∂(ΔR u)/∂δ = −ωᵢ × (ΔR u) + ΔR (ω_j × u).
///
/// Only a change of turn rate within a pair makes δ observable (a steady turn commutes with the
/// shift); without one the solve keeps δ near zero by its prior and reports a wide σ.
///
/// A rolling shutter whose readout the calibration does not state adds a fifth unknown, the line
/// delay ℓ (s per row): row v of a frame was read (v − v_mid) ℓ after the frame time, so its bearing
/// is turned back to the frame time by `Exp(ω_c (v − v_mid) ℓ)` (``RollingShutterCorrection``), and
///
///     ∂(Exp(ω_c d ℓ) f)/∂ℓ = (ω_c d) × f   (first order, d = v − v_mid).
///
/// A start in a hand's quick turns needs it: there a 20 ms readout moves the top and bottom rows by
/// several pixels, and with the rows left uncorrected the offset, the bias and then the alignment
/// take up the error (a TUM-VI room walk started at 10 s with the timing left out of `sensor.yaml`:
/// 58 cm, against 0.9 cm with the readout stated).
extension GyroBiasFromImages {
    /// The offset change (and readout) the images ask for.
    struct TimeShift {
        /// Seconds to add to the frames' IMU times (and to the time offset).
        var shift: Double
        /// Its standard deviation (s), from the residuals' robust spread.
        var sigma: Double
        /// Gyro bias solved with it (rad/s).
        var bias: Vector3
        /// Line delay (s per row) solved with it, when asked for; 0 otherwise.
        var lineDelay = 0.0
        /// Its standard deviation (s per row); 0 when not solved.
        var lineDelaySigma = 0.0
        /// The gyro bias's largest standard deviation over its axes (rad/s).
        var biasSigma = 0.0
    }

    /// Solves the gyro bias and a shift of every frame time together, starting from `bias` and no
    /// shift, over pairs whose shifted span stays inside `samples` for shifts up to `maximumShift`;
    /// with `lineDelayPriorSigma` (s per row) also the line delay, from zero under that prior (the
    /// frames must then keep their rows, ``VisualInertialAlignment/Frame/rowOffsets``).
    /// The pairs' baselines follow from a velocity and gravity solved with them
    /// (``InertialBaselines``, when ``inertialBaselines`` is on); where that model does not settle
    /// (gravity implausible, the fit far worse than free baselines give) each pair keeps a free
    /// baseline as before.
    /// nil when too few pairs, a failed solve, or an answer beyond `maximumShift`.
    func solveTimeShift(frames: [VisualInertialAlignment.Frame], samples: ArraySlice<IMUMeasurement>,
                        noise: IMUNoise, bias start: Vector3, maximumShift: Double, priorSigma shiftPrior: Double,
                        lineDelayPriorSigma: Double? = nil) -> TimeShift? {
        guard let first = samples.first?.timestamp, let last = samples.last?.timestamp else { return nil }
        let base = makePairs(frames: frames, samples: samples, noise: noise)
            .filter { $0.from - maximumShift >= first && $0.to + maximumShift <= last }
        guard base.count >= minimumPairs else { return nil }
        // Starting from rest as well when the free baselines' velocity does not settle was tried:
        // on a simulated MH_01 start it settled once on an equally good fit at 0.06 m/s with a
        // 19.6 ms shift (0.38 m/s and 10 ms true), so a start that does not settle keeps free baselines.
        if inertialBaselines,
           let found = solveTimeShift(base, samples: samples, noise: noise, bias: start, maximumShift: maximumShift,
                                      shiftPrior: shiftPrior, lineDelayPriorSigma: lineDelayPriorSigma, coupled: true) {
            return found
        }
        return solveTimeShift(base, samples: samples, noise: noise, bias: start, maximumShift: maximumShift,
                              shiftPrior: shiftPrior, lineDelayPriorSigma: lineDelayPriorSigma, coupled: false)
    }

    /// The solve over prepared pairs: free baselines eliminated per pair (`coupled` false), or
    /// baselines from a shared velocity and gravity solved with the rest (`coupled`).
    func solveTimeShift(_ base: [Pair], samples: ArraySlice<IMUMeasurement>, noise: IMUNoise, bias start: Vector3,
                                maximumShift: Double, shiftPrior: Double, lineDelayPriorSigma: Double?,
                                coupled: Bool) -> TimeShift? {
        let rbc = rig.R_body_cam0
        let solvesReadout = lineDelayPriorSigma.map { $0 > 0 } ?? false
        let n = solvesReadout ? 5 : 4
        let m = n + (coupled ? 6 : 0)    // with (δv₀, δg) after the timing unknowns
        var bias = start, shift = 0.0, lineDelay = 0.0, scale = 0.0
        var motion: InertialBaselines.Motion?
        var reduced: [Double] = []
        var converged = false
        var cost = 0.0, freeCost = 0.0
        // The coupled solve's adaptive limit on the bias step (a multiple of 0.01 rad/s), the cost
        // before the last step, and whether the bias limit clipped that step.
        var biasReach = 1.0, previousCost = Double.infinity, biasClipped = false, clipped = false
        // From the velocity of the free baselines and gravity from the mean specific force the
        // coupled solve needs more steps (it converges in 8–12 on the hall and room starts).
        for _ in 0..<(coupled ? coupledIterations : iterations) {
            var pairs = base
            // Each pair's rates at its two ends (body frame, bias removed; and cam0's) and, with a
            // line delay, its bearings turned back to the frame times.
            var rates: [(wi: Vector3, wj: Vector3, ci: Vector3, cj: Vector3)] = []
            for p in pairs.indices {
                guard let pre = integrate(samples, from: pairs[p].from + shift, to: pairs[p].to + shift, bias: bias, noise: noise)
                else { return nil }
                pairs[p].preintegration = pre
                let wi = rate(samples, at: pairs[p].from + shift) - bias
                let wj = rate(samples, at: pairs[p].to + shift) - bias
                let (ci, cj) = (rbc.transpose * wi, rbc.transpose * wj)
                rates.append((wi, wj, ci, cj))
                if solvesReadout, lineDelay != 0 {
                    pairs[p].first = zip(pairs[p].first, pairs[p].firstRows).map { SO3.exp(ci * ($1 * lineDelay)) * $0 }
                    pairs[p].second = zip(pairs[p].second, pairs[p].secondRows).map { SO3.exp(cj * ($1 * lineDelay)) * $0 }
                }
            }
            let rotations = pairs.map { rotation($0.preintegration, bias: bias, rbc: rbc) }
            guard let spread = fitBaselines(&pairs, rotations: rotations) else { return nil }
            scale = spread
            var coupledState: CoupledBaselines?
            if coupled {
                guard let state = coupledBaselines(&pairs, rotations: rotations, motion: motion, bias: bias, shift: shift,
                                                   lineDelay: lineDelay, samples: samples, noise: noise) else { return nil }
                (motion, cost, freeCost, scale) = (state.motion, state.cost, state.freeCost, state.scale)
                coupledState = state
            }
            let huber = 2 * scale
            // Normal equations in x = (δb_g, δ[, δℓ][, δv₀, δg]), each pair's free tangent baseline
            // update eliminated when the baselines are not coupled.
            var h = [Double](repeating: 0, count: m * m), b = [Double](repeating: 0, count: m)
            let wb = scale * scale / (priorSigma * priorSigma), wd = scale * scale / (shiftPrior * shiftPrior)
            for a in 0..<3 { h[a * m + a] = wb; b[a] = -(bias - start)[a] * wb }
            h[3 * m + 3] = wd
            b[3] = -shift * wd
            if solvesReadout, let sl = lineDelayPriorSigma {
                let wl = scale * scale / (sl * sl)
                h[4 * m + 4] = wl
                b[4] = -lineDelay * wl
            }
            if let model = coupledState?.model, let motion {
                // Gravity near the window's mean specific force: the body's own mean acceleration
                // over a second is a fraction of g.
                let wg = scale * scale / (gravitySigma * gravitySigma)
                let offset = motion.gravity - model.gravityGuess
                for a in 0..<3 { h[(n + 3 + a) * m + n + 3 + a] = wg; b[n + 3 + a] = -offset[a] * wg }
            }
            for (p, r) in zip(pairs.indices, rotations) {
                let pair = pairs[p]
                let pre = pair.preintegration
                let rot = pre.correctedRotation(biasGyro: bias)
                let (wi, wj, ci, cj) = rates[p]
                let t = pair.baseline
                let (e1, e2) = Self.tangentBasis(t)
                // How the pair's unit baseline moves with the bias and the shift: (I − t tᵀ) / |d| ∂d.
                var pairTerms: (byBias: Matrix3, byShift: Vector3)?
                if let state = coupledState, let motion {
                    let project = (Matrix3.identity - Matrix3.outer(t, t)) * (1 / state.model.pairs[p].baseline(motion).norm)
                    pairTerms = (project * state.byBias[p], project * state.byShift[p])
                }
                var hxx = [Double](repeating: 0, count: m * m)
                var hxa = [[Double]](repeating: [Double](repeating: 0, count: m), count: 2)
                var haa = [[1e-12, 0.0], [0.0, 1e-12]]
                var gx = [Double](repeating: 0, count: m), ga = [0.0, 0.0]
                for k in pair.first.indices {
                    let (f, g) = (pair.first[k], pair.second[k])
                    let u = rbc * g
                    let rg = r * g
                    let nk = f.cross(rg)
                    // Coupled: this point's own baseline, the rows' read times apart.
                    var t = t
                    var rowTerms: (byVelocity: Vector3, byGravity: Vector3, byLineDelay: Double)?
                    if let model = coupledState?.model, let motion {
                        let row = model.pairs[p].rowBaseline(motion, firstDelay: pair.firstRows[k] * lineDelay,
                                                             secondDelay: pair.secondRows[k] * lineDelay)
                        let length = row.baseline.norm
                        t = row.baseline / length
                        let project = (Matrix3.identity - Matrix3.outer(t, t)) * (1 / length)
                        let ptn = project.transpose * nk
                        let byDelay = pair.firstRows[k] * row.byFirstDelay.dot(ptn) + pair.secondRows[k] * row.bySecondDelay.dot(ptn)
                        rowTerms = (row.byVelocity.transpose * ptn, row.byGravity.transpose * ptn, byDelay)
                    }
                    let res = t.dot(nk)
                    let w = abs(res) <= huber ? 1 : huber / abs(res)
                    let tf = t.cross(f)
                    let jb = (-1 * (rbc.transpose * rot * Matrix3.skew(u) * pre.dR_dbg)).transpose * tf
                    let ru = rot * u
                    let jd = tf.dot(rbc.transpose * (rot * wj.cross(u) - wi.cross(ru)))
                    var j = [jb.x, jb.y, jb.z, jd]
                    if solvesReadout {
                        // t · (((ω_i d_f) × f) × R g) + (t × f) · R ((ω_j d_g) × g)
                        let df = (ci * pair.firstRows[k]).cross(f), dg = (cj * pair.secondRows[k]).cross(g)
                        j.append(rg.cross(t).dot(df) + tf.dot(r * dg))
                    }
                    if let (db, ds) = pairTerms, let (jv, jg, jl) = rowTerms {
                        // The bias and the shift move the pair's baseline (by differences, above);
                        // the velocity, gravity and line delay each point's own.
                        let jbt = db.transpose * nk
                        j[0] += jbt.x; j[1] += jbt.y; j[2] += jbt.z
                        j[3] += ds.dot(nk)
                        if solvesReadout { j[4] += jl }
                        j += [jv.x, jv.y, jv.z, jg.x, jg.y, jg.z]
                    }
                    for x in 0..<m {
                        for y in 0..<m { hxx[x * m + y] += w * j[x] * j[y] }
                        gx[x] -= w * j[x] * res
                    }
                    guard !coupled else { continue }
                    let jt = [nk.dot(e1), nk.dot(e2)]
                    for x in 0..<m {
                        for a in 0..<2 { hxa[a][x] += w * j[x] * jt[a] }
                    }
                    for a in 0..<2 {
                        ga[a] -= w * jt[a] * res
                        for c in 0..<2 { haa[a][c] += w * jt[a] * jt[c] }
                    }
                }
                if coupled {
                    for x in 0..<m {
                        b[x] += gx[x]
                        for y in 0..<m { h[x * m + y] += hxx[x * m + y] }
                    }
                    continue
                }
                let det = haa[0][0] * haa[1][1] - haa[0][1] * haa[1][0]
                guard det > 0 else { continue }
                let inv = [[haa[1][1] / det, -haa[0][1] / det], [-haa[1][0] / det, haa[0][0] / det]]
                for x in 0..<m {
                    var gs = gx[x]
                    for a in 0..<2 {
                        for c in 0..<2 {
                            gs -= hxa[a][x] * inv[a][c] * ga[c]
                            for y in 0..<m { hxx[x * m + y] -= hxa[a][x] * inv[a][c] * hxa[c][y] }
                        }
                    }
                    b[x] += gs
                    for y in 0..<m { h[x * m + y] += hxx[x * m + y] }
                }
            }
            guard let cholesky = try? Cholesky(Matrix(rows: m, cols: m, elements: h)),
                  var step = try? cholesky.solve(b), step.allSatisfy(\.isFinite) else { return nil }
            if coupled {
                // A trust region: from a rough start the full step can overshoot into another
                // velocity–gravity basin, so no step moves the velocity by more than 0.5 m/s,
                // gravity by 1 m/s², the shift by 5 ms or the bias by 0.01 rad/s. The bias starts
                // from zero (or an earlier answer) and a phone's lies 0.1 rad/s or more away, which
                // at 0.01 rad/s a step used up the iterations before the rest could settle (V2_02
                // from 12 s: the bias clipped 8–14 of each window's 20 steps). So its limit adapts
                // as a trust region's radius does (Nocedal & Wright, Numerical Optimization, §4.1):
                // doubled after a clipped step that lowered the cost, up to ``coupledBiasReach``
                // times, halved after a step that raised it. Velocity and gravity start near their
                // answers.
                if cost < previousCost, biasClipped {
                    biasReach = min(2 * biasReach, coupledBiasReach)
                } else if cost >= previousCost {
                    biasReach = max(1, biasReach / 2)
                }
                previousCost = cost
                let sizes = [Vector3(step[n], step[n + 1], step[n + 2]).norm / 0.5,
                             Vector3(step[n + 3], step[n + 4], step[n + 5]).norm / 1.0,
                             abs(step[3]) / 0.005, Vector3(step[0], step[1], step[2]).norm / (0.01 * biasReach)]
                let largest = sizes.max() ?? 0
                clipped = largest > 1
                biasClipped = clipped && sizes[3] == largest
                if largest > 1 { step = step.map { $0 / largest } }
            }
            bias += Vector3(step[0], step[1], step[2])
            shift += step[3]
            if solvesReadout { lineDelay += step[4] }
            if var moved = motion {
                moved.velocity += Vector3(step[n], step[n + 1], step[n + 2])
                moved.gravity += Vector3(step[n + 3], step[n + 4], step[n + 5])
                motion = moved
            }
            reduced = h
            guard abs(shift) <= maximumShift else { return nil }
            // Converged once no unknown moves: the line delay by under 1 µs over a thousand rows,
            // the velocity by under 1 mm/s.
            let readoutStep = solvesReadout ? abs(step[4]) * 1000 : 0
            let motionStep = coupled ? Vector3(step[n], step[n + 1], step[n + 2]).norm * 1e-2 : 0
            let tolerance = coupled ? coupledTolerance : 1e-6
            if abs(step[3]) < tolerance, Vector3(step[0], step[1], step[2]).norm < tolerance, readoutStep < tolerance, motionStep < tolerance {
                converged = true
                break
            }
            // Near its answer the coupled solve's Huber-weighted steps shrink by a steady ratio,
            // not quadratically, and the steps above can stay at 1e-4 rad/s for many iterations: it
            // has also converged once every unknown moves by under a fraction of its own standard
            // deviation (the answer then changes by less than it is known), a step the trust region
            // cut short excepted.
            if coupled, !clipped {
                let covariance = cholesky.inverse
                if (0..<m).allSatisfy({ abs(step[$0]) <= coupledConvergedFraction * scale * max(0, covariance[$0, $0]).squareRoot() }) {
                    converged = true
                    break
                }
            }
        }
        if coupled {
            // The shared motion must have settled on a plausible gravity and explain the images
            // nearly as well as a free baseline per pair does.
            guard converged, let motion, abs(motion.gravity.norm - 9.81) <= gravityTolerance,
                  cost <= coupledCostRatio * freeCost, let model = InertialBaselines(
                      times: base.map { ($0.from + shift, $0.to + shift) }, samples: samples, bias: bias, noise: noise, rig: rig),
                  upperMedian(model.pairs.map { $0.baseline(motion).norm }) >= coupledMinimumBaseline
            else { return nil }
        }
        guard bias.norm <= maximumBias, let covariance = try? Cholesky(Matrix(rows: m, cols: m, elements: reduced)).inverse
        else { return nil }
        let sigma = scale * covariance[3, 3].squareRoot()
        guard sigma.isFinite else { return nil }
        var found = TimeShift(shift: shift, sigma: sigma, bias: bias)
        found.biasSigma = scale * max(0, covariance[0, 0], covariance[1, 1], covariance[2, 2]).squareRoot()
        if solvesReadout {
            found.lineDelay = lineDelay
            found.lineDelaySigma = scale * covariance[4, 4].squareRoot()
            guard found.lineDelay.isFinite, found.lineDelaySigma.isFinite else { return nil }
        }
        return found
    }

    /// The gyro rate at `time`, linearly interpolated between the samples around it.
    private func rate(_ samples: ArraySlice<IMUMeasurement>, at time: Double) -> Vector3 {
        var lo = samples.startIndex, hi = samples.endIndex - 1
        guard lo < hi, samples[lo].timestamp < time else { return samples[lo].gyro }
        guard samples[hi].timestamp > time else { return samples[hi].gyro }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].timestamp <= time { lo = mid } else { hi = mid }
        }
        let a = samples[lo], c = samples[hi]
        let s = (time - a.timestamp) / (c.timestamp - a.timestamp)
        return a.gyro + (c.gyro - a.gyro) * s
    }
}

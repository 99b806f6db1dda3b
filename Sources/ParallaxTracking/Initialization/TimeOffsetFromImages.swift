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
    }

    /// Solves the gyro bias and a shift of every frame time together, starting from `bias` and no
    /// shift, over pairs whose shifted span stays inside `samples` for shifts up to `maximumShift`;
    /// with `lineDelayPriorSigma` (s per row) also the line delay, from zero under that prior (the
    /// frames must then keep their rows, ``VisualInertialAlignment/Frame/rowOffsets``).
    /// nil when too few pairs, a failed solve, or an answer beyond `maximumShift`.
    func solveTimeShift(frames: [VisualInertialAlignment.Frame], samples: ArraySlice<IMUMeasurement>,
                        noise: IMUNoise, bias start: Vector3, maximumShift: Double, priorSigma shiftPrior: Double,
                        lineDelayPriorSigma: Double? = nil) -> TimeShift? {
        guard let first = samples.first?.timestamp, let last = samples.last?.timestamp else { return nil }
        let base = makePairs(frames: frames, samples: samples, noise: noise)
            .filter { $0.from - maximumShift >= first && $0.to + maximumShift <= last }
        guard base.count >= minimumPairs else { return nil }
        let rbc = rig.R_body_cam0
        let solvesReadout = lineDelayPriorSigma.map { $0 > 0 } ?? false
        let n = solvesReadout ? 5 : 4
        var bias = start, shift = 0.0, lineDelay = 0.0, scale = 0.0
        var reduced: [Double] = []
        for _ in 0..<iterations {
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
            let huber = 2 * scale
            // Normal equations in x = (δb_g, δ[, δℓ]) with each pair's tangent baseline update eliminated.
            var h = [Double](repeating: 0, count: n * n), b = [Double](repeating: 0, count: n)
            let wb = scale * scale / (priorSigma * priorSigma), wd = scale * scale / (shiftPrior * shiftPrior)
            for a in 0..<3 { h[a * n + a] = wb; b[a] = -(bias - start)[a] * wb }
            h[3 * n + 3] = wd
            b[3] = -shift * wd
            if solvesReadout, let sl = lineDelayPriorSigma {
                let wl = scale * scale / (sl * sl)
                h[4 * n + 4] = wl
                b[4] = -lineDelay * wl
            }
            for (p, r) in zip(pairs.indices, rotations) {
                let pair = pairs[p]
                let pre = pair.preintegration
                let rot = pre.correctedRotation(biasGyro: bias)
                let (wi, wj, ci, cj) = rates[p]
                let t = pair.baseline
                let (e1, e2) = Self.tangentBasis(t)
                var hxx = [Double](repeating: 0, count: n * n)
                var hxa = [[Double]](repeating: [Double](repeating: 0, count: n), count: 2)
                var haa = [[1e-12, 0.0], [0.0, 1e-12]]
                var gx = [Double](repeating: 0, count: n), ga = [0.0, 0.0]
                for k in pair.first.indices {
                    let (f, g) = (pair.first[k], pair.second[k])
                    let u = rbc * g
                    let rg = r * g
                    let nk = f.cross(rg)
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
                    let jt = [nk.dot(e1), nk.dot(e2)]
                    for x in 0..<n {
                        for y in 0..<n { hxx[x * n + y] += w * j[x] * j[y] }
                        gx[x] -= w * j[x] * res
                        for a in 0..<2 { hxa[a][x] += w * j[x] * jt[a] }
                    }
                    for a in 0..<2 {
                        ga[a] -= w * jt[a] * res
                        for c in 0..<2 { haa[a][c] += w * jt[a] * jt[c] }
                    }
                }
                let det = haa[0][0] * haa[1][1] - haa[0][1] * haa[1][0]
                guard det > 0 else { continue }
                let inv = [[haa[1][1] / det, -haa[0][1] / det], [-haa[1][0] / det, haa[0][0] / det]]
                for x in 0..<n {
                    var gs = gx[x]
                    for a in 0..<2 {
                        for c in 0..<2 {
                            gs -= hxa[a][x] * inv[a][c] * ga[c]
                            for y in 0..<n { hxx[x * n + y] -= hxa[a][x] * inv[a][c] * hxa[c][y] }
                        }
                    }
                    b[x] += gs
                    for y in 0..<n { h[x * n + y] += hxx[x * n + y] }
                }
            }
            guard let cholesky = try? Cholesky(Matrix(rows: n, cols: n, elements: h)),
                  let step = try? cholesky.solve(b), step.allSatisfy(\.isFinite) else { return nil }
            bias += Vector3(step[0], step[1], step[2])
            shift += step[3]
            if solvesReadout { lineDelay += step[4] }
            reduced = h
            guard abs(shift) <= maximumShift else { return nil }
            // Converged once no unknown moves: the line delay by under 1 µs over a thousand rows.
            let readoutStep = solvesReadout ? abs(step[4]) * 1000 : 0
            if abs(step[3]) < 1e-6, Vector3(step[0], step[1], step[2]).norm < 1e-6, readoutStep < 1e-6 { break }
        }
        guard bias.norm <= maximumBias, let covariance = try? Cholesky(Matrix(rows: n, cols: n, elements: reduced)).inverse
        else { return nil }
        let sigma = scale * covariance[3, 3].squareRoot()
        guard sigma.isFinite else { return nil }
        var found = TimeShift(shift: shift, sigma: sigma, bias: bias)
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

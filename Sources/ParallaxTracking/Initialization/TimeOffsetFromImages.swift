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
extension GyroBiasFromImages {
    /// The offset change the images ask for.
    struct TimeShift {
        /// Seconds to add to the frames' IMU times (and to the time offset).
        var shift: Double
        /// Its standard deviation (s), from the residuals' robust spread.
        var sigma: Double
        /// Gyro bias solved with it (rad/s).
        var bias: Vector3
    }

    /// Solves the gyro bias and a shift of every frame time together, starting from `bias` and no
    /// shift, over pairs whose shifted span stays inside `samples` for shifts up to `maximumShift`.
    /// nil when too few pairs, a failed solve, or an answer beyond `maximumShift`.
    func solveTimeShift(frames: [VisualInertialAlignment.Frame], samples: ArraySlice<IMUMeasurement>,
                        noise: IMUNoise, bias start: Vector3, maximumShift: Double, priorSigma shiftPrior: Double) -> TimeShift? {
        guard let first = samples.first?.timestamp, let last = samples.last?.timestamp else { return nil }
        let base = makePairs(frames: frames, samples: samples, noise: noise)
            .filter { $0.from - maximumShift >= first && $0.to + maximumShift <= last }
        guard base.count >= minimumPairs else { return nil }
        let rbc = rig.R_body_cam0
        var bias = start, shift = 0.0, scale = 0.0
        var reduced: [Double] = []
        for _ in 0..<iterations {
            var pairs = base
            for p in pairs.indices {
                guard let pre = integrate(samples, from: pairs[p].from + shift, to: pairs[p].to + shift, bias: bias, noise: noise)
                else { return nil }
                pairs[p].preintegration = pre
            }
            let rotations = pairs.map { rotation($0.preintegration, bias: bias, rbc: rbc) }
            guard let spread = fitBaselines(&pairs, rotations: rotations) else { return nil }
            scale = spread
            let huber = 2 * scale
            // Normal equations in x = (δb_g, δ) with each pair's tangent baseline update eliminated.
            var h = [Double](repeating: 0, count: 16), b = [Double](repeating: 0, count: 4)
            let wb = scale * scale / (priorSigma * priorSigma), wd = scale * scale / (shiftPrior * shiftPrior)
            for a in 0..<3 { h[a * 4 + a] = wb; b[a] = -(bias - start)[a] * wb }
            h[15] = wd
            b[3] = -shift * wd
            for (pair, r) in zip(pairs, rotations) {
                let pre = pair.preintegration
                let rot = pre.correctedRotation(biasGyro: bias)
                let wi = rate(samples, at: pair.from + shift) - bias
                let wj = rate(samples, at: pair.to + shift) - bias
                let t = pair.baseline
                let (e1, e2) = Self.tangentBasis(t)
                var hxx = [Double](repeating: 0, count: 16), hxa = [[Double]](repeating: [0, 0, 0, 0], count: 2)
                var haa = [[1e-12, 0.0], [0.0, 1e-12]]
                var gx = [0.0, 0, 0, 0], ga = [0.0, 0.0]
                for (f, g) in zip(pair.first, pair.second) {
                    let u = rbc * g
                    let n = f.cross(r * g)
                    let res = t.dot(n)
                    let w = abs(res) <= huber ? 1 : huber / abs(res)
                    let tf = t.cross(f)
                    let jb = (-1 * (rbc.transpose * rot * Matrix3.skew(u) * pre.dR_dbg)).transpose * tf
                    let ru = rot * u
                    let jd = tf.dot(rbc.transpose * (rot * wj.cross(u) - wi.cross(ru)))
                    let j = [jb.x, jb.y, jb.z, jd]
                    let jt = [n.dot(e1), n.dot(e2)]
                    for x in 0..<4 {
                        for y in 0..<4 { hxx[x * 4 + y] += w * j[x] * j[y] }
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
                for x in 0..<4 {
                    var gs = gx[x]
                    for a in 0..<2 {
                        for c in 0..<2 {
                            gs -= hxa[a][x] * inv[a][c] * ga[c]
                            for y in 0..<4 { hxx[x * 4 + y] -= hxa[a][x] * inv[a][c] * hxa[c][y] }
                        }
                    }
                    b[x] += gs
                    for y in 0..<4 { h[x * 4 + y] += hxx[x * 4 + y] }
                }
            }
            guard let cholesky = try? Cholesky(Matrix(rows: 4, cols: 4, elements: h)),
                  let step = try? cholesky.solve(b), step.allSatisfy(\.isFinite) else { return nil }
            bias += Vector3(step[0], step[1], step[2])
            shift += step[3]
            reduced = h
            guard abs(shift) <= maximumShift else { return nil }
            if abs(step[3]) < 1e-6, Vector3(step[0], step[1], step[2]).norm < 1e-6 { break }
        }
        guard bias.norm <= maximumBias, let covariance = try? Cholesky(Matrix(rows: 4, cols: 4, elements: reduced)).inverse
        else { return nil }
        let sigma = scale * covariance[3, 3].squareRoot()
        guard sigma.isFinite else { return nil }
        return TimeShift(shift: shift, sigma: sigma, bias: bias)
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

import ParallaxMath
import ParallaxVision

extension EstimatorCore {
    /// True when the image content has not moved since the previous frame: the median feature
    /// displacement is below `configuration.stationaryPixelThreshold` over enough features.
    func isStationary(_ frame: FeatureFrame) -> Bool {
        var d: [Double] = []
        d.reserveCapacity(frame.features.count)
        for f in frame.features { if let p = previousPixels[f.id] { d.append((f.pixel - p).norm) } }
        guard d.count >= configuration.minimumFeatures else { return false }
        d.sort()
        return d[d.count / 2] < configuration.stationaryPixelThreshold
    }

    /// Zero-velocity update: the measurement v = 0 with σ = `configuration.zeroVelocitySigma`,
    /// χ²-gated so that a filter confident of real motion does not accept it.
    /// - Returns: false when the gate rejected it (or the covariance was not positive definite).
    @discardableResult
    func zeroVelocityUpdate(_ s: inout FilterState) -> Bool {
        let n = s.dimension
        let r = configuration.zeroVelocitySigma * configuration.zeroVelocitySigma
        // S = P_vv + R I.
        var sm = [Double](repeating: 0, count: 9)
        for a in 0..<3 { for b in 0..<3 { sm[a * 3 + b] = s.covariance[(6 + a) * n + 6 + b] }; sm[a * 3 + a] += r }
        var l = sm
        guard Dense.cholesky(&l, n: 3) else { return false }
        var y = [-s.velocity.x, -s.velocity.y, -s.velocity.z]
        var w = y
        Dense.forwardSubstitute(l, n: 3, &w)
        guard w.reduce(0, { $0 + $1 * $1 }) <= ChiSquared.quantile(dof: 3) else { return false }
        Dense.backSubstitute(l, n: 3, &w)
        y = w   // S⁻¹ r
        // K = P[:, v] S⁻¹; dx = K r; P -= K P[v, :].
        var k = [Double](repeating: 0, count: n * 3)
        var col = [Double](repeating: 0, count: 3)
        for i in 0..<n {
            for a in 0..<3 { col[a] = s.covariance[i * n + 6 + a] }
            Dense.forwardSubstitute(l, n: 3, &col)
            Dense.backSubstitute(l, n: 3, &col)
            for a in 0..<3 { k[i * 3 + a] = col[a] }
        }
        var dx = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var v = 0.0
            for a in 0..<3 { v += s.covariance[i * n + 6 + a] * y[a] }
            dx[i] = v
        }
        let pv = (0..<n).map { i in (0..<3).map { s.covariance[(6 + $0) * n + i] } }
        for i in 0..<n {
            for j in 0..<n {
                var v = 0.0
                for a in 0..<3 { v += k[i * 3 + a] * pv[j][a] }
                s.covariance[i * n + j] -= v
            }
        }
        s.symmetrize()
        s.inject(dx)
        return true
    }
}

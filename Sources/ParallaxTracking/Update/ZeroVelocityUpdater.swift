import ParallaxMath

/// Zero-velocity update (OpenVINS's `UpdaterZeroVelocity`, Geneva et al., ICRA 2020): while the
/// images say the camera is still, the measurement v = 0 with σ = `sigma` replaces a clone, so
/// the window keeps frames with parallax and the velocity and accelerometer bias stay pinned.
struct ZeroVelocityUpdater {
    /// Standard deviation of the zero-velocity measurement (m/s).
    let sigma: Double
    /// χ² gate probability: a filter confident of real motion does not accept "still".
    var chiSquaredProbability = 0.95
    /// When true the update leaves the gyro and accelerometer biases where they are: a consider
    /// update (``StateHelper/update(_:jacobian:columns:residual:noiseVariance:structure:considered:)``).
    /// For a velocity that is assumed rather than seen: the assumption may move the velocity, but
    /// must not write into the biases what it gets wrong.
    var keepsBiases = false

    /// Applies the update when it passes the gate.
    /// - Returns: false when the gate rejected it (or the covariance was not positive definite).
    @discardableResult
    func update(_ s: inout FilterState) -> Bool {
        let n = s.dimension, v0 = FilterState.Block.velocity
        let h: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        let residual = [-s.velocity.x, -s.velocity.y, -s.velocity.z]
        var pvv = [Double](repeating: 0, count: 9)
        for a in 0..<3 { for b in 0..<3 { pvv[a * 3 + b] = s.covariance[(v0 + a) * n + v0 + b] } }
        let variance = sigma * sigma
        guard UpdaterHelper.passesChiSquared(h: h, residual: residual, rows: 3, covariance: pvv, columns: 3,
                                             noiseVariance: variance, probability: chiSquaredProbability) else {
            return false
        }
        return StateHelper.update(&s, jacobian: h, columns: v0..<(v0 + 3), residual: residual, noiseVariance: variance,
                                  considered: keepsBiases ? FilterState.Block.gyroBias..<s.imuDimension : 0..<0)
    }
}

import ParallaxMath
@testable import ParallaxTracking

/// Small deterministic states and matrices for the estimator unit tests.
enum EstimatorTestSupport {
    /// Pseudo-random numbers in [−1, 1), reproducible from `seed` (ParallaxMath's SplitMix64).
    struct Numbers {
        var generator: SplitMix64
        init(seed: UInt64) { generator = SplitMix64(seed: seed) }
        mutating func next() -> Double { generator.uniform(-1, 1) }
        mutating func vector() -> Vector3 { Vector3(next(), next(), next()) }
    }

    /// A moving, tilted state with biases and `clones` clones spread along its path, with a random
    /// symmetric positive-definite covariance (σ ≈ 0.1 on every axis, correlated).
    static func state(clones: Int, seed: UInt64, imuIntrinsics: Bool = false) -> FilterState {
        var rng = Numbers(seed: seed)
        let nav = NavigationState(timestamp: 1, T_world_body: RigidTransform(rotationMatrix: SO3.exp(rng.vector()),
                                                                             translation: rng.vector()),
                                  velocity: rng.vector() * 0.5, biasGyro: rng.vector() * 0.01,
                                  biasAccel: rng.vector() * 0.05)
        let prior = TrackerConfiguration.InitialUncertainty(tilt: 0.1, yaw: 0.1, position: 0.1, velocity: 0.1,
                                                            gyroBias: 0.1, accelBias: 0.1)
        var s = FilterState(navigation: nav, uncertainty: prior,
                            imuIntrinsicSigmas: imuIntrinsics ? [Double](repeating: 0.005, count: 12) : [])
        for k in 0..<clones {
            s.position += s.velocity * 0.05
            s.rotation = s.rotation * SO3.exp(Vector3(0.01, -0.02, 0.03))
            StateHelper.augmentClone(&s, frame: k + 1)
        }
        s.covariance = spd(s.dimension, scale: 0.01, rng: &rng)
        return s
    }

    /// A random symmetric positive-definite `n×n` matrix (row-major): `scale (A Aᵀ / n + I)`.
    static func spd(_ n: Int, scale: Double, rng: inout Numbers) -> [Double] {
        let a = (0..<(n * n)).map { _ in rng.next() }
        var p = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n {
                var s = 0.0
                for k in 0..<n { s += a[i * n + k] * a[j * n + k] }
                p[i * n + j] = scale * (s / Double(n) + (i == j ? 1 : 0))
            }
        }
        return p
    }

    /// The error state that takes `from` to `to` (the filter's error definition: R = Exp(δθ) R̂).
    static func errorState(from a: FilterState, to b: FilterState) -> [Double] {
        var dx = SO3.log(b.rotation * a.rotation.transpose).array + (b.position - a.position).array
        dx += (b.velocity - a.velocity).array + (b.biasGyro - a.biasGyro).array + (b.biasAccel - a.biasAccel).array
        if a.estimatesIMUIntrinsics {
            let i = a.imuIntrinsics, j = b.imuIntrinsics
            dx += (j.gyroScale - i.gyroScale).array + (j.gyroMisalignment - i.gyroMisalignment).array
            dx += (j.accelScale - i.accelScale).array + (j.accelMisalignment - i.accelMisalignment).array
        }
        dx.append(b.timeOffset - a.timeOffset)
        dx.append(b.readout - a.readout)
        for k in 0..<min(a.clones.count, b.clones.count) {
            dx += SO3.log(b.clones[k].rotation * a.clones[k].rotation.transpose).array
            dx += (b.clones[k].position - a.clones[k].position).array
        }
        return dx
    }
}

extension Vector3 {
    /// The three components as an array.
    var array: [Double] { [x, y, z] }
}

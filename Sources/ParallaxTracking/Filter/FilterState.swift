import ParallaxMath

/// One stochastic clone: the body pose at a camera frame, with its first estimate (FEJ).
struct Clone {
    /// Frame number (strictly increasing), the key observations refer to.
    var frame: Int
    /// Frame time (s).
    var timestamp: Double
    /// Current estimate of `R_world_body`.
    var rotation: Matrix3
    /// Current estimate of the body position in the world.
    var position: Vector3
    /// First estimate (value when cloned, before any update), used in measurement Jacobians.
    var rotationFE: Matrix3
    /// First estimate of the position.
    var positionFE: Vector3
}

/// The MSCKF state: IMU navigation state plus a window of clones, with a dense covariance.
///
/// Error state (world-frame, "left" rotation error so that FEJ keeps yaw and position unobservable,
/// Li & Mourikis IJRR 2013 §III): R = Exp(δθ) R̂, p = p̂ + δp, v = v̂ + δv, b = b̂ + δb.
/// Order: IMU [δθ 0–2, δp 3–5, δv 6–8, δb_g 9–11, δb_a 12–14], then clone k at 15 + 6k [δθ, δp].
struct FilterState {
    static let imuDimension = 15
    var timestamp: Double
    var rotation: Matrix3
    var position: Vector3
    var velocity: Vector3
    var biasGyro: Vector3
    var biasAccel: Vector3
    /// First estimates of position and velocity at `timestamp` (propagated values before the update),
    /// used by the next propagation's FEJ transition matrix.
    var positionFE: Vector3
    var velocityFE: Vector3
    var clones: [Clone] = []
    /// Row-major covariance, `dimension × dimension`.
    var covariance: [Double]

    var dimension: Int { Self.imuDimension + 6 * clones.count }

    init(navigation s: NavigationState, sigmas: [Double]) {
        timestamp = s.timestamp
        rotation = s.T_world_body.rotationMatrix
        position = s.T_world_body.translation
        velocity = s.velocity
        biasGyro = s.biasGyro
        biasAccel = s.biasAccel
        positionFE = position
        velocityFE = velocity
        covariance = [Double](repeating: 0, count: 225)
        for i in 0..<15 { covariance[i * 15 + i] = sigmas[i] * sigmas[i] }
    }

    var navigation: NavigationState {
        NavigationState(timestamp: timestamp, T_world_body: RigidTransform(rotationMatrix: rotation, translation: position),
                        velocity: velocity, biasGyro: biasGyro, biasAccel: biasAccel)
    }

    /// Covariance element.
    func cov(_ i: Int, _ j: Int) -> Double { covariance[i * dimension + j] }

    /// Appends a clone of the current body pose (stochastic cloning, Roumeliotis & Burdick 2002):
    /// the new block rows are copies of the IMU pose rows.
    mutating func addClone(frame: Int) {
        let n = dimension, m = n + 6
        var p = [Double](repeating: 0, count: m * m)
        covariance.withUnsafeBufferPointer { old in
            p.withUnsafeMutableBufferPointer { new in
                for i in 0..<n { for j in 0..<n { new[i * m + j] = old[i * n + j] } }
                for a in 0..<6 {
                    for j in 0..<n {
                        new[(n + a) * m + j] = old[a * n + j]
                        new[j * m + n + a] = old[j * n + a]
                    }
                    for b in 0..<6 { new[(n + a) * m + n + b] = old[a * n + b] }
                }
            }
        }
        covariance = p
        clones.append(Clone(frame: frame, timestamp: timestamp, rotation: rotation, position: position,
                            rotationFE: rotation, positionFE: position))
    }

    /// Removes clone `k` and its rows and columns (marginalisation of a Gaussian = deletion).
    mutating func removeClone(at k: Int) {
        let n = dimension, m = n - 6, start = Self.imuDimension + 6 * k
        var p = [Double](repeating: 0, count: m * m)
        covariance.withUnsafeBufferPointer { old in
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
        covariance = p
        clones.remove(at: k)
    }

    /// Applies an error-state correction `dx` (length `dimension`).
    mutating func inject(_ dx: [Double]) {
        func v3(_ o: Int) -> Vector3 { Vector3(dx[o], dx[o + 1], dx[o + 2]) }
        rotation = SO3.orthonormalize(SO3.exp(v3(0)) * rotation)
        position += v3(3)
        velocity += v3(6)
        biasGyro += v3(9)
        biasAccel += v3(12)
        for k in 0..<clones.count {
            let o = Self.imuDimension + 6 * k
            clones[k].rotation = SO3.orthonormalize(SO3.exp(v3(o)) * clones[k].rotation)
            clones[k].position += v3(o + 3)
        }
    }

    /// Makes the covariance exactly symmetric (averaging) so round-off cannot accumulate.
    mutating func symmetrize() {
        let n = dimension
        covariance.withUnsafeMutableBufferPointer { p in
            for i in 0..<n {
                for j in (i + 1)..<max(i + 1, n) {
                    let s = 0.5 * (p[i * n + j] + p[j * n + i])
                    p[i * n + j] = s
                    p[j * n + i] = s
                }
            }
        }
    }

    /// True when every number in the state is finite and the covariance diagonal is positive.
    var isHealthy: Bool {
        guard position.isFinite, velocity.isFinite, biasGyro.isFinite, biasAccel.isFinite else { return false }
        let n = dimension
        for i in 0..<n where !(covariance[i * n + i] > 0) || !covariance[i * n + i].isFinite { return false }
        return true
    }
}

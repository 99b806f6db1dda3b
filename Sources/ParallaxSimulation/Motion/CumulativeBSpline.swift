import Foundation
import ParallaxMath

/// The full kinematic state of the body (IMU) frame at one instant, all derivatives analytic.
public struct TrajectoryState: Sendable, Equatable {
    /// Time in seconds.
    public var time: Double
    /// Pose of the body (IMU) frame in the z-up world: `p_world = T_world_body * p_body`.
    public var T_world_body: RigidTransform
    /// Linear velocity of the body origin, in world coordinates (m/s).
    public var velocityWorld: Vector3
    /// Linear acceleration of the body origin, in world coordinates (m/s²), gravity not included.
    public var accelerationWorld: Vector3
    /// Angular velocity of the body relative to the world, in body coordinates (rad/s):
    /// `R_world_bodyᵀ · dR_world_body/dt = [ω_body]×`.
    public var angularVelocityBody: Vector3
    /// Time derivative of ``angularVelocityBody`` (rad/s²).
    public var angularAccelerationBody: Vector3
}

/// A uniform cumulative cubic B-spline on R³ × SO(3): position and rotation of `T_world_body`.
///
/// Position and rotation use the *cumulative* form of the uniform cubic B-spline
/// (Kim, Kim & Shin 1995; Lovegrove et al. 2013; Mueggler et al. 2018):
///
///     p(u) = p_i + Σ_{j=1..3} λ_j(u) (p_{i+j} − p_{i+j−1})
///     R(u) = R_i · Π_{j=1..3} exp(λ_j(u) · d_j),  d_j = log(R_{i+j−1}ᵀ R_{i+j})
///
/// with `λ(u) = C · [1, u, u², u³]ᵀ`, `C` the cumulative basis matrix (Sommer et al. 2020, eq. 19).
/// The curve is C² in both parts whatever the control points are, because every cubic B-spline
/// segment shares value, first and second derivative with its neighbour at the knot.
///
/// Velocity, acceleration and the body angular velocity and acceleration come from the recursive
/// formulas of Sommer et al. 2020, "Efficient Derivative Computation for Cumulative B-Splines on
/// Lie Groups" (CVPR), eqs. 38–39 — analytic, no finite differences.
///
/// Segment `s` covers `[startTime + s·dt, startTime + (s+1)·dt)` and uses control points
/// `s ... s+3`; control point `k` "sits" at time `startTime + (k − 1)·dt`.
public struct CumulativeBSpline: Sendable {
    /// Time of the start of the first segment (s).
    public let startTime: Double
    /// Knot spacing (s).
    public let knotSpacing: Double
    /// Position control points (world, metres).
    public private(set) var positions: [Vector3]
    /// Rotation control points `q_world_body`.
    public private(set) var rotations: [Quaternion]
    /// Relative rotation vectors `d_k = log(R_{k−1}ᵀ R_k)` cached for `k ≥ 1` (index 0 unused).
    private var deltas: [Vector3]

    /// Creates a spline from control points (at least 4; positions and rotations equally many).
    /// - Throws: ``SimulationError`` when the counts differ, are below 4, or `knotSpacing ≤ 0`.
    public init(startTime: Double, knotSpacing: Double, positions: [Vector3], rotations: [Quaternion]) throws {
        guard knotSpacing > 0, knotSpacing.isFinite else {
            throw SimulationError.invalidArgument("knot spacing must be positive, got \(knotSpacing)")
        }
        guard positions.count == rotations.count, positions.count >= 4 else {
            throw SimulationError.invalidArgument(
                "a cubic B-spline needs ≥ 4 control points with as many rotations as positions "
                    + "(got \(positions.count) positions, \(rotations.count) rotations)")
        }
        self.startTime = startTime
        self.knotSpacing = knotSpacing
        self.positions = positions
        self.rotations = rotations.map { $0.normalized }
        self.deltas = []
        recomputeDeltas()
    }

    /// Number of control points.
    public var controlPointCount: Int { positions.count }
    /// Last time at which the spline is defined.
    public var endTime: Double { startTime + Double(positions.count - 3) * knotSpacing }
    /// Duration of the spline (s).
    public var duration: Double { endTime - startTime }
    /// Time at which control point `k` has its largest influence.
    public func controlTime(_ k: Int) -> Double { startTime + Double(k - 1) * knotSpacing }

    /// Replaces control point `k` (used by the fitting code).
    mutating func setControlPoint(_ k: Int, position: Vector3, rotation: Quaternion) {
        positions[k] = position
        rotations[k] = rotation.normalized
        if k >= 1 { deltas[k] = Self.delta(rotations[k - 1], rotations[k]) }
        if k + 1 < rotations.count { deltas[k + 1] = Self.delta(rotations[k], rotations[k + 1]) }
    }

    /// `log(aᵀ b)`, exactly zero for identical control points so that a static start has
    /// exactly zero angular velocity.
    private static func delta(_ a: Quaternion, _ b: Quaternion) -> Vector3 {
        a == b ? .zero : (a.inverse * b).rotationVector
    }

    private mutating func recomputeDeltas() {
        deltas = [Vector3](repeating: .zero, count: rotations.count)
        for k in 1..<rotations.count { deltas[k] = Self.delta(rotations[k - 1], rotations[k]) }
    }

    /// Cumulative basis `λ_j(u)`, `j = 1...3` and its first and second derivative w.r.t. `u`
    /// (`λ_0 ≡ 1`). From `C = 1/6 [[6,0,0,0],[5,3,−3,1],[1,3,3,−2],[0,0,0,1]]`.
    @inline(__always)
    static func basis(_ u: Double) -> (value: SIMD3<Double>, first: SIMD3<Double>, second: SIMD3<Double>) {
        let u2 = u * u, u3 = u2 * u
        let value = SIMD3(5 + 3 * u - 3 * u2 + u3, 1 + 3 * u + 3 * u2 - 2 * u3, u3) / 6
        let first = SIMD3(3 - 6 * u + 3 * u2, 3 + 6 * u - 6 * u2, 3 * u2) / 6
        let second = SIMD3(-6 + 6 * u, 6 - 12 * u, 6 * u) / 6
        return (value, first, second)
    }

    /// Segment index and local parameter `u ∈ [0, 1]` of time `t` (clamped to the valid range).
    @inline(__always)
    func segment(at t: Double) -> (index: Int, u: Double) {
        let x = (t - startTime) / knotSpacing
        let last = positions.count - 4
        if !(x > 0) { return (0, 0) }
        let i = Int(x.rounded(.down))
        if i > last { return (last, 1) }
        return (i, x - Double(i))
    }

    /// The pose `T_world_body` at time `t` (clamped to `[startTime, endTime]`).
    public func pose(at t: Double) -> RigidTransform {
        let (i, u) = segment(at: t)
        let lambda = Self.basis(u).value
        var p = positions[i]
        var q = rotations[i]
        for j in 1...3 {
            p += lambda[j - 1] * (positions[i + j] - positions[i + j - 1])
            q = q * Quaternion(rotationVector: lambda[j - 1] * deltas[i + j])
        }
        return RigidTransform(rotation: q.normalized, translation: p)
    }

    /// The full state (pose, velocity, acceleration, body angular velocity and acceleration) at `t`.
    /// Outside `[startTime, endTime]` the pose is clamped and the derivatives are those at the end.
    public func state(at t: Double) -> TrajectoryState {
        let (i, u) = segment(at: t)
        let b = Self.basis(u)
        let inv = 1 / knotSpacing
        let lambdaDot = b.first * inv
        let lambdaDDot = b.second * (inv * inv)

        var p = positions[i]
        var v = Vector3.zero
        var a = Vector3.zero
        var q = rotations[i]
        var omega = Vector3.zero
        var omegaDot = Vector3.zero
        for j in 1...3 {
            let dp = positions[i + j] - positions[i + j - 1]
            p += b.value[j - 1] * dp
            v += lambdaDot[j - 1] * dp
            a += lambdaDDot[j - 1] * dp

            // Sommer et al. 2020, eqs. 38–39, written for the right-trivialised (body) velocity:
            //   ω⁽ʲ⁾ = A_jᵀ ω⁽ʲ⁻¹⁾ + λ̇_j d_j
            //   ω̇⁽ʲ⁾ = A_jᵀ ω̇⁽ʲ⁻¹⁾ + λ̈_j d_j + (A_jᵀ ω⁽ʲ⁻¹⁾) × (λ̇_j d_j)
            // where A_j = exp(λ_j d_j). The cross term is d/dt(A_jᵀ) ω = −λ̇_j [d_j]× A_jᵀ ω.
            let d = deltas[i + j]
            let aj = Quaternion(rotationVector: b.value[j - 1] * d)
            let rotatedOmega = aj.inverse.act(omega)
            let dDot = lambdaDot[j - 1] * d
            omegaDot = aj.inverse.act(omegaDot) + lambdaDDot[j - 1] * d + rotatedOmega.cross(dDot)
            omega = rotatedOmega + dDot
            q = q * aj
        }
        return TrajectoryState(
            time: t, T_world_body: RigidTransform(rotation: q.normalized, translation: p),
            velocityWorld: v, accelerationWorld: a, angularVelocityBody: omega, angularAccelerationBody: omegaDot)
    }
}

/// Errors of the simulation module; messages name the offending argument, file or line.
public enum SimulationError: Error, CustomStringConvertible, Equatable {
    /// An argument is out of range.
    case invalidArgument(String)
    /// An input file could not be used.
    case invalidInput(file: String, reason: String)

    public var description: String {
        switch self {
        case .invalidArgument(let m): return "invalid argument: \(m)"
        case .invalidInput(let file, let reason): return "\(file): \(reason)"
        }
    }
}

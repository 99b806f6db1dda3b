import Foundation
import ParallaxDatasets
import ParallaxMath

/// How the estimate is aligned to the reference before errors are measured.
public enum AlignmentMethod: String, Sendable, CaseIterable, Codable {
    /// No alignment: the estimate is compared in its own world frame.
    case none
    /// Rotation and translation (6-DoF), Umeyama without scale (evo `--align`).
    case se3
    /// Rotation, translation and scale (7-DoF), Umeyama with scale (evo `--align --correct_scale`).
    case sim3
    /// Translation and rotation about the gravity axis z (4-DoF): the unobservable directions
    /// of visual-inertial odometry. Not available in evo.
    case posyaw
}

/// A similarity transform `p_ref = scale · R · p_est + t` that maps estimate positions into the
/// reference world frame (`scale == 1` except for `sim3`).
public struct TrajectoryAlignment: Sendable, Equatable {
    /// The method that produced it.
    public var method: AlignmentMethod
    /// Rotation `R_ref_est`.
    public var rotation: Matrix3
    /// Translation in metres.
    public var translation: Vector3
    /// Scale factor (1 unless `sim3`).
    public var scale: Double

    /// The identity alignment (`none`).
    public static let identity = TrajectoryAlignment(method: .none, rotation: .identity, translation: .zero, scale: 1)

    /// Creates an alignment.
    public init(method: AlignmentMethod, rotation: Matrix3, translation: Vector3, scale: Double) {
        self.method = method
        self.rotation = rotation
        self.translation = translation
        self.scale = scale
    }

    /// Estimates the alignment of `estimate` positions onto `reference` positions (paired by
    /// index) that minimises the sum of squared position differences.
    ///
    /// `se3`/`sim3` follow Umeyama, "Least-squares estimation of transformation parameters
    /// between two point patterns", IEEE PAMI 13(4), 1991, eqs. 34–43, as evo implements it.
    ///
    /// `posyaw` restricts the rotation to `R_z(θ)`. With centred points `x̃ = x − x̄` (estimate)
    /// and `ỹ = y − ȳ` (reference), the cost `Σ‖ỹ − R_z(θ)x̃‖²` is minimal where
    /// `Σ ỹᵀR_z(θ)x̃ = cos θ · Σ(x̃₁ỹ₁ + x̃₂ỹ₂) + sin θ · Σ(x̃₁ỹ₂ − x̃₂ỹ₁) + Σx̃₃ỹ₃` is maximal,
    /// i.e. at `θ = atan2(H₁₀ − H₀₁, H₀₀ + H₁₁)` with the cross-covariance `H = Σ ỹ x̃ᵀ`; then
    /// `t = ȳ − R_z(θ) x̄` (the optimal translation always matches the centroids).
    public static func estimate(
        _ method: AlignmentMethod, estimate x: [Vector3], reference y: [Vector3]
    ) throws -> TrajectoryAlignment {
        precondition(x.count == y.count, "alignment needs paired points")
        if method == .none { return .identity }
        let n = Double(x.count)
        guard x.count >= (method == .posyaw ? 2 : 3) else {
            throw EvaluationError("\(method.rawValue) alignment needs at least \(method == .posyaw ? 2 : 3) associated poses, found \(x.count)")
        }
        let meanX = x.reduce(Vector3.zero, +) / n
        let meanY = y.reduce(Vector3.zero, +) / n
        var sigmaX = 0.0
        var cov = Matrix3.zero
        for i in x.indices {
            let dx = x[i] - meanX, dy = y[i] - meanY
            sigmaX += dx.squaredNorm
            cov += Matrix3.outer(dy, dx)
        }
        sigmaX /= n        // eq. 36
        cov = cov / n      // eq. 38

        if method == .posyaw {
            let a = cov[0, 0] + cov[1, 1], b = cov[1, 0] - cov[0, 1]
            guard (a * a + b * b).squareRoot() > 1e-12 * max(sigmaX, 1e-300) else {
                throw EvaluationError("posyaw alignment is degenerate: the estimate does not move horizontally")
            }
            let theta = atan2(b, a)
            let r = Matrix3(rows: Vector3(cos(theta), -sin(theta), 0), Vector3(sin(theta), cos(theta), 0), Vector3(0, 0, 1))
            return TrajectoryAlignment(method: .posyaw, rotation: r, translation: meanY - r * meanX, scale: 1)
        }

        // Signed SVD (ParallaxMath): u and v are proper rotations and s.z carries the sign of
        // det(cov), so Umeyama's S = diag(1, 1, sign(det U det V)) is already folded in:
        // R = U S Vᵀ = u vᵀ (eq. 40) and tr(D S) = s.x + s.y + s.z (eq. 42).
        let (u, s, v) = cov.svd()
        // evo rejects a covariance of rank < m − 1 (fewer than two singular values above eps).
        guard [s.x, s.y, abs(s.z)].filter({ $0 > Double.ulpOfOne }).count >= 2 else {
            throw EvaluationError("\(method.rawValue) alignment is degenerate: the positions are (nearly) collinear")
        }
        let r = u * v.transpose
        let c = method == .sim3 ? (s.x + s.y + s.z) / sigmaX : 1.0
        guard c.isFinite, c > 0 else { throw EvaluationError("sim3 alignment is degenerate: scale \(c)") }
        return TrajectoryAlignment(method: method, rotation: r, translation: meanY - c * (r * meanX), scale: c)  // eq. 41
    }

    /// Maps a position: `scale · R · p + t` (scaled first, as evo does).
    public func apply(_ p: Vector3) -> Vector3 { rotation * (scale * p) + translation }

    /// The trajectory with every pose moved into the reference frame: positions by `apply`,
    /// orientations `R · R_world_body` (scale does not affect orientation). Quaternions are
    /// normalised on the way.
    public func apply(to trajectory: Trajectory) -> Trajectory {
        let q = Quaternion(rotationMatrix: rotation)
        var out = trajectory
        for i in out.poses.indices {
            let pose = out.poses[i].T_world_body
            out.poses[i].T_world_body = RigidTransform(
                rotation: (q * pose.rotation.normalized).normalized, translation: apply(pose.translation))
        }
        return out
    }
}

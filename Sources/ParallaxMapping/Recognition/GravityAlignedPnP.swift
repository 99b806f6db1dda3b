import Foundation
import ParallaxMath

/// One 2-D–3-D correspondence: a camera bearing and a world point.
public struct PnPCorrespondence: Sendable {
    /// Bearing of the observation in the camera frame (OpenCV camera, any length, z > 0).
    public var bearing_camera: Vector3
    /// The matched point in the world (m).
    public var point_world: Vector3

    /// Creates a correspondence.
    public init(bearing_camera: Vector3, point_world: Vector3) {
        self.bearing_camera = bearing_camera
        self.point_world = point_world
    }
}

/// The answer of ``GravityAlignedPnP/solve(_:R_gravity_camera:)``.
public struct PnPSolution: Sendable {
    /// The camera pose in the world (OpenCV camera).
    public var T_world_camera: RigidTransform
    /// The yaw (about world z) applied to the gravity-aligned rotation (rad).
    public var yaw: Double
    /// Indices of the inlier correspondences.
    public var inliers: [Int]
    /// RMS reprojection error of the inliers in normalised image units.
    public var rmsError: Double
}

/// PnP with the gravity direction known: the camera rotation is `R_z(ψ) · R_gravity_camera`, where
/// `R_gravity_camera` is the tracker's rotation (roll and pitch are observable from gravity, so its
/// odometry frame and the map's world differ by a yaw and a translation only). Four unknowns
/// (ψ, t): a linear three-point solve inside RANSAC, Gauss–Newton on the consensus, then a robust
/// (Cauchy) refinement over every correspondence.
public struct GravityAlignedPnP: Sendable {
    /// Inlier threshold on the reprojection error in normalised image units (≈ pixels / focal).
    public var threshold: Double
    /// RANSAC iterations.
    public var iterations: Int
    /// Fewest inliers for a solution.
    public var minimumInliers: Int
    /// Seed of the deterministic sampler.
    public var seed: UInt64

    /// Creates a solver; `threshold` 0.015 is 6.9 px at EuRoC's 458 px focal length (the map points are
    /// the tracker's triangulations and the rotation the odometry's: a few pixels of error each).
    public init(threshold: Double = 0.015, iterations: Int = 200, minimumInliers: Int = 15, seed: UInt64 = 7) {
        self.threshold = threshold
        self.iterations = iterations
        self.minimumInliers = minimumInliers
        self.seed = seed
    }

    /// The pose, or nil when fewer than ``minimumInliers`` agree.
    public func solve(_ c: [PnPCorrespondence], R_gravity_camera: Matrix3) -> PnPSolution? {
        guard c.count >= max(3, minimumInliers) else { return nil }
        let v = c.map { R_gravity_camera * $0.bearing_camera }
        let x = c.map(\.point_world)
        var rng = SplitMix64(seed: seed)
        var best: (yaw: Double, t: Vector3, inliers: [Int])?
        for _ in 0..<iterations {
            var sample: [Int] = []
            while sample.count < 3 {
                let k = Int(rng.next() % UInt64(c.count))
                if !sample.contains(k) { sample.append(k) }
            }
            guard let (yaw, t) = Self.linearSolve(sample.map { v[$0] }, sample.map { x[$0] }) else { continue }
            let inliers = self.inliers(v, x, yaw: yaw, t: t)
            if inliers.count > (best?.inliers.count ?? 0) { best = (yaw, t, inliers) }
        }
        guard var b = best, b.inliers.count >= minimumInliers else { return nil }
        for _ in 0..<2 {  // refine on all inliers, re-collect
            if let (yaw, t) = Self.linearSolve(b.inliers.map { v[$0] }, b.inliers.map { x[$0] }) {
                let refined = Self.gaussNewton(b.inliers.map { v[$0] }, b.inliers.map { x[$0] }, yaw: yaw, t: t)
                let inl = inliers(v, x, yaw: refined.yaw, t: refined.t)
                if inl.count >= b.inliers.count { b = (refined.yaw, refined.t, inl) }
            }
        }
        // A robust refinement over every correspondence, so the answer depends on the data, not on
        // which RANSAC sample happened to gather the consensus (see ``robustRefine``).
        let robust = Self.robustRefine(v, x, yaw: b.yaw, t: b.t, scale: threshold / 2)
        let robustInliers = inliers(v, x, yaw: robust.yaw, t: robust.t)
        if robustInliers.count >= minimumInliers { b = (robust.yaw, robust.t, robustInliers) }
        guard b.inliers.count >= minimumInliers else { return nil }
        let rms = (b.inliers.map { Self.residual(v[$0], x[$0], yaw: b.yaw, t: b.t).map { $0.x * $0.x + $0.y * $0.y } ?? 0 }
            .reduce(0, +) / Double(b.inliers.count)).squareRoot()
        let R = Self.rz(b.yaw) * R_gravity_camera
        return PnPSolution(T_world_camera: RigidTransform(rotationMatrix: R, translation: b.t), yaw: b.yaw,
                           inliers: b.inliers, rmsError: rms)
    }

    /// One view of a placement over several frames: a camera bearing turned into the odometry
    /// frame's gravity-aligned axes, the map point it sees, and the camera centre in the odometry frame.
    public struct OdometryView: Sendable {
        /// Bearing `R_odom_camera · b` (unnormalised).
        public var bearing_odom: Vector3
        /// The map point (world).
        public var point_world: Vector3
        /// Camera centre in the odometry frame.
        public var centre_odom: Vector3

        /// Creates a view.
        public init(bearing_odom: Vector3, point_world: Vector3, centre_odom: Vector3) {
            self.bearing_odom = bearing_odom
            self.point_world = point_world
            self.centre_odom = centre_odom
        }
    }

    /// The 4-DoF `T_world_odom = (R_z(ψ), t)` that best explains map points seen from several
    /// frames whose poses in the odometry frame are known: a generalized (multi-camera) PnP, the
    /// point in the odometry frame `R_z(−ψ)(X − t)` seen from the camera centre `c`. Robust
    /// (Cauchy, `scale` in normalised units), from the initial (`yaw`, `t`).
    ///
    /// Why: one image places the odometry frame from one viewpoint, and an error in yaw grows
    /// with every metre travelled afterwards. Frames a second apart see the map from viewpoints a
    /// metre apart, joined by the odometry (millimetres over that time), which pins the yaw that
    /// a single view leaves loose. The frames act as one generalized camera (Pless, "Using many
    /// cameras as one", CVPR 2003); this refines it by least squares from a single-view start.
    public static func placeOdometry(_ views: [OdometryView], yaw: Double, t: Vector3, scale: Double) -> (yaw: Double, t: Vector3) {
        robustRefine(views.map(\.bearing_odom), views.map(\.point_world), yaw: yaw, t: t, scale: scale,
                     offsets: views.map(\.centre_odom))
    }

    /// Rotation about z by `yaw`.
    static func rz(_ yaw: Double) -> Matrix3 {
        let c = cos(yaw), s = sin(yaw)
        return Matrix3(rowMajor: [c, -s, 0, s, c, 0, 0, 0, 1])
    }

    /// Residual in normalised coordinates of the gravity-frame bearing `v` against the point `x`
    /// seen from (yaw, t): the point in the gravity-aligned camera axes is `R_z(−ψ)(x − t)`.
    /// Measured in the frame where the bearing is nearly the z axis would need the camera rotation;
    /// the angle between the rays (small-angle, ≈ normalised error) is frame-free.
    /// With an `offset`, the bearing starts there instead of at the origin of the axes (a camera
    /// centre in the odometry frame, for ``placeOdometry(_:yaw:t:scale:)``).
    static func residual(_ v: Vector3, _ x: Vector3, yaw: Double, t: Vector3, offset: Vector3 = .zero) -> Vector2? {
        let p = rz(-yaw) * (x - t) - offset
        let n = p.norm
        guard n > 1e-9 else { return nil }
        let a = p / n, b = v.normalized
        guard a.dot(b) > 0.2 else { return nil }
        // Two components of the angular error in a basis orthogonal to the bearing.
        let e1 = (abs(b.z) < 0.9 ? Vector3(0, 0, 1) : Vector3(1, 0, 0)).cross(b).normalized
        let e2 = b.cross(e1)
        return Vector2(a.dot(e1), a.dot(e2))
    }

    private func inliers(_ v: [Vector3], _ x: [Vector3], yaw: Double, t: Vector3) -> [Int] {
        (0..<v.count).filter { i in
            guard let r = Self.residual(v[i], x[i], yaw: yaw, t: t) else { return false }
            return r.norm < threshold
        }
    }

    /// Linear least squares on `v × R_z(−ψ)(x − t) = 0` in (cos ψ, sin ψ, t' = R_z(−ψ) t), then the
    /// translation again with ψ fixed (the unit-norm constraint on (c, s) is imposed afterwards).
    static func linearSolve(_ v: [Vector3], _ x: [Vector3]) -> (Double, Vector3)? {
        var rows: [([Double], Double)] = []
        for (b, p) in zip(v, x) {
            rows.append(([-b.z * p.y, b.z * p.x, 0, b.z, -b.y], -b.y * p.z))
            rows.append(([b.z * p.x, b.z * p.y, -b.z, 0, b.x], b.x * p.z))
            rows.append(([b.x * p.y - b.y * p.x, -b.x * p.x - b.y * p.y, b.y, -b.x, 0], 0))
        }
        guard let sol = leastSquares(rows, unknowns: 5) else { return nil }
        let yaw = atan2(sol[1], sol[0])
        guard sol[0] * sol[0] + sol[1] * sol[1] > 1e-12 else { return nil }
        let c = cos(yaw), s = sin(yaw)
        let fixed: [([Double], Double)] = rows.map { row, rhs in
            (Array(row[2...]), rhs - row[0] * c - row[1] * s)
        }
        guard let tp = leastSquares(fixed, unknowns: 3) else { return nil }
        return (yaw, rz(yaw) * Vector3(tp[0], tp[1], tp[2]))
    }

    /// Iteratively reweighted Gauss–Newton over all correspondences with Cauchy weights
    /// `1 / (1 + (r / scale)²)`, from a RANSAC pose.
    ///
    /// Why: the RANSAC consensus at a loose threshold (the map points are the tracker's
    /// triangulations, centimetres off at metres) changes with the sampler's seed, and refining on
    /// that set alone carried the change into the pose. On a simulated V1_01 flight after a 3 s
    /// blackout (mono, 15–20 inliers), six seeds gave placements whose worst later error ranged over
    /// 4.4–9.2 cm. Started from any of the consensus poses, a robust cost over every correspondence
    /// settles in the same minimum (M-estimators: Hartley & Zisserman, 2nd ed., §A6.8), so the
    /// answer depends on the data, not on the draw.
    static func robustRefine(_ v: [Vector3], _ x: [Vector3], yaw: Double, t: Vector3, scale: Double,
                             iterations: Int = 10, offsets: [Vector3]? = nil) -> (yaw: Double, t: Vector3) {
        var pose = (yaw: yaw, t: t)
        for _ in 0..<iterations {
            var weights: [Double] = []
            for (i, (b, p)) in zip(v, x).enumerated() {
                guard let r = residual(b, p, yaw: pose.yaw, t: pose.t, offset: offsets?[i] ?? .zero) else { weights.append(0); continue }
                let u = r.norm / scale
                weights.append(1 / (1 + u * u))
            }
            let next = gaussNewton(v, x, yaw: pose.yaw, t: pose.t, weights: weights, iterations: 1, offsets: offsets)
            let moved = abs(next.yaw - pose.yaw) + (next.t - pose.t).norm
            pose = next
            if moved < 1e-9 { break }
        }
        return pose
    }

    /// Gauss–Newton on the angular residuals over (ψ, t), numerical Jacobian, a few iterations;
    /// `weights` (one per correspondence, default 1) scale each residual's squared cost.
    static func gaussNewton(_ v: [Vector3], _ x: [Vector3], yaw: Double, t: Vector3, weights: [Double]? = nil,
                            iterations: Int = 5, offsets: [Vector3]? = nil) -> (yaw: Double, t: Vector3) {
        let root = (weights ?? [Double](repeating: 1, count: v.count)).map { $0.squareRoot() }
        var p = [yaw, t.x, t.y, t.z]
        func residuals(_ q: [Double]) -> [Double] {
            var r: [Double] = []
            for (i, (b, pt)) in zip(v, x).enumerated() {
                let e = residual(b, pt, yaw: q[0], t: Vector3(q[1], q[2], q[3]), offset: offsets?[i] ?? .zero) ?? .zero
                r.append(root[i] * e.x)
                r.append(root[i] * e.y)
            }
            return r
        }
        for _ in 0..<iterations {
            let r0 = residuals(p)
            var jac: [[Double]] = []
            for k in 0..<4 {
                var q = p
                q[k] += 1e-6
                jac.append(zip(residuals(q), r0).map { ($0 - $1) / 1e-6 })
            }
            var rows: [([Double], Double)] = []
            for i in 0..<r0.count { rows.append(((0..<4).map { jac[$0][i] }, -r0[i])) }
            guard let step = leastSquares(rows, unknowns: 4) else { break }
            for k in 0..<4 { p[k] += step[k] }
            if step.map(abs).max() ?? 0 < 1e-9 { break }
        }
        return (p[0], Vector3(p[1], p[2], p[3]))
    }
}

/// Solves the normal equations of `rows` (coefficients, right-hand side) by Gaussian elimination
/// with partial pivoting; nil when singular.
func leastSquares(_ rows: [([Double], Double)], unknowns n: Int) -> [Double]? {
    var a = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
    for (row, rhs) in rows {
        for i in 0..<n {
            for j in 0..<n { a[i][j] += row[i] * row[j] }
            a[i][n] += row[i] * rhs
        }
    }
    let scale = (0..<n).map { a[$0][$0] }.max() ?? 0
    guard scale > 0, scale.isFinite else { return nil }
    for col in 0..<n {
        guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }),
              abs(a[pivot][col]) > 1e-12 * scale else { return nil }
        a.swapAt(col, pivot)
        for r in 0..<n where r != col {
            let f = a[r][col] / a[col][col]
            if f != 0 { for k in col...n { a[r][k] -= f * a[col][k] } }
        }
    }
    let x = (0..<n).map { a[$0][n] / a[$0][$0] }
    return x.allSatisfy(\.isFinite) ? x : nil
}

import Foundation
import ParallaxMath

/// A 4-DoF pose: yaw about world z and a position. Roll and pitch are not variables: gravity
/// makes them observable, so odometry and map agree on them (VINS-Mono's 4-DoF pose graph,
/// Qin, Li & Shen, "VINS-Mono", IEEE T-RO 2018, section VIII).
public struct YawPose: Sendable, Equatable {
    /// Heading (rad) about world z.
    public var yaw: Double
    /// Position (m).
    public var position: Vector3

    /// Creates a pose.
    public init(yaw: Double, position: Vector3) {
        self.yaw = yaw
        self.position = position
    }

    /// The 4-DoF part of a camera pose: the heading of its x axis (image right, which stays near
    /// horizontal for a camera looking forward or down) and its position.
    public init(_ T_world_camera: RigidTransform) {
        let x = T_world_camera.rotate(Vector3(1, 0, 0))
        self.init(yaw: atan2(x.y, x.x), position: T_world_camera.translation)
    }

    /// The relative measurement from `self` to `other`: displacement in `self`'s yaw frame and
    /// the yaw difference (wrapped to (−π, π]).
    public func relative(to other: YawPose) -> YawPose {
        YawPose(yaw: wrapAngle(other.yaw - yaw), position: rotateZ(other.position - position, by: -yaw))
    }
}

/// One constraint of the pose graph: node `to` seen from node `from`.
public struct PoseGraphEdge: Sendable, Equatable {
    /// Node the measurement is expressed in.
    public var from: Int
    /// Node measured.
    public var to: Int
    /// `from.relative(to: to)` as measured (odometry or a loop's PnP).
    public var measurement: YawPose
    /// Standard deviation of each position component (m).
    public var positionSigma: Double
    /// Standard deviation of the yaw (rad).
    public var yawSigma: Double
    /// Huber threshold on the whitened residual norm (nil: plain least squares). Loop edges get
    /// one, so a loop that slipped past the checks cannot pull the whole graph.
    public var huber: Double?

    /// Creates an edge.
    public init(from: Int, to: Int, measurement: YawPose, positionSigma: Double, yawSigma: Double, huber: Double? = nil) {
        self.from = from
        self.to = to
        self.measurement = measurement
        self.positionSigma = positionSigma
        self.yawSigma = yawSigma
        self.huber = huber
    }
}

/// Gauss–Newton over a 4-DoF pose graph.
///
/// Variables: `x_i = (ψ_i, p_i)` for every node not fixed. Each edge (i → j) with measurement
/// (ψ̂_ij, p̂_ij) has the residual (VINS-Mono eq. 27, with the roll and pitch of node i left out:
/// the measurement is taken in i's yaw-only frame, which keeps the same norm)
///
///     r_p = R_z(ψ_i)ᵀ (p_j − p_i) − p̂_ij          (3)
///     r_ψ = wrap(ψ_j − ψ_i − ψ̂_ij)                 (1)
///
/// whitened by the edge's sigmas. Jacobians:
///
///     ∂r_p/∂p_i = −R_z(ψ_i)ᵀ,   ∂r_p/∂p_j = R_z(ψ_i)ᵀ,   ∂r_p/∂ψ_i = (dR_z(ψ_i)ᵀ/dψ)(p_j − p_i),
///     ∂r_ψ/∂ψ_i = −1,           ∂r_ψ/∂ψ_j = 1.
///
/// The normal equations `(JᵀWJ + λI) δ = −JᵀWr` are solved by a block Cholesky that eliminates
/// the nodes in minimum-degree order (`BlockCholesky`), so the fill stays near the graph's own
/// sparsity however the loops join it. The gauge (a 4-DoF
/// transform of the whole graph) is fixed by holding at least one node constant.
public struct PoseGraph: Sendable {
    /// Node poses.
    public var nodes: [YawPose]
    /// True for nodes held constant.
    public var fixed: [Bool]
    /// Constraints.
    public var edges: [PoseGraphEdge]

    /// A graph over `nodes` (all free unless `fixed` says otherwise).
    public init(nodes: [YawPose], fixed: [Bool]? = nil, edges: [PoseGraphEdge] = []) {
        self.nodes = nodes
        self.fixed = fixed ?? Array(repeating: false, count: nodes.count)
        self.edges = edges
    }

    /// Sum of squared whitened residuals (Huber-weighted where an edge has a threshold).
    public func cost() -> Double {
        edges.reduce(0) { sum, e in
            let r = residual(e)
            let n2 = (r.position / e.positionSigma).squaredNorm + (r.yaw / e.yawSigma) * (r.yaw / e.yawSigma)
            return sum + robustWeight(e, n2) * n2
        }
    }

    /// Runs Gauss–Newton (with a small Levenberg damping) for at most `iterations` steps;
    /// returns the number of steps taken.
    @discardableResult
    public mutating func optimize(iterations: Int = 10, tolerance: Double = 1e-10) -> Int {
        var index = [Int](repeating: -1, count: nodes.count)
        var count = 0
        for i in nodes.indices where !fixed[i] { index[i] = count; count += 1 }
        guard count > 0 else { return 0 }
        var lambda = 1e-6
        var current = cost()
        for step in 0..<iterations {
            guard let (H, g) = normalEquations(index: index, count: count) else { return step }
            var damped = H
            for k in 0..<(4 * count) { damped.addToDiagonal(lambda * max(damped.diagonalEntry(k), 1e-9), k) }
            guard let delta = damped.solve(g.map { -$0 }) else { return step }
            let saved = nodes
            for i in nodes.indices where index[i] >= 0 {
                let b = 4 * index[i]
                nodes[i].yaw = wrapAngle(nodes[i].yaw + delta[b])
                nodes[i].position += Vector3(delta[b + 1], delta[b + 2], delta[b + 3])
            }
            let next = cost()
            if next > current {  // rejected: more damping
                nodes = saved
                lambda *= 10
                if lambda > 1e6 { return step }
                continue
            }
            lambda = max(lambda / 10, 1e-9)
            let improvement = current - next
            current = next
            if improvement <= tolerance * max(1, current) { return step + 1 }
        }
        return iterations
    }

    private func residual(_ e: PoseGraphEdge) -> YawPose {
        let rel = nodes[e.from].relative(to: nodes[e.to])
        return YawPose(yaw: wrapAngle(rel.yaw - e.measurement.yaw), position: rel.position - e.measurement.position)
    }

    /// Huber: weight 1 inside the threshold, k/‖r‖ outside (iteratively reweighted least squares).
    private func robustWeight(_ e: PoseGraphEdge, _ squaredNorm: Double) -> Double {
        guard let k = e.huber, squaredNorm > k * k else { return 1 }
        return k / squaredNorm.squareRoot()
    }

    private func normalEquations(index: [Int], count: Int) -> (BlockCholesky, [Double])? {
        var H = BlockCholesky(count: count)
        var g = [Double](repeating: 0, count: 4 * count)
        for e in edges {
            let pi = nodes[e.from], pj = nodes[e.to]
            let r = residual(e)
            let d = pj.position - pi.position
            let c = cos(pi.yaw), s = sin(pi.yaw)
            // Rows: r_x, r_y, r_z, r_ψ. Columns per node: ψ, p_x, p_y, p_z.
            let Ji = JacobianRows(SIMD4(-s * d.x + c * d.y, -c, -s, 0), SIMD4(-c * d.x - s * d.y, s, -c, 0),
                                  SIMD4(0, 0, 0, -1), SIMD4(-1, 0, 0, 0))
            let Jj = JacobianRows(SIMD4(0, c, s, 0), SIMD4(0, -s, c, 0), SIMD4(0, 0, 0, 1), SIMD4(1, 0, 0, 0))
            let rv = SIMD4(r.position.x, r.position.y, r.position.z, r.yaw)
            let wp = 1 / (e.positionSigma * e.positionSigma), wy = 1 / (e.yawSigma * e.yawSigma)
            let w0 = SIMD4(wp, wp, wp, wy)
            let n2 = (rv * rv * w0).sum()
            guard n2.isFinite else { return nil }
            let w = w0 * robustWeight(e, n2)
            let wr = w * rv
            let blocks = [(index[e.from], Ji), (index[e.to], Jj)]
            for (na, Ja) in blocks where na >= 0 {
                let ga = Ja.transposedTimes(wr)
                for col in 0..<4 { g[4 * na + col] += ga[col] }
                for (nb, Jb) in blocks where nb >= 0 && nb <= na {
                    for ca in 0..<4 {
                        // Row ca of Jaᵀ W Jb: Σ_row Ja[row][ca] · w[row] · Jb[row].
                        let weights = Ja.column(ca) * w
                        let row = Jb.transposedTimes(weights)
                        for cb in 0..<4 {
                            let rowIndex = 4 * na + ca, colIndex = 4 * nb + cb
                            guard colIndex <= rowIndex else { continue }
                            H.add(row[cb], row: rowIndex, column: colIndex)
                        }
                    }
                }
            }
        }
        return (H, g)
    }
}

/// A 4×4 Jacobian block by rows (no heap storage: the normal equations build one per edge end).
private struct JacobianRows {
    var r0, r1, r2, r3: SIMD4<Double>
    init(_ r0: SIMD4<Double>, _ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>) {
        (self.r0, self.r1, self.r2, self.r3) = (r0, r1, r2, r3)
    }
    /// `Jᵀ v`.
    func transposedTimes(_ v: SIMD4<Double>) -> SIMD4<Double> { r0 * v[0] + r1 * v[1] + r2 * v[2] + r3 * v[3] }
    /// Column `k`.
    func column(_ k: Int) -> SIMD4<Double> { SIMD4(r0[k], r1[k], r2[k], r3[k]) }
}

/// Wraps an angle to (−π, π].
func wrapAngle(_ a: Double) -> Double {
    var x = a.truncatingRemainder(dividingBy: 2 * .pi)
    if x > .pi { x -= 2 * .pi } else if x <= -.pi { x += 2 * .pi }
    return x
}

/// `R_z(angle) · v`.
func rotateZ(_ v: Vector3, by angle: Double) -> Vector3 {
    let c = cos(angle), s = sin(angle)
    return Vector3(c * v.x - s * v.y, s * v.x + c * v.y, v.z)
}

import Foundation
import ParallaxMapping
import ParallaxMath

/// How far the pose graph's edges are from the truth: each loop edge's measurement against the
/// true relative 4-DoF pose of its two keyframes, whitened by its σ, and the odometry between
/// consecutive keyframes per metre. Relative poses need no alignment (both worlds share gravity),
/// so this checks the σ the graph weighs its edges with against what the edges really carry.
public struct PoseGraphEdgeErrors: Sendable {
    /// One loop edge's error: position (m), yaw (rad), and the same divided by the edge's σ.
    public struct Error: Sendable {
        public var position: Double, yaw: Double
        /// σ the edge entered the graph with (m).
        public var positionSigma: Double
        /// `√(eᵀ Ω e)` with the σ the graph weighs the edge with: were the σ right, it would
        /// follow a χ distribution with 4 degrees of freedom (median 1.83, 90 % below 2.79).
        public var whitened = 0.0
        /// The position error along the later keyframe's optical axis (m, signed) and across it.
        public var alongAxis = 0.0, acrossAxis = 0.0
        /// Vertical (world z) component of the position error (m, signed).
        public var vertical = 0.0
    }
    /// Loop edges with both keyframes in the run's truth.
    public var loops: [Error] = []
    /// The odometry's tilt error at each keyframe (rad): the angle between world up as the
    /// tracker's camera sees it and as the true camera does. A gravity-aligned PnP holds the
    /// tracker's tilt, so a tilt that wanders between an old keyframe and a loop's camera turns
    /// into a sideways loop error of about tilt × depth.
    public var tilt: [Double] = []
    /// The same by keyframe id.
    public var tiltByKeyframe: [Int: Double] = [:]
    /// Odometry edges between consecutive keyframes: position error (m) and path length (m).
    public var odometry: [(error: Double, yawError: Double, length: Double)] = []

    /// Measures `mapper`'s edges with the truth of `samples`.
    public init(samples: [MappedReplay.Sample], mapper: WorldMapper) {
        var truth: [Int: YawPose] = [:], axis: [Int: Vector3] = [:], odometry: [(id: Int, pose: YawPose)] = []
        for s in samples {
            guard let k = s.keyframe else { continue }
            if let T = s.truth_T_world_body {
                let c = T * k.T_camera_body.inverse
                truth[k.id] = YawPose(c)
                axis[k.id] = c.rotate(Vector3(0, 0, 1))
                if let e = s.odometryCamera {  // world up seen from the estimated and the true camera
                    let d = TiltConsistency.tiltError(estimate: e.rotationMatrix, truth: c.rotationMatrix)
                    tilt.append((d.x * d.x + d.y * d.y).squareRoot())
                    tiltByKeyframe[k.id] = tilt.last
                }
            }
            if let p = s.odometryCamera { odometry.append((k.id, YawPose(p))) }
        }
        for e in mapper.loopEdges {
            guard let a = truth[e.from], let b = truth[e.to] else { continue }
            let t = a.relative(to: b)
            let dp = (t.position - e.measurement.position).norm
            let dy = abs(Self.wrap(t.yaw - e.measurement.yaw))
            var error = Error(position: dp, yaw: dy, positionSigma: e.positionSigma)
            error.whitened = (dp * dp / (e.positionSigma * e.positionSigma) + dy * dy / (e.yawSigma * e.yawSigma)).squareRoot()
            if let z = axis[e.to] {
                let c = cos(-a.yaw), s = sin(-a.yaw)
                let zOld = Vector3(c * z.x - s * z.y, s * z.x + c * z.y, z.z)  // in the old keyframe's yaw frame
                let d = e.measurement.position - t.position
                error.alongAxis = d.dot(zOld)
                error.acrossAxis = (d - zOld * error.alongAxis).norm
                error.vertical = d.z
            }
            loops.append(error)
        }
        for (a, b) in zip(odometry, odometry.dropFirst()) {
            guard let ta = truth[a.id], let tb = truth[b.id] else { continue }
            let t = ta.relative(to: tb), m = a.pose.relative(to: b.pose)
            self.odometry.append(((t.position - m.position).norm, abs(Self.wrap(t.yaw - m.yaw)), t.position.norm))
        }
    }

    static func wrap(_ a: Double) -> Double { atan2(sin(a), cos(a)) }
}

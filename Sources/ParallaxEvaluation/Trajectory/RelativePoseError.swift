import Foundation
import ParallaxDatasets
import ParallaxMath

/// The unit of the RPE step `delta`.
public enum RPEDeltaUnit: String, Sendable, CaseIterable, Codable {
    /// Travelled distance in metres along the (aligned) estimate (evo `--delta_unit m`).
    case meters = "m"
    /// Elapsed time in seconds (not in evo; same rule as metres, applied to time).
    case seconds = "s"
    /// A number of associated poses (evo `--delta_unit f`).
    case frames = "f"
}

/// Relative pose error over pose pairs a fixed step apart, as evo_rpe defines it
/// (`evo/core/metrics.py`, `RPE`; Sturm et al., IROS 2012, eq. 3):
/// `E_ij = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)` with reference `Q` and **aligned** estimate `P`;
/// the translation error is `‖trans(E_ij)‖` (evo `--pose_relation trans_part`) and the rotation
/// error the angle of `rot(E_ij)` in degrees (evo `--pose_relation angle_deg`).
///
/// Pairs are chosen on the aligned estimate's poses (evo's default, `pairs_from_reference`
/// off) and, unless `allPairs`, are consecutive: starting at pose 0, the next pose is the first
/// one at which the accumulated step (path length, time or pose count since the previous chosen
/// pose) reaches `delta`. With `allPairs` every pose starts a pair, ending at the pose whose
/// step is closest to `delta`, accepted within `relativeTolerance · delta` (evo `--all_pairs`).
///
/// Normalised figures (not in evo): each pair's errors divided by the reference path length
/// between its two poses, giving translation drift in % of distance and rotation drift in
/// deg/m; pairs whose reference did not move are left out of those two.
public struct RelativePoseError: Sendable {
    /// Index pairs `(i, j)` into the associated trajectories.
    public var pairs: [(Int, Int)]
    /// Translation error per pair, metres.
    public var translationErrors: [Double]
    /// Rotation error per pair, degrees.
    public var rotationErrorsDeg: [Double]
    /// Statistics of the translation errors (m).
    public var translation: ErrorStatistics
    /// Statistics of the rotation errors (deg).
    public var rotationDeg: ErrorStatistics
    /// Statistics of translation error / reference distance × 100 (%).
    public var translationPercent: ErrorStatistics
    /// Statistics of rotation error / reference distance (deg/m).
    public var rotationDegPerMeter: ErrorStatistics

    /// Computes the RPE of `alignedEstimate` against `reference` (same count, paired by index).
    public init(
        reference: Trajectory, alignedEstimate: Trajectory, delta: Double, unit: RPEDeltaUnit,
        allPairs: Bool = false, relativeTolerance: Double = 0.1
    ) throws {
        precondition(reference.count == alignedEstimate.count, "RPE needs associated trajectories")
        guard delta > 0, delta.isFinite else { throw EvaluationError("the RPE delta must be a positive number, got \(delta)") }
        if unit == .frames && delta.rounded() != delta {
            throw EvaluationError("the RPE delta must be a whole number of poses for unit f, got \(delta)")
        }
        let pairs = Self.pairs(of: alignedEstimate, delta: delta, unit: unit, allPairs: allPairs, tolerance: delta * relativeTolerance)
        guard !pairs.isEmpty else {
            throw EvaluationError("RPE delta \(delta) \(unit.rawValue) produced no pose pairs (the associated trajectory is too short)")
        }
        let q = reference.poses.map { Self.unit($0.T_world_body) }
        let p = alignedEstimate.poses.map { Self.unit($0.T_world_body) }
        var cumulative = [0.0]
        for k in 1..<max(q.count, 1) { cumulative.append(cumulative[k - 1] + (q[k].translation - q[k - 1].translation).norm) }
        var tErr: [Double] = [], rErr: [Double] = [], tPct: [Double] = [], rPerM: [Double] = []
        for (i, j) in pairs {
            let e = (q[i].inverse * q[j]).inverse * (p[i].inverse * p[j])
            let t = e.translation.norm
            let r = e.rotation.angle * 180 / Double.pi
            tErr.append(t)
            rErr.append(r)
            let distance = cumulative[j] - cumulative[i]
            if distance > 0 {
                tPct.append(100 * t / distance)
                rPerM.append(r / distance)
            }
        }
        self.pairs = pairs
        translationErrors = tErr
        rotationErrorsDeg = rErr
        translation = ErrorStatistics(tErr)
        rotationDeg = ErrorStatistics(rErr)
        translationPercent = ErrorStatistics(tPct)
        rotationDegPerMeter = ErrorStatistics(rPerM)
    }

    static func unit(_ t: RigidTransform) -> RigidTransform {
        RigidTransform(rotation: t.rotation.normalized, translation: t.translation)
    }

    /// The index pairs evo would use (see the type's documentation).
    public static func pairs(
        of trajectory: Trajectory, delta: Double, unit: RPEDeltaUnit, allPairs: Bool, tolerance: Double
    ) -> [(Int, Int)] {
        let n = trajectory.count
        guard n >= 2 else { return [] }
        if unit == .frames {
            let step = Int(delta)
            if allPairs { return (0..<n).compactMap { $0 + step < n ? ($0, $0 + step) : nil } }
            let ids = Array(stride(from: 0, to: n, by: step))
            return Array(zip(ids, ids.dropFirst()))
        }
        // Step measure from pose a to pose b (a < b).
        let measure: (Int, Int) -> Double
        let increment: (Int) -> Double   // step added when moving from pose k-1 to k
        switch unit {
        case .meters:
            let p = trajectory.positions
            var cumulative = [0.0]
            for k in 1..<n { cumulative.append(cumulative[k - 1] + (p[k] - p[k - 1]).norm) }
            measure = { cumulative[$1] - cumulative[$0] }
            increment = { (p[$0] - p[$0 - 1]).norm }
        default:
            measure = { Self.elapsed(trajectory.poses[$0], trajectory.poses[$1]) }
            increment = { Self.elapsed(trajectory.poses[$0 - 1], trajectory.poses[$0]) }
        }
        var result: [(Int, Int)] = []
        if allPairs {
            for i in 0..<(n - 1) {
                var best = i + 1, bestGap = Double.infinity
                for j in (i + 1)..<n {
                    let gap = abs(measure(i, j) - delta)
                    if gap < bestGap { best = j; bestGap = gap }   // first minimum, as numpy's argmin
                }
                if bestGap <= tolerance { result.append((i, best)) }
            }
            return result
        }
        if unit == .seconds {
            // Compare elapsed time directly, not a float sum, so that a uniformly sampled
            // trajectory gives exactly every (delta · rate)-th pose.
            var start = 0
            for k in 1..<n where measure(start, k) >= delta - 1e-9 {
                result.append((start, k))
                start = k
            }
            return result
        }
        var ids = [0]
        var accumulated = 0.0
        for k in 1..<n {
            accumulated += increment(k)
            if accumulated >= delta {
                ids.append(k)
                accumulated = 0
            }
        }
        return Array(zip(ids, ids.dropFirst()))
    }

    /// Seconds from `a` to `b`, exact from nanoseconds when both have them.
    static func elapsed(_ a: TrajectoryPose, _ b: TrajectoryPose) -> Double {
        if let na = a.timeNs, let nb = b.timeNs { return Double(nb - na) / 1e9 }
        return b.time - a.time
    }
}

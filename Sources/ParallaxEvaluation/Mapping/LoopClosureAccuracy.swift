import ParallaxMapping
import ParallaxMath

/// ATE (posyaw alignment, RMSE) of a mapped run three ways: the tracker's odometry alone, the
/// live estimate the session reported frame by frame (relocalization and loop corrections as they
/// happened), and the keyframes after the last pose-graph optimisation (what the map ends with).
public struct LoopClosureAccuracy: Sendable {
    /// Odometry-only ATE over frames with normal tracking (m); nil for a run with more than one
    /// tracking segment, whose odometry frames differ.
    public var odometry: Double?
    /// Live mapped ATE over the same frames (m).
    public var live: Double
    /// Keyframe ATE of the tracker's odometry alone at the keyframes (m); nil with several segments.
    public var keyframesOdometry: Double?
    /// Keyframe ATE after the final optimisation (m).
    public var keyframesOptimized: Double?
    /// Frames and keyframes used.
    public var frames: Int, keyframes: Int

    /// Measures `samples` of a run whose mapper is `mapper`; nil with fewer than 3 usable frames.
    public init?(samples: [MappedReplay.Sample], mapper: WorldMapper) throws {
        let good = samples.filter { $0.state == .normal && $0.position_world != nil && $0.truth_world != nil }
        guard good.count >= 3 else { return nil }
        let truth = good.compactMap(\.truth_world)
        live = try Self.rmse(good.compactMap(\.position_world), truth)
        // A tracker reset (a pose, then none) starts a new odometry frame.
        let resets = zip(samples, samples.dropFirst()).filter { $0.0.odometry_world != nil && $0.1.odometry_world == nil }.count
        odometry = resets == 0 ? try Self.rmse(good.compactMap(\.odometry_world), truth) : nil
        frames = good.count
        let byID = Dictionary(mapper.database.keyframes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var made: [Vector3] = [], optimized: [Vector3] = [], reference: [Vector3] = []
        for s in samples {
            guard let k = s.keyframe, let kf = byID[k.id], let t = s.truth_world, let p = s.odometry_world else { continue }
            made.append(p)
            optimized.append((kf.T_world_camera * k.T_camera_body).translation)
            reference.append(t)
        }
        keyframes = made.count
        keyframesOdometry = made.count >= 3 && resets == 0 ? try Self.rmse(made, reference) : nil
        keyframesOptimized = made.count >= 3 ? try Self.rmse(optimized, reference) : nil
    }

    static func rmse(_ estimate: [Vector3], _ reference: [Vector3]) throws -> Double {
        let alignment = try TrajectoryAlignment.estimate(.posyaw, estimate: estimate, reference: reference)
        let sum = zip(estimate, reference).reduce(0.0) { $0 + (alignment.apply($1.0) - $1.1).squaredNorm }
        return (sum / Double(estimate.count)).squareRoot()
    }
}

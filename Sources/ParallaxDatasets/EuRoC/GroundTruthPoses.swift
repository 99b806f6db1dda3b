import ParallaxMath

/// Ground-truth body poses, interpolated (linear position, slerp orientation) at any time.
public struct GroundTruthPoses: Sendable {
    private let states: [GroundTruthState]

    /// Reads the source's ground truth; nil when it has none.
    public init?(dataset: any SensorSource) throws {
        try self.init(states: dataset.groundTruth())
    }

    /// Wraps time-ordered states; nil when there are none.
    public init?(states: [GroundTruthState]) {
        guard !states.isEmpty else { return nil }
        self.states = states
    }

    /// `T_world_body` at `timestampNs`: linear in position and spherical in orientation between
    /// the two states around it.
    ///
    /// By default nil outside the ground truth's span. With `holdingEndsFor`, a time at or beyond an
    /// end (by at most that many nanoseconds) answers that end's stored pose instead of nil: the AR
    /// session's ground-truth pose source uses 50 ms so the first and last camera frames, which may
    /// lie just outside the motion-capture recording, still get a pose. It holds, not extrapolates:
    /// a held pose is off by the motion over the gap, so evaluation code keeps the default.
    public func T_world_body(at timestampNs: Int64, holdingEndsFor hold: Int64? = nil) -> RigidTransform? {
        guard let first = states.first, let last = states.last else { return nil }
        if let hold {
            if timestampNs <= first.timestampNs {
                return first.timestampNs - timestampNs <= hold ? first.T_world_body : nil
            }
            if timestampNs >= last.timestampNs {
                return timestampNs - last.timestampNs <= hold ? last.T_world_body : nil
            }
        }
        guard let (a, b, t) = bracket(timestampNs) else { return nil }
        let q = a.orientation.normalized.slerp(to: b.orientation.normalized, t: t)
        return RigidTransform(rotation: q, translation: a.position + (b.position - a.position) * t)
    }

    /// The accelerometer bias (m/s², IMU axes) at `timestampNs`, linear between the two states
    /// around it; nil outside the ground truth's span. Simulated sets carry the true bias; real
    /// recordings carry their motion-capture pipeline's estimate.
    public func accelerometerBias(at timestampNs: Int64) -> Vector3? {
        guard let (a, b, t) = bracket(timestampNs) else { return nil }
        return a.accelerometerBias + (b.accelerometerBias - a.accelerometerBias) * t
    }

    /// The two states around `timestampNs` and the fraction of the way from the first to the
    /// second (binary search); nil outside the span.
    private func bracket(_ timestampNs: Int64) -> (GroundTruthState, GroundTruthState, Double)? {
        guard let first = states.first, let last = states.last,
              timestampNs >= first.timestampNs, timestampNs <= last.timestampNs else { return nil }
        var lo = 0, hi = states.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if states[mid].timestampNs <= timestampNs { lo = mid } else { hi = mid }
        }
        let a = states[lo], b = states[hi]
        let span = Double(b.timestampNs - a.timestampNs)
        return (a, b, span > 0 ? Double(timestampNs - a.timestampNs) / span : 0)
    }
}

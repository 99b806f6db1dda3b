import ParallaxMath

/// Ground-truth body poses, interpolated (linear position, slerp orientation) at any time.
public struct GroundTruthPoses: Sendable {
    private let states: [GroundTruthState]

    /// Reads the dataset's ground truth; nil when it has none.
    public init?(dataset: EuRoCDataset) throws {
        try self.init(states: dataset.groundTruth())
    }

    /// Wraps time-ordered states; nil when there are none.
    public init?(states: [GroundTruthState]) {
        guard !states.isEmpty else { return nil }
        self.states = states
    }

    /// `T_world_body` at `timestampNs`, nil outside the ground truth's span.
    public func T_world_body(at timestampNs: Int64) -> RigidTransform? {
        guard let first = states.first, let last = states.last,
              timestampNs >= first.timestampNs, timestampNs <= last.timestampNs else { return nil }
        var lo = 0, hi = states.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if states[mid].timestampNs <= timestampNs { lo = mid } else { hi = mid }
        }
        let a = states[lo], b = states[hi]
        let span = Double(b.timestampNs - a.timestampNs)
        let t = span > 0 ? Double(timestampNs - a.timestampNs) / span : 0
        let q = a.orientation.normalized.slerp(to: b.orientation.normalized, t: t)
        return RigidTransform(rotation: q, translation: a.position + (b.position - a.position) * t)
    }
}

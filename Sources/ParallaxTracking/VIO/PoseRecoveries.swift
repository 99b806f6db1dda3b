import Foundation

/// How often a run lost its pose after having one, and how long each time it took to get a pose
/// back: a divergence reset (reported `limited(relocalizing)`) or a long IMU gap leaves frames
/// without a pose until the filter starts again. Issue 12 asks for a start while moving within
/// about a second after any reset; `parallax replay` prints these figures.
public struct PoseRecoveries: Sendable, Equatable {
    /// Seconds from the first frame without a pose to the next frame with one, per recovery.
    public private(set) var durations: [Double] = []
    /// Time of the first frame of a loss still going on at the last frame; nil when none.
    public private(set) var lostSince: Double?
    private var hadPose = false

    /// An empty record.
    public init() {}

    /// Adds one frame at `timestamp` (seconds), which has a pose or not.
    public mutating func add(timestamp: Double, hasPose: Bool) {
        if hasPose {
            if let since = lostSince { durations.append(timestamp - since) }
            lostSince = nil
            hadPose = true
        } else if hadPose, lostSince == nil {
            lostSince = timestamp
        }
    }

    /// Losses of the pose after the first one, recovered or not.
    public var losses: Int { durations.count + (lostSince == nil ? 0 : 1) }

    /// One report line: the count, and the recoveries' median and longest duration.
    public var report: String {
        guard losses > 0 else { return "pose lost after the start: never" }
        var line = "pose lost after the start: \(losses) time\(losses == 1 ? "" : "s")"
        if let longest = durations.max() {
            line += String(format: ", back after %.2f s (median), %.2f s (longest)", upperMedian(durations), longest)
        }
        if lostSince != nil { line += ", the last loss not recovered by the end" }
        return line
    }
}

import Foundation

/// The share of frames reported `normal` once the first second of a run is over: issue 12's
/// figure (≥ 95 % `normal` after the first second), which leaves the start itself out.
/// `parallax replay` prints it beside the share over all frames.
public struct NormalAfterFirstSecond: Sendable, Equatable {
    /// Frames more than one second after the first frame.
    public private(set) var frames = 0
    /// Those of them reported `normal`.
    public private(set) var normalFrames = 0

    /// An empty record.
    public init() {}

    /// Adds one frame, `secondsSinceFirstFrame` after the run's first, `normal` or not.
    public mutating func add(secondsSinceFirstFrame: Double, normal: Bool) {
        guard secondsSinceFirstFrame > 1 else { return }
        frames += 1
        if normal { normalFrames += 1 }
    }

    /// Fraction of the counted frames that were `normal` (0 when none was counted).
    public var fraction: Double { frames > 0 ? Double(normalFrames) / Double(frames) : 0 }
}

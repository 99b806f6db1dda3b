/// How a ``LiveSource`` buffers what user code appends, and what it does with samples that come
/// late, twice, out of order, or faster than the tracker takes them.
///
/// **Order.** Each appended sample is held for ``reorderWindowNs`` (measured on the samples'
/// own clock: the newest timestamp appended so far) before it is released to the consumer, so
/// samples of different sensors (IMU, cam0, cam1) that arrive out of order within the window are
/// delivered sorted — by time, and at equal times IMU first, then the frame (the
/// ``SensorSource`` contract). A cam0 and a cam1 image with the same timestamp become one stereo
/// ``FrameEvent`` if both arrive before it is released.
///
/// **Late samples** — older than, or as old as, an event already released — cannot be delivered
/// in order and are dropped (``LiveSource/AppendOutcome/droppedLate``).
/// **Duplicates** — a second sample of the same sensor with the same timestamp — are dropped; the
/// first one counts (``LiveSource/AppendOutcome/droppedDuplicate``).
/// **Out-of-order samples** within the window are sorted and counted in
/// ``LiveSourceStatistics/reordered``.
///
/// **Full queue.** At most ``capacity`` events wait (held or released). Then ``overflow`` decides.
public struct LiveSourcePolicy: Sendable, Equatable {
    /// What `append` does when ``capacity`` events are already waiting.
    public enum Overflow: Sendable, Equatable {
        /// Back-pressure: `append` waits until the consumer has taken an event. Nothing is lost;
        /// the sensor thread slows down to the tracker's pace. Held events are released early
        /// (before their window ends) when that is the only way to make room.
        case block
        /// Drop the oldest waiting camera frame (IMU samples are small and the tracker needs all
        /// of them); when no frame waits, the oldest event. `append` never waits.
        case dropOldestFrame
    }

    /// The most events waiting at once (at least 2).
    public var capacity: Int
    /// What a full queue does.
    public var overflow: Overflow
    /// How long (ns, on the sample clock) a sample is held so later-arriving older samples of
    /// other sensors can be sorted before it. 0 delivers at once (then any sample older than the
    /// newest delivered one is late).
    public var reorderWindowNs: Int64

    /// Creates a policy: by default 1024 events, back-pressure, a 20 ms reorder window.
    public init(capacity: Int = 1024, overflow: Overflow = .block, reorderWindowNs: Int64 = 20_000_000) {
        self.capacity = max(2, capacity)
        self.overflow = overflow
        self.reorderWindowNs = max(0, reorderWindowNs)
    }
}

/// What a ``LiveSource`` did with the samples appended so far.
public struct LiveSourceStatistics: Sendable, Equatable {
    /// Samples accepted (a stereo partner filling a waiting frame counts as one sample).
    public var accepted = 0
    /// Samples dropped as late (older than an event already delivered).
    public var late = 0
    /// Samples dropped as duplicates.
    public var duplicates = 0
    /// Samples accepted although older than an earlier sample of the same sensor (sorted in the window).
    public var reordered = 0
    /// Events dropped to make room (``LiveSourcePolicy/Overflow/dropOldestFrame``).
    public var droppedForSpace = 0
    /// Frames delivered with one camera of a stereo rig missing.
    public var unpairedFrames = 0
    /// Times `append` waited for room (``LiveSourcePolicy/Overflow/block``).
    public var waits = 0

    /// Creates empty statistics.
    public init() {}
}

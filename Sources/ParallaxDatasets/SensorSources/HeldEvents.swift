/// An event's place in the ``SensorSource`` order: time, then IMU before frame before ground truth.
public struct EventKey: Comparable, Sendable {
    /// The event's time.
    public var timestampNs: Int64
    /// 0 for IMU, 1 for a frame, 2 for ground truth.
    public var rank: Int

    /// The key of `e`.
    public init(_ e: ReplayEvent) {
        timestampNs = e.timestampNs
        switch e {
        case .imu: rank = 0
        case .frame: rank = 1
        case .groundTruth: rank = 2
        }
    }

    /// Earlier time first; at equal times, lower rank first.
    public static func < (a: EventKey, b: EventKey) -> Bool {
        (a.timestampNs, a.rank) < (b.timestampNs, b.rank)
    }
}

/// The events a source holds back for its reorder window (``LiveSource``, recordings), kept
/// sorted by ``EventKey``. A camera image joins a waiting frame of the other camera at the same
/// timestamp (stereo pairing).
public struct HeldEvents: Sendable {
    /// Stream numbers for duplicate and order bookkeeping.
    static let imuStream = 0
    static func cameraStream(_ index: Int) -> Int { 1 + index }

    private var items: [ReplayEvent] = []

    /// An empty buffer.
    public init() {}

    /// The number of events held.
    public var count: Int { items.count }
    /// The key of the oldest held event.
    public var first: EventKey? { items.first.map(EventKey.init) }

    /// Removes and returns the oldest held event.
    public mutating func popFirst() -> ReplayEvent? { items.isEmpty ? nil : items.removeFirst() }

    /// True when `stream` already has a held sample at `timestampNs`.
    func contains(stream: Int, at timestampNs: Int64) -> Bool {
        var i = lowerBound(EventKey(timestampNs: timestampNs, rank: 0))
        while i < items.count, items[i].timestampNs == timestampNs {
            switch items[i] {
            case .imu: if stream == Self.imuStream { return true }
            case .frame(let f):
                if stream == Self.cameraStream(0), f.cam0 != nil { return true }
                if stream == Self.cameraStream(1), f.cam1 != nil { return true }
            case .groundTruth: break
            }
            i += 1
        }
        return false
    }

    /// Inserts in order; a frame with the same timestamp as a held frame fills its empty camera.
    public mutating func insert(_ event: ReplayEvent) {
        let key = EventKey(event)
        let i = lowerBound(key)
        if case .frame(let new) = event, i < items.count, case .frame(var old) = items[i], old.timestampNs == new.timestampNs {
            old.cam0 = old.cam0 ?? new.cam0
            old.cam1 = old.cam1 ?? new.cam1
            items[i] = .frame(old)
            return
        }
        items.insert(event, at: i)
    }

    /// Removes the oldest held frame; false when none is held.
    mutating func removeOldestFrame() -> Bool {
        guard let i = items.firstIndex(where: { if case .frame = $0 { true } else { false } }) else { return false }
        items.remove(at: i)
        return true
    }

    /// The first index whose key is not less than `key`.
    private func lowerBound(_ key: EventKey) -> Int {
        var lo = 0, hi = items.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if EventKey(items[mid]) < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

extension EventKey {
    init(timestampNs: Int64, rank: Int) { self.timestampNs = timestampNs; self.rank = rank }
}

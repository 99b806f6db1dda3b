import Foundation
import ParallaxImaging

/// A sensor source fed by user code: a loop (or sensor callbacks on any threads) appends IMU
/// samples and images as they arrive; the tracker or AR session on another thread takes them
/// through ``makeEvents(from:to:includeGroundTruth:)`` in the order the ``SensorSource``
/// contract promises.
///
/// The buffer is bounded and its behaviour for late, duplicated and out-of-order samples, and for
/// a full queue (back-pressure or dropping), is the ``LiveSourcePolicy`` given at creation. Call
/// ``finish()`` when no more data will come: the consumer then receives what is held and the end.
///
/// A live source has one pass: a second `makeEvents` throws. It has no ground truth.
public final class LiveSource: SensorSource, @unchecked Sendable {
    // @unchecked Sendable: every mutable field below is read and written only with `condition` held.

    /// What `append` did with a sample.
    public enum AppendOutcome: Sendable, Equatable {
        /// Queued (possibly sorted before samples that arrived earlier).
        case accepted
        /// Older than, or as old as, an event already delivered: dropped.
        case droppedLate
        /// Same sensor and timestamp as a sample already accepted: dropped.
        case droppedDuplicate
    }

    /// Errors of the live source's own API (bad samples from user code).
    public struct Failure: Error, CustomStringConvertible, Equatable, Sendable {
        /// What was wrong.
        public var description: String
    }

    /// `live`, or the name given at creation.
    public let origin: String
    /// The cameras (cam0, then cam1 for stereo).
    public let cameras: [CameraCalibration]
    /// The IMU.
    public let imu: IMUCalibration
    /// The buffering policy.
    public let policy: LiveSourcePolicy
    /// A live source carries no ground truth.
    public var hasGroundTruth: Bool { false }
    /// nil: no ground truth.
    public var groundTruthOrigin: String? { nil }

    private let condition = NSCondition()
    private var held = HeldEvents()
    private var ready: [ReplayEvent] = []
    private var readyHead = 0
    private var lastReleased: EventKey?
    private var lastReleasedPerStream: [Int: Int64] = [:]
    private var newestPerStream: [Int: Int64] = [:]
    private var newestSeen: Int64 = .min
    private var firstTimestamp: Int64?
    private var finished = false
    private var started = false
    private var stats = LiveSourceStatistics()

    /// A source for the given sensors; `origin` names it in messages.
    /// - Throws: ``Failure`` without a camera or with more than two.
    public init(cameras: [CameraCalibration], imu: IMUCalibration, policy: LiveSourcePolicy = .init(),
                origin: String = "live") throws {
        guard (1...2).contains(cameras.count) else {
            throw Failure(description: "\(origin): a live source needs one or two cameras, got \(cameras.count)")
        }
        self.cameras = cameras; self.imu = imu; self.policy = policy; self.origin = origin
    }

    /// What happened to the samples so far.
    public var statistics: LiveSourceStatistics { locked { stats } }

    /// The first accepted timestamp (the origin of `from`/`to`); nil before the first sample.
    public func startTimestampNs() throws -> Int64? { locked { firstTimestamp } }

    /// Empty: a live source has no ground truth.
    public func groundTruth() throws -> [GroundTruthState] { [] }

    // MARK: Appending (any thread)

    /// Appends an IMU sample.
    /// - Throws: ``Failure`` after ``finish()`` or when a value is not finite.
    @discardableResult
    public func append(imu sample: IMUSample) throws -> AppendOutcome {
        let v = [sample.angularVelocity.x, sample.angularVelocity.y, sample.angularVelocity.z,
                 sample.acceleration.x, sample.acceleration.y, sample.acceleration.z]
        guard v.allSatisfy(\.isFinite) else {
            throw Failure(description: "\(origin): IMU sample at \(sample.timestampNs) ns has a non-finite value")
        }
        return try insert(.imu(sample), stream: HeldEvents.imuStream)
    }

    /// Appends one camera's image.
    /// - Parameters:
    ///   - camera: 0 or 1.
    ///   - content: the pixels (``FrameContent/pixels(_:)``) or encoded bytes; not `.file`.
    /// - Throws: ``Failure`` after ``finish()``, for an unknown camera, or for pixels whose size
    ///   differs from the camera's calibration.
    @discardableResult
    public func append(camera: Int, timestampNs: Int64, content: FrameContent) throws -> AppendOutcome {
        guard cameras.indices.contains(camera) else {
            throw Failure(description: "\(origin): no camera \(camera) (the source has \(cameras.count))")
        }
        let c = cameras[camera]
        if case .pixels(let p) = content, p.width != c.width || p.height != c.height {
            throw Failure(description: "\(origin): \(c.name) image at \(timestampNs) ns is \(p.width)x\(p.height), calibration says \(c.width)x\(c.height)")
        }
        let frame = CameraFrame(camera: c.name, timestampNs: timestampNs, content: content,
                                label: "\(origin) \(c.name) @ \(timestampNs) ns",
                                expectedWidth: c.width, expectedHeight: c.height)
        let event = FrameEvent(timestampNs: timestampNs, cam0: camera == 0 ? frame : nil, cam1: camera == 1 ? frame : nil)
        return try insert(.frame(event), stream: HeldEvents.cameraStream(camera))
    }

    /// Appends an 8-bit grey image of `camera`.
    @discardableResult
    public func append(camera: Int, timestampNs: Int64, image: GrayImage) throws -> AppendOutcome {
        try append(camera: camera, timestampNs: timestampNs, content: .pixels(.gray8(image)))
    }

    /// No more data: the consumer receives everything held, then the end. Appending afterwards throws.
    public func finish() {
        locked {
            finished = true
            releaseHeld(upTo: .max)
            condition.broadcast()
        }
    }

    // MARK: Consuming (one thread)

    /// The single pass over the source; a second call throws ``Failure``.
    public func makeEvents(from: Double?, to: Double?, includeGroundTruth: Bool) throws -> any SensorEventIterator {
        try locked {
            guard !started else { throw Failure(description: "\(origin): a live source can be read only once") }
            started = true
        }
        return LiveEventIterator(source: self, from: from, to: to)
    }

    /// Waits for the next released event; nil once finished and drained.
    func take() -> (event: ReplayEvent?, unpaired: Int) {
        locked {
            while readyHead == ready.count && !finished { condition.wait() }
            guard readyHead < ready.count else { return (nil, stats.unpairedFrames) }
            let e = ready[readyHead]
            readyHead += 1
            if readyHead > 256, readyHead * 2 > ready.count { ready.removeFirst(readyHead); readyHead = 0 }
            condition.broadcast()
            return (e, stats.unpairedFrames)
        }
    }

    // MARK: Policy (lock held)

    private func insert(_ event: ReplayEvent, stream: Int) throws -> AppendOutcome {
        try locked {
            guard !finished else { throw Failure(description: "\(origin): append after finish()") }
            let key = EventKey(event)
            if lastReleasedPerStream[stream] == key.timestampNs || held.contains(stream: stream, at: key.timestampNs) {
                stats.duplicates += 1
                return .droppedDuplicate
            }
            if let last = lastReleased, key <= last {
                stats.late += 1
                return .droppedLate
            }
            try makeRoom(for: key)
            // The wait may have released events past this one.
            if let last = lastReleased, key <= last {
                stats.late += 1
                return .droppedLate
            }
            if let newest = newestPerStream[stream], key.timestampNs < newest { stats.reordered += 1 }
            newestPerStream[stream] = max(newestPerStream[stream] ?? .min, key.timestampNs)
            held.insert(event)
            stats.accepted += 1
            firstTimestamp = min(firstTimestamp ?? key.timestampNs, key.timestampNs)
            newestSeen = max(newestSeen, key.timestampNs)
            let (limit, overflow) = newestSeen.subtractingReportingOverflow(policy.reorderWindowNs)
            releaseHeld(upTo: overflow ? .min : limit)
            return .accepted
        }
    }

    private var waiting: Int { held.count + ready.count - readyHead }

    private func makeRoom(for key: EventKey) throws {
        switch policy.overflow {
        case .block:
            while waiting >= policy.capacity && !finished {
                // Nothing for the consumer to take: release the oldest held event early.
                if readyHead == ready.count, let e = held.popFirst() { release(e); continue }
                stats.waits += 1
                condition.wait()
            }
            if finished { throw Failure(description: "\(origin): append after finish()") }
        case .dropOldestFrame:
            while waiting >= policy.capacity {
                if let i = ready[readyHead...].firstIndex(where: { if case .frame = $0 { true } else { false } }) {
                    ready.remove(at: i)
                } else if held.removeOldestFrame() {
                } else if readyHead < ready.count {
                    readyHead += 1
                } else {
                    _ = held.popFirst()
                }
                stats.droppedForSpace += 1
            }
        }
    }

    private func releaseHeld(upTo limit: Int64) {
        while let first = held.first, first.timestampNs <= limit, let e = held.popFirst() { release(e) }
    }

    private func release(_ e: ReplayEvent) {
        let key = EventKey(e)
        lastReleased = key
        switch e {
        case .imu: lastReleasedPerStream[HeldEvents.imuStream] = key.timestampNs
        case .frame(let f):
            if f.cam0 != nil { lastReleasedPerStream[HeldEvents.cameraStream(0)] = key.timestampNs }
            if f.cam1 != nil { lastReleasedPerStream[HeldEvents.cameraStream(1)] = key.timestampNs }
            if cameras.count == 2, !f.isStereoPair { stats.unpairedFrames += 1 }
        case .groundTruth: break
        }
        ready.append(e)
        condition.broadcast()
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock(); defer { condition.unlock() }
        return try body()
    }
}

/// The consumer's view of a ``LiveSource``: blocks until an event is released, applies the time window.
final class LiveEventIterator: SensorEventIterator {
    private let source: LiveSource
    private let from: Double?, to: Double?
    private(set) var unpairedFrames = 0
    var diagnostics: ReadDiagnostics { ReadDiagnostics() }
    private var done = false

    init(source: LiveSource, from: Double?, to: Double?) { self.source = source; self.from = from; self.to = to }

    func next() throws -> ReplayEvent? {
        while !done {
            let (event, unpaired) = source.take()
            unpairedFrames = unpaired
            guard let event else { done = true; break }
            // The origin is known once a sample has been accepted, which precedes any event.
            let origin = (try? source.startTimestampNs()).flatMap { $0 } ?? event.timestampNs
            func offset(_ s: Double) -> Int64 { origin &+ Int64((s * 1e9).rounded()) }
            if let from, event.timestampNs < offset(from) { continue }
            if let to, event.timestampNs > offset(to) { done = true; break }
            return event
        }
        return nil
    }
}

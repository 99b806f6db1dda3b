import Foundation

/// Reads and decodes a source ahead of its consumer: a producer thread pulls events from the
/// wrapped iterator, decodes each frame's images to 8-bit grey (``CameraFrame/decodedToGray8()``)
/// and hands the events over through a bounded queue, so CSV parsing and PNG or JPEG decoding run
/// on a second core while the tracker works on the previous frame.
///
/// - **Same events, same order**: the consumer sees exactly the wrapped iterator's events, frames
///   with ``FrameContent/pixels(_:)`` instead of a file or bytes; the decoded pixels are the ones
///   ``CameraFrame/loadGray8()`` would give, so tracking output is byte-identical.
/// - **Bounded memory**: at most `maxFrames` decoded frames and `maxEvents` events wait in the
///   queue; the producer blocks while it is full.
/// - **Errors** (a bad row, an undecodable image) are delivered in order: ``next()`` throws at the
///   position the wrapped iterator or the decoder failed, after every event before it.
/// - **Ending early**: dropping the iterator stops the producer at its next event. A producer
///   blocked inside the wrapped iterator (a ``LiveSource`` waiting for data) ends when that
///   iterator returns.
public final class DecodeAheadIterator: SensorEventIterator {
    private let queue: HandoffQueue
    /// Images delivered without their stereo partner so far (the wrapped iterator's count).
    public private(set) var unpairedFrames = 0
    /// Rows skipped so far by the wrapped iterator.
    public private(set) var diagnostics = ReadDiagnostics()
    /// Thread CPU milliseconds the producer spent decoding the last frame returned by ``next()``.
    public private(set) var lastFrameDecodeMilliseconds: Double?
    /// The end or the error, once reached: later calls repeat it instead of waiting forever.
    private var finished: HandoffItem.Payload?

    /// Starts the producer thread over `base`.
    /// - Parameters:
    ///   - cameras: the camera indices to decode (0 and 1); images of other cameras stay as they
    ///     are and are never read (a mono tracker on a stereo source passes `[0]`).
    ///   - maxFrames: decoded frames allowed to wait in the queue (at least 1).
    ///   - maxEvents: events of any kind allowed to wait in the queue (at least `maxFrames`).
    public init(_ base: any SensorEventIterator, cameras: Set<Int> = [0, 1], maxFrames: Int = 4, maxEvents: Int = 512) {
        let frames = max(1, maxFrames)
        queue = HandoffQueue(maxFrames: frames, maxEvents: max(frames, maxEvents))
        let producer = Producer(base: base, cameras: cameras, queue: queue)
        let thread = Thread { producer.run() }
        thread.name = "parallax.decode-ahead"
        thread.start()
    }

    deinit { queue.cancel() }

    /// The next event (frames decoded), or nil at the end.
    public func next() throws -> ReplayEvent? {
        if let finished {
            if case .failure(let error) = finished { throw error }
            return nil
        }
        let item = queue.take()
        unpairedFrames = item.unpairedFrames
        diagnostics = item.diagnostics
        switch item.payload {
        case .event(let e):
            if case .frame = e { lastFrameDecodeMilliseconds = item.decodeMilliseconds }
            return e
        case .end:
            finished = .end
            return nil
        case .failure(let error):
            finished = .failure(error)
            throw error
        }
    }
}

/// The producer's side: owns the wrapped iterator from the moment the thread starts.
/// `@unchecked Sendable`: the iterator is handed to the producer thread once and used only there.
private final class Producer: @unchecked Sendable {
    let base: any SensorEventIterator
    let cameras: Set<Int>
    let queue: HandoffQueue

    init(base: any SensorEventIterator, cameras: Set<Int>, queue: HandoffQueue) {
        self.base = base; self.cameras = cameras; self.queue = queue
    }

    func run() {
        while true {
            var item = HandoffItem(payload: .end)
            do {
                if let event = try base.next() {
                    var decoded = event
                    if case .frame(var f) = event {
                        let start = ThreadClock.milliseconds()
                        if cameras.contains(0), let c = f.cam0 { f.cam0 = try c.decodedToGray8() }
                        if cameras.contains(1), let c = f.cam1 { f.cam1 = try c.decodedToGray8() }
                        item.decodeMilliseconds = ThreadClock.milliseconds() - start
                        decoded = .frame(f)
                    }
                    item.payload = .event(decoded)
                }
            } catch {
                item.payload = .failure(error)
            }
            item.unpairedFrames = base.unpairedFrames
            item.diagnostics = base.diagnostics
            let last: Bool
            switch item.payload {
            case .event: last = false
            case .end, .failure: last = true
            }
            guard queue.put(item), !last else { return }
        }
    }
}

/// One queued item: an event, the end, or an error, with the wrapped iterator's counters then.
private struct HandoffItem {
    enum Payload { case event(ReplayEvent), end, failure(any Error) }
    var payload: Payload
    var unpairedFrames = 0
    var diagnostics = ReadDiagnostics()
    var decodeMilliseconds: Double?

    var isFrame: Bool {
        if case .event(.frame) = payload { return true }
        return false
    }
}

/// A bounded single-producer, single-consumer queue on a condition variable.
/// `@unchecked Sendable`: every access to the stored state holds `condition`'s lock.
private final class HandoffQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [HandoffItem] = []
    private var head = 0
    private var framesQueued = 0
    private var cancelled = false
    let maxFrames: Int, maxEvents: Int

    init(maxFrames: Int, maxEvents: Int) { self.maxFrames = maxFrames; self.maxEvents = maxEvents }

    /// Waits for room and appends; false when the consumer has gone (the producer then stops).
    func put(_ item: HandoffItem) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while !cancelled && (count >= maxEvents || (item.isFrame && framesQueued >= maxFrames)) { condition.wait() }
        if cancelled { return false }
        items.append(item)
        if item.isFrame { framesQueued += 1 }
        condition.broadcast()
        return true
    }

    /// Waits for an item and removes it.
    func take() -> HandoffItem {
        condition.lock(); defer { condition.unlock() }
        while count == 0 { condition.wait() }
        let item = items[head]
        head += 1
        if head > 256, head * 2 > items.count { items.removeFirst(head); head = 0 }
        if item.isFrame { framesQueued -= 1 }
        condition.broadcast()
        return item
    }

    /// Called when the consumer goes away: wakes a waiting producer and refuses further items.
    func cancel() {
        condition.lock(); defer { condition.unlock() }
        cancelled = true
        items = []; head = 0
        condition.broadcast()
    }

    private var count: Int { items.count - head }
}

extension SensorSource {
    /// ``makeEvents(from:to:includeGroundTruth:)`` read and decoded ahead on a second thread
    /// (``DecodeAheadIterator``); `cameras` are the camera indices whose images are decoded.
    public func makeDecodedEvents(from: Double?, to: Double?, includeGroundTruth: Bool,
                                  cameras: Set<Int>) throws -> DecodeAheadIterator {
        DecodeAheadIterator(try makeEvents(from: from, to: to, includeGroundTruth: includeGroundTruth), cameras: cameras)
    }
}

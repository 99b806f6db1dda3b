import Foundation

/// A time-ordered replay of a dataset: IMU samples, camera frames (stereo pairs merged into
/// one event) and optionally ground truth, as a live sensor stack would deliver them.
///
/// The CSV files are read incrementally by one ``RecordStream`` each and merged on the fly
/// (a k-way merge of already sorted streams), and images are only referenced, so memory stays
/// flat however long the recording is.
///
/// **Order at equal timestamps**: IMU first, then the frame, then ground truth — an estimator
/// then has all inertial data up to and including the image time when the image arrives.
///
/// **Stereo pairing**: a cam0 and a cam1 row with the same timestamp make one ``FrameEvent``.
/// A frame without a partner (dropped on one side) is delivered alone, with the other camera
/// nil, and counted in ``Iterator/unpairedFrames``.
///
/// **Time window**: `from`/`to` are seconds relative to the dataset's first camera or IMU
/// timestamp (``EuRoCDataset/startTimestampNs()``); both ends are inclusive.
///
/// Iteration can fail (bad rows, missing images), so the iterator's `next()` throws; use
/// ``forEach(_:)`` or a `while let e = try it.next()` loop.
public struct DatasetReplay: Sendable {
    /// The dataset replayed.
    public let dataset: EuRoCDataset
    /// Start of the window in seconds after the dataset start (nil: from the beginning).
    public let from: Double?
    /// End of the window in seconds after the dataset start (nil: to the end).
    public let to: Double?
    /// Whether ground-truth states are interleaved.
    public let includeGroundTruth: Bool

    /// Creates a replay description; nothing is read until ``makeIterator()``.
    public init(dataset: EuRoCDataset, from: Double? = nil, to: Double? = nil, includeGroundTruth: Bool = false) {
        self.dataset = dataset
        self.from = from
        self.to = to
        self.includeGroundTruth = includeGroundTruth
    }

    /// Opens the files and returns an iterator positioned at the start of the window.
    public func makeIterator() throws -> Iterator { try Iterator(self) }

    /// Calls `body` for each event in order.
    public func forEach(_ body: (ReplayEvent) throws -> Void) throws {
        let it = try makeIterator()
        while let e = try it.next() { try body(e) }
    }

    /// The stateful merge over the dataset's streams.
    public final class Iterator {
        private let imu: RecordStream<IMUSample>
        private let cam0: RecordStream<CameraFrame>
        private let cam1: RecordStream<CameraFrame>?
        private let groundTruth: RecordStream<GroundTruthState>?
        private var pendingFrame: FrameEvent?? = nil
        private let startNs: Int64
        private let endNs: Int64
        /// Frames delivered without their stereo partner so far.
        public private(set) var unpairedFrames = 0
        /// Events delivered so far.
        public private(set) var eventCount = 0

        init(_ replay: DatasetReplay) throws {
            let d = replay.dataset
            imu = try d.imuStream()
            cam0 = try d.cameraStream(0)
            cam1 = d.isStereo ? try d.cameraStream(1) : nil
            groundTruth = replay.includeGroundTruth ? try d.groundTruthStream() : nil
            let origin = try d.startTimestampNs() ?? 0
            func offset(_ s: Double) -> Int64 { origin &+ Int64((s * 1e9).rounded()) }
            startNs = replay.from.map(offset) ?? .min
            endNs = replay.to.map(offset) ?? .max
        }

        /// Skipped rows of all streams (only under ``ReadPolicy/lenient``).
        public var diagnostics: ReadDiagnostics {
            var d = imu.diagnostics
            d.merge(cam0.diagnostics)
            if let cam1 { d.merge(cam1.diagnostics) }
            if let groundTruth { d.merge(groundTruth.diagnostics) }
            return d
        }

        /// The next event in time order, or nil after the window's end.
        public func next() throws -> ReplayEvent? {
            while true {
                guard let event = try nextMerged() else { return nil }
                if event.timestampNs < startNs { continue }
                if event.timestampNs > endNs { return nil }
                eventCount += 1
                return event
            }
        }

        private func peekFrame() throws -> FrameEvent? {
            if let p = pendingFrame { return p }
            let a = try cam0.peek(), b = try cam1?.peek()
            var event: FrameEvent?
            if let a, let b, a.timestampNs == b.timestampNs {
                _ = try cam0.next(); _ = try cam1?.next()
                event = FrameEvent(timestampNs: a.timestampNs, cam0: a, cam1: b)
            } else if let a, b.map({ a.timestampNs < $0.timestampNs }) ?? true {
                _ = try cam0.next()
                if cam1 != nil { unpairedFrames += 1 }
                event = FrameEvent(timestampNs: a.timestampNs, cam0: a, cam1: nil)
            } else if let b {
                _ = try cam1?.next()
                unpairedFrames += 1
                event = FrameEvent(timestampNs: b.timestampNs, cam0: nil, cam1: b)
            } else {
                event = nil
            }
            pendingFrame = .some(event)
            return event
        }

        private func nextMerged() throws -> ReplayEvent? {
            let i = try imu.peek()
            let f = try peekFrame()
            let g = try groundTruth?.peek()
            // Priority at equal time: IMU, frame, ground truth (see the type's documentation).
            var best: (t: Int64, rank: Int)? = nil
            func consider(_ t: Int64?, _ rank: Int) {
                guard let t else { return }
                if t < (best?.t ?? .max) || best == nil { best = (t, rank) }
            }
            consider(i?.timestampNs, 0)
            consider(f?.timestampNs, 1)
            consider(g?.timestampNs, 2)
            switch best?.rank {
            case 0?: return try imu.next().map(ReplayEvent.imu)
            case 1?:
                pendingFrame = nil
                return f.map(ReplayEvent.frame)
            case 2?: return try groundTruth?.next().map(ReplayEvent.groundTruth)
            default: return nil
            }
        }
    }
}

extension EuRoCDataset {
    /// A time-ordered replay of this dataset; see ``DatasetReplay``.
    public func replay(from: Double? = nil, to: Double? = nil, includeGroundTruth: Bool = false) -> DatasetReplay {
        DatasetReplay(dataset: self, from: from, to: to, includeGroundTruth: includeGroundTruth)
    }
}

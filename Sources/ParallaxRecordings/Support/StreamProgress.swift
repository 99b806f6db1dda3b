/// What both readers track while streaming: whether the stream ended, messages returned per
/// channel (so errors can name "message N of /topic"), and the damage policy's warnings.
/// A class because each reader holds one and updates it from its non-mutating `next()`.
final class StreamProgress {
    let damage: DamagePolicy
    private(set) var finished = false
    private(set) var warnings: [String] = []
    private var returned: [Int: Int] = [:]
    private var last: (channel: Int, index: Int)?

    init(damage: DamagePolicy) { self.damage = damage }

    /// Counts a message on `channel`.
    func count(_ channel: Int) {
        let index = returned[channel, default: 0]
        returned[channel] = index + 1
        last = (channel, index)
    }

    func warn(_ text: String) { warnings.append(text) }

    /// Runs one step of the stream: ends it on nil, and on damage either throws the error with
    /// the last good message named or, under ``DamagePolicy/stopWithWarning``, ends with a warning.
    func step(_ topic: (Int) -> String, _ body: () throws -> RecordedMessage?) throws -> RecordedMessage? {
        guard !finished else { return nil }
        do {
            if let m = try body() { return m }
            finished = true
            return nil
        } catch let e as RecordingError {
            finished = true
            let located = last.map { last in
                RecordingError(e.kind, file: e.file, topic: e.topic, messageIndex: e.messageIndex, offset: e.offset,
                               "\(e.message) (the last good message is message \(last.index) of \(topic(last.channel)))")
            } ?? e
            guard damage == .stopWithWarning else { throw located }
            warnings.append("stopped at damage: \(located)")
            return nil
        }
    }
}

/// A chunk being filled by a writer: its records, the offset of each message per channel (for
/// the index records that follow the chunk) and its time span.
struct ChunkBuilder {
    var records = ByteBuffer()
    private(set) var index: [Int: [(time: Int64, offset: Int)]] = [:]
    private(set) var start = Int64.max, end = Int64.min

    var isEmpty: Bool { index.isEmpty }

    /// Notes a message about to be appended at the current end of ``records``.
    mutating func noteMessage(channel: Int, time: Int64) {
        index[channel, default: []].append((time, records.count))
        start = min(start, time)
        end = max(end, time)
    }

    /// Channels in the chunk, ascending, with their entries.
    var channels: [(Int, [(time: Int64, offset: Int)])] { index.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    mutating func reset() { self = ChunkBuilder() }
}

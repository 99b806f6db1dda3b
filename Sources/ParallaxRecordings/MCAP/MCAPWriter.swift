import Foundation

/// Writes an MCAP file: chunked (uncompressed, lz4 or zstd, with message indexes) or unchunked,
/// closed by a summary (schemas, channels, statistics, chunk indexes), summary offsets and a
/// footer with CRCs. Output is deterministic: the same calls give the same bytes.
public final class MCAPWriter: RecordingWriter {
    public var format: RecordingFormat { .mcap }
    public let messageEncoding: MessageEncoding
    /// The chunk compression, or nil for an unchunked file.
    public let chunking: ChunkCompression?

    private let output: FileOutput
    private let chunkThreshold: Int
    private var dataCRC: UInt32 = 0
    private var schemaRecords: [[UInt8]] = []
    private var channelRecords: [[UInt8]] = []
    private var channelTopics: [String] = []
    private var pending: [[UInt8]] = []
    private var sequence: [UInt32] = []
    private var counts: [UInt64] = []
    private var chunk = ChunkBuilder()
    private var chunkIndexRecords: [[UInt8]] = []
    private var messageCount: UInt64 = 0
    private var firstTime = UInt64.max, lastTime = UInt64.min
    private var finished = false

    /// Creates the file at `url`. `encoding` picks the profile (`ros1` or `ros2`); `chunking` nil
    /// writes messages straight into the data section.
    public init(url: URL, encoding: MessageEncoding = .cdr, chunking: ChunkCompression? = .zstd,
                chunkSize: Int = 1 << 20) throws {
        if let chunking, chunking == .bz2 {
            throw RecordingError(.invalidArgument, file: url.path, "MCAP chunks use none, lz4 or zstd, not bz2")
        }
        messageEncoding = encoding
        self.chunking = chunking
        chunkThreshold = max(1, chunkSize)
        output = try FileOutput(url: url)
        try writeData(MCAPFormat.magic)
        var header = ByteBuffer()
        header.mcapString(encoding == .ros1 ? "ros1" : "ros2")
        header.mcapString("parallax")
        try writeRecord(.header, header.bytes)
    }

    private func writeData(_ bytes: [UInt8]) throws {
        dataCRC = CRC32.checksum(bytes, start: dataCRC)
        try output.write(bytes)
    }

    private func writeRecord(_ op: MCAPFormat.Op, _ content: [UInt8]) throws {
        var b = ByteBuffer()
        b.mcapRecord(op, content)
        try writeData(b.bytes)
    }

    public func addChannel(topic: String, type: String, definition: String, md5: String) throws -> Int {
        guard !finished else { throw RecordingError(.invalidArgument, file: output.path, "writer already finished") }
        guard channelRecords.count < Int(UInt16.max) else { throw RecordingError(.invalidArgument, file: output.path, "too many channels") }
        let id = channelRecords.count + 1
        var schema = ByteBuffer()
        schema.u16(UInt16(id))
        schema.mcapString(type)
        schema.mcapString(messageEncoding == .ros1 ? "ros1msg" : "ros2msg")
        let text = Array(definition.utf8)
        schema.u32(UInt32(text.count))
        schema.append(text)
        var channel = ByteBuffer()
        channel.u16(UInt16(id))
        channel.u16(UInt16(id))
        channel.mcapString(topic)
        channel.mcapString(messageEncoding.rawValue)
        channel.u32(0)  // no metadata
        var records = ByteBuffer()
        records.mcapRecord(.schema, schema.bytes)
        records.mcapRecord(.channel, channel.bytes)
        schemaRecords.append(schema.bytes)
        channelRecords.append(channel.bytes)
        channelTopics.append(topic)
        sequence.append(0)
        counts.append(0)
        pending.append(records.bytes)
        return id
    }

    public func write(channel: Int, logTimeNs: Int64, data: [UInt8]) throws {
        guard !finished else { throw RecordingError(.invalidArgument, file: output.path, "writer already finished") }
        guard channel >= 1, channel <= channelRecords.count else {
            throw RecordingError(.invalidArgument, file: output.path, "no channel \(channel)")
        }
        guard logTimeNs >= 0 else {
            throw RecordingError(.invalidArgument, file: output.path, topic: channelTopics[channel - 1], "negative log time \(logTimeNs)")
        }
        let i = channel - 1
        let time = UInt64(logTimeNs)
        var message = ByteBuffer()
        message.u16(UInt16(channel))
        message.u32(sequence[i])
        message.u64(time)
        message.u64(time)
        message.append(data)
        sequence[i] &+= 1
        counts[i] += 1
        messageCount += 1
        firstTime = min(firstTime, time)
        lastTime = max(lastTime, time)
        // A channel's schema and channel records precede its first message (inside the chunk,
        // so a file cut short still declares what its chunks use).
        let declaration = pending[i]
        pending[i] = []
        guard chunking != nil else {
            if !declaration.isEmpty { try writeData(declaration) }
            try writeRecord(.message, message.bytes)
            return
        }
        chunk.records.append(declaration)
        chunk.noteMessage(channel: channel, time: logTimeNs)
        chunk.records.mcapRecord(.message, message.bytes)
        if chunk.records.count >= chunkThreshold { try flushChunk() }
    }

    private func flushChunk() throws {
        guard let compression = chunking, !chunk.isEmpty else { return }
        let chunkOffset = output.position
        let compressed: [UInt8]
        do { compressed = try compression.compress(chunk.records.bytes) } catch {
            throw RecordingError(.io, file: output.path, "cannot compress a chunk: \(error)")
        }
        var content = ByteBuffer()
        content.u64(UInt64(chunk.start))
        content.u64(UInt64(chunk.end))
        content.u64(UInt64(chunk.records.count))
        content.u32(CRC32.checksum(chunk.records.bytes))
        content.mcapString(compression == .none ? "" : compression.rawValue)
        content.u64(UInt64(compressed.count))
        content.append(compressed)
        try writeRecord(.chunk, content.bytes)
        let chunkLength = output.position - chunkOffset
        var offsets = ByteBuffer()
        let indexStart = output.position
        for (id, entries) in chunk.channels {
            offsets.u16(UInt16(id))
            offsets.u64(output.position)
            var index = ByteBuffer()
            index.u16(UInt16(id))
            index.u32(UInt32(entries.count * 16))
            for e in entries { index.u64(UInt64(e.time)); index.u64(UInt64(e.offset)) }
            try writeRecord(.messageIndex, index.bytes)
        }
        var ci = ByteBuffer()
        ci.u64(UInt64(chunk.start))
        ci.u64(UInt64(chunk.end))
        ci.u64(chunkOffset)
        ci.u64(chunkLength)
        ci.u32(UInt32(offsets.count))
        ci.append(offsets.bytes)
        ci.u64(output.position - indexStart)
        ci.mcapString(compression == .none ? "" : compression.rawValue)
        ci.u64(UInt64(compressed.count))
        ci.u64(UInt64(chunk.records.count))
        chunkIndexRecords.append(ci.bytes)
        chunk.reset()
    }

    public func finish() throws {
        guard !finished else { return }
        try flushChunk()
        finished = true
        try writeRecord(.dataEnd, withUnsafeBytes(of: dataCRC.littleEndian) { Array($0) })
        let summaryStart = output.position
        var summary = ByteBuffer()
        var groups: [(MCAPFormat.Op, UInt64, UInt64)] = []
        func group(_ op: MCAPFormat.Op, _ records: [[UInt8]]) {
            guard !records.isEmpty else { return }
            let start = summary.count
            for r in records { summary.mcapRecord(op, r) }
            groups.append((op, summaryStart + UInt64(start), UInt64(summary.count - start)))
        }
        group(.schema, schemaRecords)
        group(.channel, channelRecords)
        var stats = ByteBuffer()
        stats.u64(messageCount)
        stats.u16(UInt16(schemaRecords.count))
        stats.u32(UInt32(channelRecords.count))
        stats.u32(0)
        stats.u32(0)
        stats.u32(UInt32(chunkIndexRecords.count))
        stats.u64(messageCount == 0 ? 0 : firstTime)
        stats.u64(messageCount == 0 ? 0 : lastTime)
        var perChannel = ByteBuffer()
        for (i, n) in counts.enumerated() where n > 0 { perChannel.u16(UInt16(i + 1)); perChannel.u64(n) }
        stats.u32(UInt32(perChannel.count))
        stats.append(perChannel.bytes)
        group(.statistics, [stats.bytes])
        group(.chunkIndex, chunkIndexRecords)
        let summaryOffsetStart = summaryStart + UInt64(summary.count)
        for (op, start, length) in groups {
            var so = ByteBuffer()
            so.u8(op.rawValue)
            so.u64(start)
            so.u64(length)
            summary.mcapRecord(.summaryOffset, so.bytes)
        }
        var footer = ByteBuffer()
        footer.u8(MCAPFormat.Op.footer.rawValue)
        footer.u64(20)
        footer.u64(summaryStart)
        footer.u64(summaryOffsetStart)
        let crc = CRC32.checksum(footer.bytes, start: CRC32.checksum(summary.bytes))
        footer.u32(crc)
        try output.write(summary.bytes)
        try output.write(footer.bytes)
        try output.write(MCAPFormat.magic)
        try output.flush()
    }
}

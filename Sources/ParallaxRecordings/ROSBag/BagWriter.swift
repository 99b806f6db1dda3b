import Foundation

/// Writes a ROS 1 bag (format 2.0) with chunks (uncompressed, bz2 or lz4), per-chunk index data
/// and the closing index of connections and chunk infos, as `rosbag record` does. Output is
/// deterministic: the same calls give the same bytes.
public final class BagWriter: RecordingWriter {
    public var format: RecordingFormat { .rosbag }
    public var messageEncoding: MessageEncoding { .ros1 }
    /// The chunk compression.
    public let compression: ChunkCompression

    private let output: FileOutput
    private let chunkThreshold: Int
    private var connections: [(topic: String, record: [UInt8])] = []
    private var chunk = ChunkBuilder()
    private var chunkInfos: [[UInt8]] = []
    private var pendingConnections: [Int] = []
    private var finished = false

    /// Creates the bag at `url` (replacing a file there). `chunkSize` is the uncompressed size at
    /// which a chunk is closed (rosbag's default is 768 KiB).
    public init(url: URL, compression: ChunkCompression = .none, chunkSize: Int = 768 * 1024) throws {
        guard compression != .zstd else {
            throw RecordingError(.invalidArgument, file: url.path, "ROS 1 bags support none, bz2 or lz4 compression, not zstd")
        }
        self.compression = compression
        chunkThreshold = max(1, chunkSize)
        output = try FileOutput(url: url)
        try output.write(BagFormat.magic)
        try output.write(Self.bagHeader(indexPos: 0, connections: 0, chunks: 0))
    }

    static func record(_ header: [(String, [UInt8])], _ data: [UInt8]) -> [UInt8] {
        var b = ByteBuffer()
        let h = BagRecordHeader.encode(header)
        b.u32(UInt32(h.count))
        b.append(h)
        b.u32(UInt32(data.count))
        b.append(data)
        return b.bytes
    }

    private static func bagHeader(indexPos: UInt64, connections: Int, chunks: Int) -> [UInt8] {
        let fields: [(String, [UInt8])] = [
            ("index_pos", BagRecordHeader.u64Bytes(indexPos)), ("conn_count", BagRecordHeader.u32Bytes(UInt32(connections))),
            ("chunk_count", BagRecordHeader.u32Bytes(UInt32(chunks))), ("op", [BagFormat.Op.bagHeader.rawValue]),
        ]
        // Space-padded to a fixed size so that closing the bag can rewrite it in place.
        let padding = BagFormat.headerRecordLength - 8 - BagRecordHeader.encode(fields).count
        return record(fields, [UInt8](repeating: 0x20, count: padding))
    }

    public func addChannel(topic: String, type: String, definition: String, md5: String) throws -> Int {
        guard !finished else { throw RecordingError(.invalidArgument, file: output.path, "writer already finished") }
        let id = connections.count
        let fields: [(String, [UInt8])] = [
            ("topic", Array(topic.utf8)), ("type", Array(type.utf8)), ("md5sum", Array(md5.utf8)),
            ("message_definition", Array(definition.utf8)),
        ]
        let record = Self.record([("op", [BagFormat.Op.connection.rawValue]), ("conn", BagRecordHeader.u32Bytes(UInt32(id))),
                                  ("topic", Array(topic.utf8))], BagRecordHeader.encode(fields))
        connections.append((topic, record))
        pendingConnections.append(id)
        return id
    }

    public func write(channel: Int, logTimeNs: Int64, data: [UInt8]) throws {
        guard !finished else { throw RecordingError(.invalidArgument, file: output.path, "writer already finished") }
        guard connections.indices.contains(channel) else {
            throw RecordingError(.invalidArgument, file: output.path, "no connection \(channel)")
        }
        guard logTimeNs >= 0, logTimeNs / 1_000_000_000 <= Int64(UInt32.max) else {
            throw RecordingError(.invalidArgument, file: output.path, topic: connections[channel].topic,
                                 "time \(logTimeNs) ns does not fit a bag's unsigned 32-bit seconds")
        }
        // A connection's record goes into the chunk where it is first used, so a bag cut short
        // still declares every connection its chunks use.
        if let i = pendingConnections.firstIndex(of: channel) {
            chunk.records.append(connections[channel].record)
            pendingConnections.remove(at: i)
        }
        chunk.noteMessage(channel: channel, time: logTimeNs)
        chunk.records.append(Self.record([("op", [BagFormat.Op.messageData.rawValue]), ("conn", BagRecordHeader.u32Bytes(UInt32(channel))),
                                  ("time", BagRecordHeader.timeBytes(logTimeNs))], data))
        if chunk.records.count >= chunkThreshold { try flushChunk() }
    }

    private func flushChunk() throws {
        guard !chunk.isEmpty else { return }
        let position = output.position
        let compressed: [UInt8]
        do { compressed = try compression.compress(chunk.records.bytes) } catch {
            throw RecordingError(.io, file: output.path, "cannot compress a chunk: \(error)")
        }
        try output.write(Self.record([("op", [BagFormat.Op.chunk.rawValue]), ("compression", Array(compression.rawValue.utf8)),
                                      ("size", BagRecordHeader.u32Bytes(UInt32(chunk.records.count)))], compressed))
        var counts = ByteBuffer()
        for (conn, entries) in chunk.channels {
            var data = ByteBuffer()
            for e in entries { data.append(BagRecordHeader.timeBytes(e.time)); data.u32(UInt32(e.offset)) }
            try output.write(Self.record([("op", [BagFormat.Op.indexData.rawValue]), ("ver", BagRecordHeader.u32Bytes(1)),
                                          ("conn", BagRecordHeader.u32Bytes(UInt32(conn))),
                                          ("count", BagRecordHeader.u32Bytes(UInt32(entries.count)))], data.bytes))
            counts.u32(UInt32(conn))
            counts.u32(UInt32(entries.count))
        }
        chunkInfos.append(Self.record([
            ("op", [BagFormat.Op.chunkInfo.rawValue]), ("ver", BagRecordHeader.u32Bytes(1)),
            ("chunk_pos", BagRecordHeader.u64Bytes(position)), ("start_time", BagRecordHeader.timeBytes(chunk.start)),
            ("end_time", BagRecordHeader.timeBytes(chunk.end)), ("count", BagRecordHeader.u32Bytes(UInt32(chunk.channels.count))),
        ], counts.bytes))
        chunk.reset()
    }

    public func finish() throws {
        guard !finished else { return }
        try flushChunk()
        finished = true
        let indexPos = output.position
        for c in connections { try output.write(c.record) }
        for info in chunkInfos { try output.write(info) }
        try output.flush()
        try output.overwrite(Self.bagHeader(indexPos: indexPos, connections: connections.count, chunks: chunkInfos.count),
                             at: UInt64(BagFormat.magic.count))
    }
}

import Foundation

/// Reads a ROS 1 bag (format 2.0) front to back: uncompressed, bz2 and lz4 chunks, one chunk in
/// memory at a time.
///
/// A bag that was closed cleanly has an index at its end (connections and chunk infos); the
/// reader takes the connection list from it and stops at it. A bag whose recorder died has no
/// index (`index_pos` 0); the reader then scans every record, learning connections from the
/// connection records inside the chunks, as `rosbag reindex` does.
public final class BagReader: RecordingReader {
    public let path: String
    public var format: RecordingFormat { .rosbag }
    public private(set) var channels: [Int: RecordingChannel] = [:]
    public private(set) var hasIndex = false
    public var warnings: [String] { progress.warnings }
    /// Per-connection message counts from the index's chunk infos (empty without an index).
    public private(set) var indexedCounts: [Int: Int] = [:]
    /// The number of chunks the index lists.
    public private(set) var indexedChunks = 0

    private let input: WindowedInput
    private let progress: StreamProgress
    private var position: UInt64
    private var dataEnd: UInt64
    private var chunk: [UInt8] = []
    private var chunkCompressed: [UInt8] = []
    private var chunkCursor = ByteCursor([])
    private var chunkOffset: UInt64 = 0

    /// Opens the bag at `url` and reads its header and, when present, its index.
    public init(url: URL, damage: DamagePolicy = .fail) throws {
        path = url.path
        progress = StreamProgress(damage: damage)
        let file = try FileInput(url: url)
        input = WindowedInput(file)
        let magic = try file.read(at: 0, count: BagFormat.magic.count)
        guard magic == BagFormat.magic else {
            throw RecordingError(.format, file: path, offset: 0,
                                 magic.starts(with: Array("#ROSBAG V".utf8)) ? "only ROS bag format version 2.0 is supported"
                                                                             : "not a ROS 1 bag (no '#ROSBAG V2.0' magic)")
        }
        position = UInt64(BagFormat.magic.count)
        dataEnd = file.size
        let (header, _, next) = try readRecord(at: position)
        guard try wrap({ try header.op() }, at: position) == BagFormat.Op.bagHeader.rawValue else {
            throw RecordingError(.malformed, file: path, offset: position, "the first record is not the bag header")
        }
        position = next
        let indexPos = try wrap({ try header.u64("index_pos") }, at: UInt64(BagFormat.magic.count))
        if indexPos == 0 {
            progress.warn("bag has no index (it was not closed cleanly): read by a linear scan")
        } else if indexPos < position || indexPos > file.size {
            progress.warn("bag header's index_pos \(indexPos) lies outside the file: read by a linear scan")
        } else {
            do {
                try readIndex(at: indexPos)
                dataEnd = indexPos
                hasIndex = true
            } catch {
                channels = [:]
                indexedCounts = [:]
                progress.warn("bag index unreadable (\(error)): read by a linear scan")
            }
        }
    }

    /// Reads one record's header at `offset`: the parsed header, the data range in the returned
    /// cursor's buffer, and the offset of the next record. Data larger than the window is not loaded.
    private func readRecord(at offset: UInt64, loadData: Bool = true) throws -> (BagRecordHeader, ByteCursor?, UInt64) {
        var c = try input.cursor(at: offset, count: 4, what: "a record's header length")
        let headerLength = Int(try wrap({ try c.u32() }, at: offset))
        guard UInt64(headerLength) <= input.file.size else {
            throw RecordingError(.malformed, file: path, offset: offset, "record header length \(headerLength) exceeds the file size")
        }
        let h = try input.cursor(at: offset + 4, count: headerLength + 4, what: "a record header")
        let header = try wrap({ try BagRecordHeader(h.bytes, h.position..<(h.position + headerLength)) }, at: offset)
        var lengthCursor = ByteCursor(h.bytes, start: h.position + headerLength, end: h.end)
        let dataLength = Int(try wrap({ try lengthCursor.u32() }, at: offset))
        let dataOffset = offset + 8 + UInt64(headerLength)
        guard dataOffset + UInt64(dataLength) <= input.file.size else {
            throw RecordingError(.truncated, file: path, offset: offset,
                                 "file ends inside a record: its data needs \(dataLength) bytes, \(input.file.size - dataOffset) remain")
        }
        let data = loadData ? try input.cursor(at: dataOffset, count: dataLength, what: "a record's data") : nil
        return (header, data, dataOffset + UInt64(dataLength))
    }

    /// Runs `body`, turning a ``ByteError`` into a ``RecordingError`` at `offset`.
    private func wrap<T>(_ body: () throws -> T, at offset: UInt64) throws -> T {
        do { return try body() } catch let e as ByteError {
            throw RecordingError(e.truncated ? .truncated : .malformed, file: path, offset: offset, e.description)
        }
    }

    private func readIndex(at start: UInt64) throws {
        var offset = start
        while offset < input.file.size {
            let (header, data, next) = try readRecord(at: offset)
            switch try wrap({ try header.op() }, at: offset) {
            case BagFormat.Op.connection.rawValue:
                try addConnection(header, data!, at: offset)
            case BagFormat.Op.chunkInfo.rawValue:
                var c = data!
                let count = Int(try wrap({ try header.u32("count") }, at: offset))
                for _ in 0..<count {
                    let conn = Int(try wrap({ try c.u32() }, at: offset)), n = Int(try wrap({ try c.u32() }, at: offset))
                    indexedCounts[conn, default: 0] += n
                }
                indexedChunks += 1
            default:
                throw RecordingError(.malformed, file: path, offset: offset, "unexpected record in the index")
            }
            offset = next
        }
    }

    private func addConnection(_ header: BagRecordHeader, _ data: ByteCursor, at offset: UInt64) throws {
        let id = Int(try wrap({ try header.u32("conn") }, at: offset))
        let topic = try wrap({ try header.string("topic") }, at: offset)
        let fields = try wrap({ try BagRecordHeader(data.bytes, data.position..<data.end) }, at: offset)
        let type = try wrap({ try fields.string("type") }, at: offset)
        let definition = fields.optionalString("message_definition") ?? ""
        channels[id] = RecordingChannel(id: id, topic: topic, type: MessageSchema.normalize(type), encodingName: "ros1",
                                        definition: definition)
    }

    public func next() throws -> RecordedMessage? {
        let channels = self.channels
        return try progress.step({ channels[$0]?.topic ?? "connection \($0)" }) { try nextRecord() }
    }

    private func nextRecord() throws -> RecordedMessage? {
        while true {
            if !chunkCursor.isAtEnd {
                if let m = try nextInChunk() { return m }
                continue
            }
            guard position < dataEnd else { return nil }
            let offset = position
            let (header, _, next) = try readRecord(at: offset, loadData: false)
            position = next
            switch try wrap({ try header.op() }, at: offset) {
            case BagFormat.Op.chunk.rawValue:
                try loadChunk(header, at: offset, end: next)
            case BagFormat.Op.connection.rawValue:
                let (h, d, _) = try readRecord(at: offset)
                try addConnection(h, d!, at: offset)
            case BagFormat.Op.messageData.rawValue:
                let (h, d, _) = try readRecord(at: offset)
                return try message(h, d!, at: offset)
            case BagFormat.Op.indexData.rawValue, BagFormat.Op.chunkInfo.rawValue, BagFormat.Op.bagHeader.rawValue:
                continue  // index records: the stream needs only chunks and connections
            case let op:
                throw RecordingError(.malformed, file: path, offset: offset, "unknown record opcode \(op)")
            }
        }
    }

    private func loadChunk(_ header: BagRecordHeader, at offset: UInt64, end: UInt64) throws {
        let name = try wrap({ try header.string("compression") }, at: offset)
        guard let compression = ChunkCompression(recordName: name), compression != .zstd else {
            throw RecordingError(.unsupportedCompression, file: path, offset: offset,
                                 "chunk compression '\(name)' is not supported (bags use none, bz2 or lz4)")
        }
        let size = Int(try wrap({ try header.u32("size") }, at: offset))
        var c = try input.cursor(at: offset, count: 4, what: "a chunk header length")
        let headerLength = UInt64(try wrap({ try c.u32() }, at: offset))
        let dataOffset = offset + 8 + headerLength
        try input.file.read(at: dataOffset, count: Int(end - dataOffset), into: &chunkCompressed)
        do {
            try compression.decompress(chunkCompressed, 0..<chunkCompressed.count, size: size, into: &chunk)
        } catch let e as ByteError {
            throw RecordingError(e.truncated ? .truncated : .malformed, file: path, offset: offset, "chunk: \(e.description)")
        }
        chunkCursor = ByteCursor(chunk)
        chunkOffset = offset
    }

    private func nextInChunk() throws -> RecordedMessage? {
        let recordStart = chunkCursor.position
        do {
            let headerLength = try chunkCursor.length32("a record header length")
            let headerRange = try chunkCursor.range(headerLength, "a record header")
            let dataLength = try chunkCursor.length32("a record data length")
            let dataRange = try chunkCursor.range(dataLength, "a record's data")
            let header = try BagRecordHeader(chunk, headerRange)
            switch try header.op() {
            case BagFormat.Op.messageData.rawValue:
                return try message(header, ByteCursor(chunk, start: dataRange.lowerBound, end: dataRange.upperBound), at: chunkOffset)
            case BagFormat.Op.connection.rawValue:
                try addConnection(header, ByteCursor(chunk, start: dataRange.lowerBound, end: dataRange.upperBound), at: chunkOffset)
            default:
                break
            }
            return nil
        } catch let e as ByteError {
            chunkCursor = ByteCursor([])
            throw RecordingError(e.truncated ? .truncated : .malformed, file: path, offset: chunkOffset,
                                 "chunk record at byte \(recordStart) of the uncompressed chunk: \(e.description)")
        }
    }

    private func message(_ header: BagRecordHeader, _ data: ByteCursor, at offset: UInt64) throws -> RecordedMessage {
        let conn = Int(try wrap({ try header.u32("conn") }, at: offset))
        let time = try wrap({ try header.time("time") }, at: offset)
        guard channels[conn] != nil else {
            throw RecordingError(.malformed, file: path, offset: offset, "message on connection \(conn), which no connection record declares")
        }
        progress.count(conn)
        return RecordedMessage(channel: conn, logTimeNs: time, data: Array(data.bytes[data.position..<data.end]))
    }
}

import Foundation

/// Reads an MCAP file front to back: chunked (uncompressed, lz4, zstd) or not, one chunk in
/// memory at a time, checking chunk CRCs and the data-section CRC when the file states them.
///
/// With a summary (schemas, channels, chunk indexes, statistics) the channel list is known up
/// front and chunks are read in the order of their start times; without one (a recorder that
/// died, a streaming writer) the reader walks every record of the data section.
public final class MCAPReader: RecordingReader {
    public let path: String
    public var format: RecordingFormat { .mcap }
    public private(set) var channels: [Int: RecordingChannel] = [:]
    public private(set) var hasIndex = false
    public var warnings: [String] { progress.warnings }
    /// Per-channel message counts from the summary's statistics record (empty without one).
    public private(set) var statisticsCounts: [Int: Int] = [:]
    /// The `profile` field of the header record (`ros1`, `ros2`, …).
    public private(set) var profile = ""

    private let input: WindowedInput
    private let progress: StreamProgress
    private var schemas: [Int: MCAPSchema] = [:]
    private var chunkIndexes: [MCAPChunkIndex] = []
    private var nextChunkIndex = 0
    private var position = UInt64(MCAPFormat.magic.count)
    private var dataCRC: UInt32 = 0
    private var chunk: [UInt8] = []
    private var chunkCursor = ByteCursor([])
    private var chunkOffset: UInt64 = 0

    /// Opens `url`, checks the magic and reads the summary when the file has one.
    public init(url: URL, damage: DamagePolicy = .fail) throws {
        path = url.path
        progress = StreamProgress(damage: damage)
        let file = try FileInput(url: url)
        input = WindowedInput(file)
        let magic = try file.read(at: 0, count: MCAPFormat.magic.count)
        guard magic == MCAPFormat.magic else {
            throw RecordingError(.format, file: path, offset: 0, "not an MCAP file (no MCAP0 magic)")
        }
        dataCRC = CRC32.checksum(magic)
        do {
            try readSummary(file)
        } catch {
            schemas = [:]
            channels = [:]
            chunkIndexes = []
            statisticsCounts = [:]
            hasIndex = false
            progress.warn("summary unreadable (\(error)): read as a stream")
        }
    }

    private func wrap<T>(_ body: () throws -> T, at offset: UInt64) throws -> T {
        do { return try body() } catch let e as ByteError {
            throw RecordingError(e.truncated ? .truncated : .malformed, file: path, offset: offset, e.description)
        }
    }

    private func readSummary(_ file: FileInput) throws {
        let minimum = UInt64(2 * MCAPFormat.magic.count + MCAPFormat.footerLength)
        guard file.size >= minimum else {
            progress.warn("file has no footer (it was not closed cleanly): read as a stream")
            return
        }
        let footerOffset = file.size - UInt64(MCAPFormat.magic.count + MCAPFormat.footerLength)
        let tail = try file.read(at: footerOffset, count: MCAPFormat.footerLength + MCAPFormat.magic.count)
        guard tail.count == MCAPFormat.footerLength + MCAPFormat.magic.count, tail[0] == MCAPFormat.Op.footer.rawValue,
              Array(tail.suffix(8)) == MCAPFormat.magic else {
            progress.warn("file has no footer (it was not closed cleanly): read as a stream")
            return
        }
        var c = ByteCursor(tail, start: 9)
        let summaryStart = try c.u64(), _ = try c.u64(), summaryCRC = try c.u32()
        guard summaryStart != 0 else { return }  // closed, but written without a summary
        guard summaryStart >= position, summaryStart < footerOffset else {
            throw RecordingError(.malformed, file: path, offset: footerOffset, "footer's summary_start \(summaryStart) lies outside the file")
        }
        let summary = try file.readExactly(at: summaryStart, count: Int(footerOffset - summaryStart), what: "the summary section")
        if summaryCRC != 0 {
            let crc = CRC32.checksum(tail, 0..<(1 + 8 + 16), start: CRC32.checksum(summary))
            guard crc == summaryCRC else {
                throw RecordingError(.checksum, file: path, offset: summaryStart,
                                     "summary CRC mismatch: stored \(hex(summaryCRC)), computed \(hex(crc))")
            }
        }
        var s = ByteCursor(summary)
        while !s.isAtEnd {
            let recordOffset = summaryStart + UInt64(s.position)
            let op = try wrap({ try s.u8() }, at: recordOffset)
            let length = try wrap({ try s.length64("a summary record") }, at: recordOffset)
            var r = ByteCursor(summary, start: s.position, end: s.position + length)
            try wrap({ try s.skip(length, "a summary record") }, at: recordOffset)
            switch MCAPFormat.Op(rawValue: op) {
            case .schema: try wrap({ try schemaRecord(&r) }, at: recordOffset)
            case .channel: try wrap({ try channelRecord(&r) }, at: recordOffset)
            case .chunkIndex:
                let start = try wrap({ try r.u64() }, at: recordOffset)
                _ = try wrap({ try r.u64() }, at: recordOffset)
                let offset = try wrap({ try r.u64() }, at: recordOffset), len = try wrap({ try r.u64() }, at: recordOffset)
                chunkIndexes.append(MCAPChunkIndex(startTime: start, offset: offset, length: len))
            case .statistics:
                try wrap({
                    try r.skip(8 + 2 + 4 + 4 + 4 + 4 + 8 + 8, "statistics counts")
                    for (id, n) in try r.mcapCountMap("channel message counts") { statisticsCounts[id] = Int(clamping: n) }
                }, at: recordOffset)
            default: break
            }
        }
        // Chunks in time order; ties keep file order.
        chunkIndexes.sort { ($0.startTime, $0.offset) < ($1.startTime, $1.offset) }
        hasIndex = true
    }

    private func schemaRecord(_ r: inout ByteCursor) throws {
        let id = Int(try r.u16())
        let name = try r.mcapString("schema name"), encoding = try r.mcapString("schema encoding")
        let n = try r.length32("schema data length")
        schemas[id] = MCAPSchema(name: name, encoding: encoding, data: try r.take(n, "schema data"))
    }

    private func channelRecord(_ r: inout ByteCursor) throws {
        let id = Int(try r.u16()), schemaID = Int(try r.u16())
        let topic = try r.mcapString("topic"), encoding = try r.mcapString("message encoding")
        let schema = schemas[schemaID]
        guard schemaID == 0 || schema != nil else {
            throw ByteError(truncated: false, description: "channel \(id) (\(topic)) refers to schema \(schemaID), which is not defined before it")
        }
        let readable = schema.flatMap { MCAPFormat.messageEncoding(forSchemaEncoding: $0.encoding) } != nil
        channels[id] = RecordingChannel(
            id: id, topic: topic, type: schema.map { MessageSchema.normalize($0.name) } ?? "",
            encodingName: encoding, definition: readable ? String(decoding: schema!.data, as: UTF8.self) : "")
    }

    public func next() throws -> RecordedMessage? {
        let channels = self.channels
        return try progress.step({ channels[$0]?.topic ?? "channel \($0)" }) { try nextRecord() }
    }

    private func nextRecord() throws -> RecordedMessage? {
        while true {
            if !chunkCursor.isAtEnd {
                let start = chunkCursor.position
                do {
                    let op = try chunkCursor.u8()
                    let length = try chunkCursor.length64("a record in the chunk")
                    var r = ByteCursor(chunk, start: chunkCursor.position, end: chunkCursor.position + length)
                    chunkCursor.position += length
                    if let m = try record(op, &r, at: chunkOffset, inChunk: true) { return m }
                } catch let e as ByteError {
                    chunkCursor = ByteCursor([])
                    throw RecordingError(e.truncated ? .truncated : .malformed, file: path, offset: chunkOffset,
                                         "chunk record at byte \(start) of the uncompressed chunk: \(e.description)")
                }
                continue
            }
            if hasIndex && !chunkIndexes.isEmpty {
                guard nextChunkIndex < chunkIndexes.count else { return nil }
                let ci = chunkIndexes[nextChunkIndex]
                nextChunkIndex += 1
                var c = try input.cursor(at: ci.offset, count: 9, what: "a chunk record")
                let op = try wrap({ try c.u8() }, at: ci.offset), length = try wrap({ try c.u64() }, at: ci.offset)
                guard op == MCAPFormat.Op.chunk.rawValue, length + 9 == ci.length else {
                    throw RecordingError(.malformed, file: path, offset: ci.offset, "chunk index points at no chunk of \(ci.length) bytes")
                }
                try loadChunk(at: ci.offset, length: Int(length))
                continue
            }
            let offset = position
            var h = try input.cursor(at: offset, count: 9, what: "a record header")
            let op = try wrap({ try h.u8() }, at: offset), length64 = try wrap({ try h.u64() }, at: offset)
            guard length64 <= input.file.size - offset - 9 else {
                throw RecordingError(.truncated, file: path, offset: offset,
                                     "file ends inside a record of \(length64) bytes (\(input.file.size - offset - 9) remain)")
            }
            let length = Int(length64)
            position = offset + 9 + length64
            if op == MCAPFormat.Op.chunk.rawValue {
                dataCRC = CRC32.checksum(h.bytes, (h.position - 9)..<h.position, start: dataCRC)
                try loadChunk(at: offset, length: length, crcIntoData: true)
                continue
            }
            var r = try input.cursor(at: offset + 9, count: length, what: "a record")
            if op == MCAPFormat.Op.dataEnd.rawValue {
                let stored = try wrap({ try r.u32() }, at: offset)
                if stored != 0 && stored != dataCRC {
                    throw RecordingError(.checksum, file: path, offset: offset,
                                         "data section CRC mismatch: stored \(hex(stored)), computed \(hex(dataCRC))")
                }
                return nil
            }
            if op == MCAPFormat.Op.footer.rawValue { return nil }
            dataCRC = CRC32.checksum(h.bytes, (h.position - 9)..<h.position, start: dataCRC)
            dataCRC = CRC32.checksum(r.bytes, r.position..<r.end, start: dataCRC)
            if let m = try wrap({ try record(op, &r, at: offset, inChunk: false) }, at: offset) { return m }
        }
    }

    private func loadChunk(at offset: UInt64, length: Int, crcIntoData: Bool = false) throws {
        let content = try input.file.readExactly(at: offset + 9, count: length, what: "a chunk")
        if crcIntoData { dataCRC = CRC32.checksum(content, start: dataCRC) }
        var c = ByteCursor(content)
        let (size, crc, compressionName, recordsRange) = try wrap({ () throws -> (Int, UInt32, String, Range<Int>) in
            try c.skip(16, "chunk start and end times")
            let size = try c.u64("uncompressed size")
            let crc = try c.u32("uncompressed CRC")
            let name = try c.mcapString("compression")
            let n = try c.length64("chunk records")
            guard size <= UInt64(Int32.max) * 8 else { throw ByteError(truncated: false, description: "chunk claims \(size) bytes uncompressed") }
            return (Int(size), crc, name, try c.range(n, "chunk records"))
        }, at: offset)
        guard let compression = ChunkCompression(recordName: compressionName), compression != .bz2 else {
            throw RecordingError(.unsupportedCompression, file: path, offset: offset,
                                 "chunk compression '\(compressionName)' is not supported (MCAP uses none, lz4 or zstd)")
        }
        do { try compression.decompress(content, recordsRange, size: size, into: &chunk) } catch let e as ByteError {
            throw RecordingError(e.truncated ? .truncated : .malformed, file: path, offset: offset, "chunk: \(e.description)")
        }
        if crc != 0 {
            let computed = CRC32.checksum(chunk)
            guard computed == crc else {
                throw RecordingError(.checksum, file: path, offset: offset,
                                     "chunk CRC mismatch: stored \(hex(crc)), computed \(hex(computed))")
            }
        }
        chunkCursor = ByteCursor(chunk)
        chunkOffset = offset
    }

    /// Handles one record's content; returns a message when it is one.
    private func record(_ op: UInt8, _ r: inout ByteCursor, at offset: UInt64, inChunk: Bool) throws -> RecordedMessage? {
        switch MCAPFormat.Op(rawValue: op) {
        case .header where !inChunk:
            profile = try r.mcapString("profile")
        case .schema:
            try schemaRecord(&r)
        case .channel: try channelRecord(&r)
        case .message:
            let id = Int(try r.u16())
            _ = try r.u32()
            let logTime = try r.u64()
            _ = try r.u64()
            guard channels[id] != nil else {
                throw ByteError(truncated: false, description: "message on channel \(id), which no channel record declares")
            }
            guard logTime <= UInt64(Int64.max) else { throw ByteError(truncated: false, description: "log time \(logTime) out of range") }
            progress.count(id)
            return RecordedMessage(channel: id, logTimeNs: Int64(logTime), data: Array(r.bytes[r.position..<r.end]))
        case .chunk where inChunk:
            throw ByteError(truncated: false, description: "a chunk inside a chunk")
        default:
            break  // indexes, attachments, metadata: not needed for replay
        }
        return nil
    }
}

func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }

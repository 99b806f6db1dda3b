/// Constants of the MCAP format (mcap.dev/spec).
enum MCAPFormat {
    /// The 8 bytes at the start and the end of every MCAP file.
    static let magic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]
    /// The footer record's size: opcode, u64 length, then summary start, summary offset start, CRC.
    static let footerLength = 1 + 8 + 8 + 8 + 4

    /// Record opcodes.
    enum Op: UInt8 {
        case header = 0x01, footer = 0x02, schema = 0x03, channel = 0x04, message = 0x05, chunk = 0x06
        case messageIndex = 0x07, chunkIndex = 0x08, attachment = 0x09, attachmentIndex = 0x0A
        case statistics = 0x0B, metadata = 0x0C, metadataIndex = 0x0D, summaryOffset = 0x0E, dataEnd = 0x0F
    }

    /// The message encoding a schema encoding goes with, for the two ROS dialects.
    static func messageEncoding(forSchemaEncoding s: String) -> MessageEncoding? {
        switch s {
        case "ros1msg": .ros1
        case "ros2msg": .cdr
        default: nil
        }
    }
}

/// An MCAP string: u32 length then UTF-8.
extension ByteCursor {
    mutating func mcapString(_ what: @autoclosure () -> String) throws -> String {
        let n = try length32("\(what()) length")
        return try text(n, what())
    }

    /// An MCAP map<u16, u64> (u32 byte length, then pairs).
    mutating func mcapCountMap(_ what: @autoclosure () -> String) throws -> [Int: UInt64] {
        let n = try length32("\(what()) length")
        var inner = ByteCursor(bytes, start: position, end: position + n)
        try skip(n, what())
        var out: [Int: UInt64] = [:]
        while !inner.isAtEnd { out[Int(try inner.u16())] = try inner.u64() }
        return out
    }
}

extension ByteBuffer {
    mutating func mcapString(_ s: String) {
        let b = Array(s.utf8)
        u32(UInt32(b.count))
        append(b)
    }

    /// Appends one record: opcode, u64 length, content.
    mutating func mcapRecord(_ op: MCAPFormat.Op, _ content: [UInt8]) {
        u8(op.rawValue)
        u64(UInt64(content.count))
        append(content)
    }
}

/// A schema as stored: `package/Type`, its encoding and definition text.
struct MCAPSchema {
    let name: String
    let encoding: String
    let data: [UInt8]
}

/// A chunk's place in the file, from the summary.
struct MCAPChunkIndex {
    let startTime: UInt64
    let offset: UInt64
    let length: UInt64
}

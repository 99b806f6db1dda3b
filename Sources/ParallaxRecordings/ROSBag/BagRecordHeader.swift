/// Constants of the ROS 1 bag format, version 2.0 (wiki.ros.org/Bags/Format/2.0).
enum BagFormat {
    /// The first 13 bytes of every bag.
    static let magic = Array("#ROSBAG V2.0\n".utf8)
    /// The bag header record is padded so that it fills this many bytes after the magic,
    /// leaving room to rewrite it in place when the bag is closed.
    static let headerRecordLength = 4096

    /// Record opcodes (the `op` header field).
    enum Op: UInt8 {
        case messageData = 0x02
        case bagHeader = 0x03
        case indexData = 0x04
        case chunk = 0x05
        case chunkInfo = 0x06
        case connection = 0x07
    }
}

/// A record header: `name=value` fields, each prefixed by its u32 length. Names and values are
/// kept as ranges into the buffer, so reading a message record allocates nothing.
struct BagRecordHeader {
    let bytes: [UInt8]
    private var fields: [(name: Range<Int>, value: Range<Int>)] = []

    /// Parses the header held in `bytes[range]`.
    init(_ bytes: [UInt8], _ range: Range<Int>) throws {
        self.bytes = bytes
        var cursor = ByteCursor(bytes, start: range.lowerBound, end: range.upperBound)
        fields.reserveCapacity(4)
        while !cursor.isAtEnd {
            let n = try cursor.length32("a header field length")
            let field = try cursor.range(n, "a header field")
            guard let eq = bytes[field].firstIndex(of: UInt8(ascii: "=")) else {
                throw ByteError(truncated: false, description: "header field without '='")
            }
            fields.append((field.lowerBound..<eq, (eq + 1)..<field.upperBound))
        }
    }

    /// Builds the bytes of a header from fields in order.
    static func encode(_ fields: [(String, [UInt8])]) -> [UInt8] {
        var b = ByteBuffer()
        for (name, value) in fields {
            b.u32(UInt32(name.utf8.count + 1 + value.count))
            b.append(Array(name.utf8))
            b.u8(UInt8(ascii: "="))
            b.append(value)
        }
        return b.bytes
    }

    private func value(_ name: StaticString) -> Range<Int>? {
        let n = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for f in fields where f.name.count == n.count && bytes[f.name].elementsEqual(n) { return f.value }
        return nil
    }

    private func required(_ name: StaticString, size: Int? = nil) throws -> Range<Int> {
        guard let r = value(name) else { throw ByteError(truncated: false, description: "record header has no '\(name)' field") }
        if let size, r.count != size {
            throw ByteError(truncated: false, description: "header field '\(name)' has \(r.count) bytes, expected \(size)")
        }
        return r
    }

    /// The record's opcode.
    func op() throws -> UInt8 { bytes[try required("op", size: 1).lowerBound] }

    func u32(_ name: StaticString) throws -> UInt32 {
        var c = ByteCursor(bytes, start: try required(name, size: 4).lowerBound)
        return try c.u32()
    }

    func u64(_ name: StaticString) throws -> UInt64 {
        var c = ByteCursor(bytes, start: try required(name, size: 8).lowerBound)
        return try c.u64()
    }

    /// A `time` field (u32 seconds, u32 nanoseconds) in nanoseconds.
    func time(_ name: StaticString) throws -> Int64 {
        var c = ByteCursor(bytes, start: try required(name, size: 8).lowerBound)
        let sec = Int64(try c.u32()), nsec = Int64(try c.u32())
        return sec * 1_000_000_000 + nsec
    }

    func string(_ name: StaticString) throws -> String {
        String(decoding: bytes[try required(name)], as: UTF8.self)
    }

    func optionalString(_ name: StaticString) -> String? {
        value(name).map { String(decoding: bytes[$0], as: UTF8.self) }
    }
}

extension BagRecordHeader {
    /// A `time` value as the 8 bytes bags store.
    static func timeBytes(_ ns: Int64) -> [UInt8] {
        var b = ByteBuffer()
        b.u32(UInt32(ns / 1_000_000_000))
        b.u32(UInt32(ns % 1_000_000_000))
        return b.bytes
    }

    static func u32Bytes(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    static func u64Bytes(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
}

/// Reads little-endian numbers, strings and byte runs from a byte buffer, checking every length.
///
/// ROS 1 serialization, CDR, bag records and MCAP records are all little-endian and
/// length-prefixed; every read checks that the bytes are there and throws a ``ByteError`` instead
/// of trapping, so a damaged file never crashes the reader.
struct ByteCursor {
    /// The buffer read from.
    let bytes: [UInt8]
    /// The next byte to read.
    var position: Int
    /// One past the last byte this cursor may read.
    let end: Int

    /// A cursor over `bytes[start..<end]` (the whole buffer by default).
    init(_ bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    /// Bytes left before `end`.
    var remaining: Int { end - position }
    /// True when nothing is left.
    var isAtEnd: Bool { position >= end }

    @inline(__always)
    mutating func require(_ count: Int, _ what: @autoclosure () -> String) throws {
        guard count >= 0, count <= end - position else {
            throw ByteError(truncated: true,
                            description: "\(what()) needs \(count) bytes but only \(max(0, end - position)) remain")
        }
    }

    @inline(__always)
    mutating func load<T: FixedWidthInteger>(_: T.Type, _ what: @autoclosure () -> String) throws -> T {
        let size = MemoryLayout<T>.size
        try require(size, what())
        let p = position
        position += size
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: p, as: T.self)) }
    }

    mutating func u8(_ what: @autoclosure () -> String = "a byte") throws -> UInt8 { try load(UInt8.self, what()) }
    mutating func u16(_ what: @autoclosure () -> String = "a 16-bit integer") throws -> UInt16 { try load(UInt16.self, what()) }
    mutating func u32(_ what: @autoclosure () -> String = "a 32-bit integer") throws -> UInt32 { try load(UInt32.self, what()) }
    mutating func u64(_ what: @autoclosure () -> String = "a 64-bit integer") throws -> UInt64 { try load(UInt64.self, what()) }

    /// A count or length stored as u32, checked against the bytes left (each item at least `itemSize` bytes).
    mutating func length32(_ what: @autoclosure () -> String, itemSize: Int = 1) throws -> Int {
        let n = Int(try u32(what()))
        if itemSize > 0 && n > remaining / itemSize {
            throw ByteError(truncated: true, description: "\(what()) says \(n) but only \(remaining) bytes remain")
        }
        return n
    }

    /// A length stored as u64, checked against the bytes left.
    mutating func length64(_ what: @autoclosure () -> String) throws -> Int {
        let n = try u64(what())
        guard n <= UInt64(remaining) else {
            throw ByteError(truncated: true, description: "\(what()) says \(n) bytes but only \(remaining) remain")
        }
        return Int(n)
    }

    /// The next `count` bytes as an index range into ``bytes``.
    mutating func range(_ count: Int, _ what: @autoclosure () -> String) throws -> Range<Int> {
        try require(count, what())
        defer { position += count }
        return position..<(position + count)
    }

    /// The next `count` bytes, copied.
    mutating func take(_ count: Int, _ what: @autoclosure () -> String) throws -> [UInt8] {
        Array(bytes[try range(count, what())])
    }

    /// The next `count` bytes as UTF-8 text (invalid sequences repaired, as ROS tools do).
    mutating func text(_ count: Int, _ what: @autoclosure () -> String) throws -> String {
        String(decoding: bytes[try range(count, what())], as: UTF8.self)
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int, _ what: @autoclosure () -> String) throws {
        try require(count, what())
        position += count
    }
}

/// Appends little-endian numbers, strings and byte runs to a growing buffer (the writers' side).
struct ByteBuffer {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { append(v) }
    mutating func u32(_ v: UInt32) { append(v) }
    mutating func u64(_ v: UInt64) { append(v) }

    mutating func append<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }
    mutating func append(_ data: ArraySlice<UInt8>) { bytes.append(contentsOf: data) }

    /// Overwrites a u32 at `offset` (lengths known only after their contents are written).
    mutating func patch32(_ v: UInt32, at offset: Int) {
        withUnsafeBytes(of: v.littleEndian) { raw in
            for i in 0..<4 { bytes[offset + i] = raw[i] }
        }
    }

    /// Overwrites a u64 at `offset`.
    mutating func patch64(_ v: UInt64, at offset: Int) {
        withUnsafeBytes(of: v.littleEndian) { raw in
            for i in 0..<8 { bytes[offset + i] = raw[i] }
        }
    }
}

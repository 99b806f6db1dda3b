import ParallaxMath

/// Little-endian writer for map files.
struct ByteWriter {
    var data: [UInt8] = []
    mutating func u8(_ v: UInt8) { data.append(v) }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { data.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    mutating func u64(_ v: UInt64) { for i in 0..<8 { data.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func vector(_ v: Vector3) { f64(v.x); f64(v.y); f64(v.z) }
    /// Rotation as a quaternion (w, x, y, z), then translation.
    mutating func transform(_ t: RigidTransform) {
        let q = t.rotation
        f64(q.w); f64(q.x); f64(q.y); f64(q.z)
        vector(t.translation)
    }
    /// Length-prefixed (UInt32) bytes.
    mutating func bytes(_ b: [UInt8]) { u32(UInt32(b.count)); data += b }
}

/// Little-endian reader that names its section in every error.
struct ByteReader {
    let data: [UInt8]
    let context: String
    var offset = 0

    init(_ data: [UInt8], context: String) {
        self.data = data
        self.context = context
    }

    var remaining: Int { data.count - offset }

    mutating func take(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= remaining else { throw MapFileError("\(context): truncated at byte \(offset) (needs \(n) more)") }
        defer { offset += n }
        return Array(data[offset..<offset + n])
    }
    mutating func u8() throws -> UInt8 { try take(1)[0] }
    mutating func u32() throws -> UInt32 {
        try take(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
    mutating func u64() throws -> UInt64 {
        try take(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
    mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }
    mutating func f64() throws -> Double {
        let v = Double(bitPattern: try u64())
        guard v.isFinite else { throw MapFileError("\(context): non-finite number at byte \(offset - 8)") }
        return v
    }
    mutating func vector() throws -> Vector3 { Vector3(try f64(), try f64(), try f64()) }
    mutating func transform() throws -> RigidTransform {
        let q = Quaternion(w: try f64(), x: try f64(), y: try f64(), z: try f64())
        let n = (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        guard abs(n - 1) < 1e-6 else { throw MapFileError("\(context): rotation quaternion is not unit (norm \(n))") }
        return RigidTransform(rotation: q, translation: try vector())
    }
    /// A count bounded by `maximum` and by the bytes left (`minimumBytesEach` per element).
    mutating func count(maximum: Int, minimumBytesEach: Int) throws -> Int {
        let n = try u64()
        guard n <= UInt64(maximum), n * UInt64(minimumBytesEach) <= UInt64(remaining) else {
            throw MapFileError("\(context): count \(n) at byte \(offset - 8) exceeds the limit or the data left")
        }
        return Int(n)
    }
    /// Length-prefixed bytes, at most `maximum`.
    mutating func bytes(maximum: Int) throws -> [UInt8] {
        let n = try u32()
        guard n <= UInt32(maximum) else { throw MapFileError("\(context): string of \(n) bytes exceeds \(maximum)") }
        return try take(Int(n))
    }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zlib and PNG compute it.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

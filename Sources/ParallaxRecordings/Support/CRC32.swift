import CZlib

/// CRC-32 (the zlib / ISO-HDLC polynomial MCAP uses), computed by zlib for speed.
enum CRC32 {
    /// The CRC of `bytes[range]`, continuing from `start` (0 for a fresh checksum).
    static func checksum(_ bytes: [UInt8], _ range: Range<Int>? = nil, start: UInt32 = 0) -> UInt32 {
        let r = range ?? 0..<bytes.count
        return bytes.withUnsafeBufferPointer { p in
            var crc = UInt(start)
            var offset = r.lowerBound
            // zlib takes a 32-bit length; feed very large runs in pieces.
            while offset < r.upperBound {
                let n = min(r.upperBound - offset, 1 << 30)
                crc = crc32(crc, p.baseAddress! + offset, UInt32(n))
                offset += n
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}

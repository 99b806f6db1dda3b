import CFuzzDriver
import FuzzSupport
import ParallaxMapping

// Fuzzes the world-map reader (`MapFile.decode`, what `--load-map` and `info FILE.map` use).
// Each section carries a CRC-32, so almost every mutation would stop at the checksum: the input
// is decoded once as it is (the checks themselves) and once with every section's checksum
// recomputed, which lets mutations reach the keyframe, point and anchor parsers behind it.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMap(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    _ = try? MapFile.decode(bytes)
    if let resealed = resealed(bytes) { _ = try? MapFile.decode(resealed) }
    return 0
}

/// `bytes` with each section's CRC-32 field set to its payload's checksum (nil when the section
/// table cannot be walked: the plain decode already covers those inputs).
func resealed(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 16 else { return nil }
    var out = bytes
    let sections = Int(readLE(bytes, at: 12, width: 4))
    var offset = 16
    for _ in 0..<min(sections, 64) {
        guard offset + 16 <= bytes.count else { return out }
        let length = readLE(bytes, at: offset + 4, width: 8)
        let start = offset + 16
        guard length <= UInt64(bytes.count - start) else { return out }
        let end = start + Int(length)
        let crc = crc32(Array(bytes[start..<end]))
        for i in 0..<4 { out[offset + 12 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        offset = end
    }
    return out
}

/// Little-endian unsigned integer of `width` bytes at `offset`.
func readLE(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
    (0..<width).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver with this target's callback.
@_cdecl("FuzzMap_main")
public func fuzzMapMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    pxfuzz_run(argc, argv, fuzzMap)
}

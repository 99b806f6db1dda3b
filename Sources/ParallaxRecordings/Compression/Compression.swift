import CBZip2
import CLZ4
import CZstd

/// A chunk compression used by bags (`none`, `bz2`, `lz4`) or MCAP (`""`, `lz4`, `zstd`).
public enum ChunkCompression: String, Sendable, CaseIterable {
    /// Stored as is.
    case none
    /// bzip2 (ROS 1 bags).
    case bz2
    /// The LZ4 frame format (ROS 1 bags and MCAP).
    case lz4
    /// Zstandard (MCAP).
    case zstd

    /// The name a bag's chunk header or an MCAP chunk record gives, or nil for an unknown one.
    init?(recordName: String) {
        switch recordName {
        case "", "none": self = .none
        case "bz2": self = .bz2
        case "lz4": self = .lz4
        case "zstd": self = .zstd
        default: return nil
        }
    }

    /// The largest chunk accepted, uncompressed (bags default to 768 KiB chunks, MCAP writers to a
    /// few MiB; a chunk holds at least one whole message). The size comes from the file, so it is
    /// checked before anything is allocated: the fuzzer's first find was a chunk header claiming
    /// 4 GiB, which the reader allocated.
    static let maximumChunkSize = 256 << 20

    /// Decompresses `input[range]`, which must expand to exactly `size` bytes, into `output`.
    /// Throws a ``ByteError`` describing the library's complaint.
    func decompress(_ input: [UInt8], _ range: Range<Int>, size: Int, into output: inout [UInt8]) throws {
        guard size >= 0, size <= Self.maximumChunkSize else {
            throw ByteError(truncated: false, description: "chunk claims \(size) bytes uncompressed (the limit is \(Self.maximumChunkSize >> 20) MiB)")
        }
        if self == .none, range.count != size {
            throw ByteError(truncated: false, description: "stored chunk holds \(range.count) bytes, header says \(size)")
        }
        if output.count != size { output = [UInt8](repeating: 0, count: size) }
        if range.isEmpty {
            guard size == 0 else {
                throw ByteError(truncated: true, description: "chunk is empty but should expand to \(size) bytes")
            }
            return
        }
        // An empty chunk compressed is a few bytes of framing; nothing to expand.
        if size == 0 && self != .none { return }
        switch self {
        case .none:
            guard range.count == size else {
                throw ByteError(truncated: false, description: "stored chunk holds \(range.count) bytes, header says \(size)")
            }
            output.withUnsafeMutableBufferPointer { out in
                input.withUnsafeBufferPointer { inp in
                    out.baseAddress!.update(from: inp.baseAddress! + range.lowerBound, count: size)
                }
            }
        case .bz2: try Self.bunzip(input, range, into: &output)
        case .lz4: try Self.unlz4(input, range, into: &output)
        case .zstd: try Self.unzstd(input, range, into: &output)
        }
    }

    /// Compresses `input` (deterministically: same input, same bytes).
    func compress(_ input: [UInt8]) throws -> [UInt8] {
        switch self {
        case .none: return input
        case .bz2: return try Self.bzip(input)
        case .lz4: return try Self.lz4(input)
        case .zstd: return try Self.zstd(input)
        }
    }

    private static func bunzip(_ input: [UInt8], _ range: Range<Int>, into output: inout [UInt8]) throws {
        let size = output.count
        var produced = UInt32(truncatingIfNeeded: size)
        let status: Int32 = input.withUnsafeBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                let src = UnsafeMutablePointer(mutating: inp.baseAddress! + range.lowerBound)
                return src.withMemoryRebound(to: CChar.self, capacity: range.count) { s in
                    out.baseAddress!.withMemoryRebound(to: CChar.self, capacity: size) { d in
                        BZ2_bzBuffToBuffDecompress(d, &produced, s, UInt32(range.count), 0, 0)
                    }
                }
            }
        }
        guard status == BZ_OK else {
            throw ByteError(truncated: status == BZ_UNEXPECTED_EOF,
                            description: "bz2 decompression failed (\(bzipStatus(status)))")
        }
        guard Int(produced) == size else {
            throw ByteError(truncated: false, description: "bz2 chunk expands to \(produced) bytes, header says \(size)")
        }
    }

    private static func bzipStatus(_ s: Int32) -> String {
        switch s {
        case BZ_OUTBUFF_FULL: "output larger than the size in the header"
        case BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC: "corrupt data"
        case BZ_UNEXPECTED_EOF: "data ends early"
        case BZ_MEM_ERROR: "out of memory"
        default: "error \(s)"
        }
    }

    private static func bzip(_ input: [UInt8]) throws -> [UInt8] {
        var capacity = UInt32(input.count + input.count / 100 + 600)
        var out = [UInt8](repeating: 0, count: Int(capacity))
        let status: Int32 = input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                let src = UnsafeMutablePointer(mutating: inp.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                return src.withMemoryRebound(to: CChar.self, capacity: max(1, input.count)) { s in
                    o.baseAddress!.withMemoryRebound(to: CChar.self, capacity: o.count) { d in
                        BZ2_bzBuffToBuffCompress(d, &capacity, s, UInt32(input.count), 9, 0, 30)
                    }
                }
            }
        }
        guard status == BZ_OK else { throw ByteError(truncated: false, description: "bz2 compression failed (\(status))") }
        out.removeSubrange(Int(capacity)...)
        return out
    }

    private static func unlz4(_ input: [UInt8], _ range: Range<Int>, into output: inout [UInt8]) throws {
        var context: OpaquePointer?
        guard LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0, let context else {
            throw ByteError(truncated: false, description: "lz4: cannot create a decompression context")
        }
        defer { LZ4F_freeDecompressionContext(context) }
        let size = output.count
        var consumed = 0, produced = 0
        var finished = false
        try input.withUnsafeBufferPointer { inp in
            try output.withUnsafeMutableBufferPointer { out in
                while consumed < range.count {
                    var srcSize = range.count - consumed
                    var dstSize = size - produced
                    let hint = LZ4F_decompress(context, out.baseAddress! + produced, &dstSize,
                                               inp.baseAddress! + range.lowerBound + consumed, &srcSize, nil)
                    if LZ4F_isError(hint) != 0 {
                        throw ByteError(truncated: false,
                                        description: "lz4 decompression failed (\(String(cString: LZ4F_getErrorName(hint))))")
                    }
                    consumed += srcSize
                    produced += dstSize
                    if hint == 0 { finished = true; continue }  // a frame ended; another may follow
                    finished = false
                    if srcSize == 0 && dstSize == 0 { break }  // output full, more was expected
                }
            }
        }
        guard finished else { throw ByteError(truncated: true, description: "lz4 frame ends early") }
        guard produced == size else {
            throw ByteError(truncated: false, description: "lz4 chunk expands to \(produced) bytes, header says \(size)")
        }
    }

    private static func lz4(_ input: [UInt8]) throws -> [UInt8] {
        let bound = LZ4F_compressFrameBound(input.count, nil)
        var out = [UInt8](repeating: 0, count: bound)
        let n = input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                LZ4F_compressFrame(o.baseAddress!, bound, inp.baseAddress, input.count, nil)
            }
        }
        guard LZ4F_isError(n) == 0 else {
            throw ByteError(truncated: false, description: "lz4 compression failed (\(String(cString: LZ4F_getErrorName(n))))")
        }
        out.removeSubrange(n...)
        return out
    }

    private static func unzstd(_ input: [UInt8], _ range: Range<Int>, into output: inout [UInt8]) throws {
        let size = output.count
        let n = input.withUnsafeBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                ZSTD_decompress(out.baseAddress, size, inp.baseAddress! + range.lowerBound, range.count)
            }
        }
        if ZSTD_isError(n) != 0 {
            throw ByteError(truncated: false, description: "zstd decompression failed (\(String(cString: ZSTD_getErrorName(n))))")
        }
        guard n == size else {
            throw ByteError(truncated: false, description: "zstd chunk expands to \(n) bytes, header says \(size)")
        }
    }

    private static func zstd(_ input: [UInt8]) throws -> [UInt8] {
        let bound = ZSTD_compressBound(input.count)
        var out = [UInt8](repeating: 0, count: bound)
        let n = input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in ZSTD_compress(o.baseAddress, bound, inp.baseAddress, input.count, 3) }
        }
        if ZSTD_isError(n) != 0 {
            throw ByteError(truncated: false, description: "zstd compression failed (\(String(cString: ZSTD_getErrorName(n))))")
        }
        out.removeSubrange(n...)
        return out
    }
}

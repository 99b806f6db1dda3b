@testable import ParallaxImaging

/// Builds PNG files byte by byte, independently of libpng, so the decoder can be
/// tested on formats our encoder never writes (palette, low bit depth, tRNS,
/// grey+alpha, Adam7). Image data is zlib with *stored* (uncompressed) deflate
/// blocks (RFC 1950/1951); scanline filters cycle through `filters`.
struct RawPNGBuilder {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int
    var interlaced = false
    var palette: [(UInt8, UInt8, UInt8)] = []
    var transparency: [UInt8]? = nil
    /// Samples row-major, one entry per sample (palette index, grey, r, g, b, a...), before packing.
    var samples: [Int]
    /// Filter types (PNG spec §9.2) used for successive scanlines, cycling.
    var filters: [UInt8] = [0]
    /// Largest IDAT payload; the zlib stream is split across several IDAT chunks beyond it.
    var idatSize = Int.max

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    func build() -> [UInt8] {
        var out: [UInt8] = PNG.signature
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
        out += chunk("IHDR", ihdr)
        if !palette.isEmpty { out += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if let transparency { out += chunk("tRNS", transparency) }
        let stream = zlibStored(scanlines())
        for start in stride(from: 0, to: stream.count, by: min(idatSize, stream.count)) {
            out += chunk("IDAT", Array(stream[start..<min(start + idatSize, stream.count)]))
        }
        out += chunk("IEND", [])
        return out
    }

    /// Filtered scanlines: for Adam7 the seven reduced images one after another (PNG spec §8.2).
    func scanlines() -> [UInt8] {
        guard interlaced else { return packRows(xs: Array(0..<width), ys: Array(0..<height)) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var data: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            if !xs.isEmpty && !ys.isEmpty { data += packRows(xs: xs, ys: ys) }
        }
        return data
    }

    func packRows(xs: [Int], ys: [Int]) -> [UInt8] {
        var data: [UInt8] = []
        // Bytes per complete pixel, at least one (PNG spec §9.2).
        let bpp = max(1, channels * bitDepth / 8)
        var previous: [UInt8] = []
        for (index, y) in ys.enumerated() {
            var row: [UInt8] = []
            var bits: [Int] = []
            for x in xs { for c in 0..<channels { bits.append(samples[(y * width + x) * channels + c]) } }
            if bitDepth == 16 {
                for v in bits { row += [UInt8(v >> 8), UInt8(v & 0xFF)] }
            } else if bitDepth == 8 {
                row += bits.map { UInt8($0) }
            } else {
                // Pack MSB first, rows padded to a whole byte.
                var byte = 0, used = 0
                for v in bits {
                    byte = (byte << bitDepth) | v
                    used += bitDepth
                    if used == 8 {
                        row.append(UInt8(byte))
                        byte = 0
                        used = 0
                    }
                }
                if used > 0 { row.append(UInt8(byte << (8 - used))) }
            }
            let filter = filters[index % filters.count]
            if previous.isEmpty { previous = [UInt8](repeating: 0, count: row.count) }
            data.append(filter)
            data += Self.filter(row, previous: previous, type: filter, bpp: bpp)
            previous = row
        }
        return data
    }

    /// Applies filter `type` to `row` (the encoder's side of PNG spec §9.2-9.4).
    static func filter(_ row: [UInt8], previous: [UInt8], type: UInt8, bpp: Int) -> [UInt8] {
        row.indices.map { i in
            let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(previous[i]), c = i >= bpp ? Int(previous[i - bpp]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            default: predictor = 0  // invalid types carry the raw bytes, for error tests
            }
            return UInt8(truncatingIfNeeded: Int(row[i]) - predictor)
        }
    }

    func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        return be32(UInt32(payload.count)) + body + be32(CRC32.checksum(body))
    }

    func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }
}

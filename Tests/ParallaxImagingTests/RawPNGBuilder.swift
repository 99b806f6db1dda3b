@testable import ParallaxImaging

/// Builds PNG files byte by byte, independently of libpng, so the decoder can be
/// tested on formats our encoder never writes (palette, low bit depth, tRNS,
/// grey+alpha, Adam7). Image data is zlib with *stored* (uncompressed) deflate
/// blocks (RFC 1950/1951), and every scanline uses filter type 0.
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

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    func build() -> [UInt8] {
        var out: [UInt8] = PNG.signature
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
        out += chunk("IHDR", ihdr)
        if !palette.isEmpty { out += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if let transparency { out += chunk("tRNS", transparency) }
        out += chunk("IDAT", zlibStored(scanlines()))
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
        for y in ys {
            data.append(0)  // filter type None
            var bits: [Int] = []
            for x in xs { for c in 0..<channels { bits.append(samples[(y * width + x) * channels + c]) } }
            if bitDepth == 16 {
                for v in bits { data += [UInt8(v >> 8), UInt8(v & 0xFF)] }
            } else if bitDepth == 8 {
                data += bits.map { UInt8($0) }
            } else {
                // Pack MSB first, rows padded to a whole byte.
                var byte = 0, used = 0
                for v in bits {
                    byte = (byte << bitDepth) | v
                    used += bitDepth
                    if used == 8 {
                        data.append(UInt8(byte))
                        byte = 0
                        used = 0
                    }
                }
                if used > 0 { data.append(UInt8(byte << (8 - used))) }
            }
        }
        return data
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

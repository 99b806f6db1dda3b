import Foundation
import Testing

@testable import ParallaxImaging

/// The direct zlib + unfilter path in CPNGSupport (non-interlaced 8/16-bit images
/// without palette or tRNS) must decode exactly like the reference: every filter
/// type, every pixel size, split IDATs, and both checksum policies.
@Suite struct PNGDirectPathTests {
    /// Samples spread over the whole range so every Paeth branch gets taken.
    static func samples(_ count: Int, bitDepth: Int, seed: UInt64) -> [Int] {
        var rng = TestRandom(seed: seed)
        let top = UInt64(1 << bitDepth)
        return (0..<count).map { i in
            // Mix smooth ramps with noise: ties and all three predictors occur.
            i % 3 == 0 ? Int(rng.next() % top) : (i * 37) % Int(top)
        }
    }

    /// The decoder's expected output for `b`, packed like ``PixelUnpacking/pack(_:)``:
    /// the samples in order (16-bit big-endian), grey+alpha widened to RGBA.
    static func expected(_ b: RawPNGBuilder) -> [UInt8] {
        var samples: [Int] = []
        if b.colorType == 4 {
            for i in 0..<(b.width * b.height) {
                let g = b.samples[2 * i]
                samples += [g, g, g, b.samples[2 * i + 1]]
            }
        } else {
            samples = b.samples
        }
        if b.bitDepth == 8 { return samples.map { UInt8($0) } }
        return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static func packed(_ image: AnyImage) -> [UInt8] { PixelUnpacking.pack(image) }

    @Test(arguments: [(0, 8), (0, 16), (2, 8), (2, 16), (4, 8), (4, 16), (6, 8), (6, 16)])
    func everyFilterAndPixelSize(colorType: Int, bitDepth: Int) throws {
        var b = RawPNGBuilder(width: 23, height: 11, bitDepth: bitDepth, colorType: colorType, samples: [])
        b.samples = Self.samples(23 * 11 * b.channels, bitDepth: bitDepth, seed: UInt64(colorType * 100 + bitDepth))
        let want = Self.expected(b)
        // Each filter on every row, then all five mixed (first row included).
        for filters: [UInt8] in [[0], [1], [2], [3], [4], [4, 3, 2, 1, 0]] {
            b.filters = filters
            for checksums in [PNGChecksumPolicy.verify, .skip] {
                let got = try PNG.decode(b.build(), name: "f\(filters).png", checksums: checksums)
                #expect(Self.packed(got) == want, "filters \(filters), type \(colorType), depth \(bitDepth)")
            }
            // The same rows interlaced go through libpng: both paths agree.
            var interlaced = b
            interlaced.interlaced = true
            #expect(Self.packed(try PNG.decode(interlaced.build(), name: "i.png")) == want)
        }
    }

    @Test func splitAndEmptyIDATChunks() throws {
        var b = RawPNGBuilder(width: 40, height: 30, bitDepth: 8, colorType: 0, samples: Self.samples(1200, bitDepth: 8, seed: 7))
        b.filters = [4, 1, 3]
        let want = Self.expected(b)
        for size in [1, 7, 100] {
            b.idatSize = size
            #expect(Self.packed(try PNG.decode(b.build(), name: "split.png")) == want)
        }
        // A zero-length IDAT in the middle of the run.
        b.idatSize = 100
        var bytes = b.build()
        let idat = try #require(chunkRange(bytes, type: "IDAT"))
        bytes.insert(contentsOf: b.chunk("IDAT", []), at: idat.data.upperBound + 4)
        #expect(Self.packed(try PNG.decode(bytes, name: "empty-idat.png", checksums: .skip)) == want)
    }

    @Test func invalidFilterTypeIsCorrupt() throws {
        var b = RawPNGBuilder(width: 8, height: 4, bitDepth: 8, colorType: 0, samples: Self.samples(32, bitDepth: 8, seed: 3))
        b.filters = [0, 5]
        for checksums in [PNGChecksumPolicy.verify, .skip] {
            #expect { try PNG.decode(b.build(), name: "filter5.png", checksums: checksums) } throws: {
                ($0 as? ImageError)?.kind == .corrupt && "\($0)".hasPrefix("filter5.png: ")
            }
        }
    }

    @Test func skippingChecksumsAcceptsBadCRCsButVerifyingRejectsThem() throws {
        let image = GrayImage(width: 64, height: 48) { x, y in UInt8((x * 7 + y * 13) & 0xFF) }
        var bytes = try PNG.encode(.gray8(image))
        let idat = try #require(chunkRange(bytes, type: "IDAT"))
        bytes[idat.data.upperBound] ^= 0xFF  // first byte of the IDAT CRC
        #expect { try PNG.decode(bytes, name: "crc.png") } throws: { ($0 as? ImageError)?.kind == .corrupt }
        guard case .gray8(let decoded) = try PNG.decode(bytes, name: "crc.png", checksums: .skip) else {
            throw TestFailure(text: "not gray8")
        }
        #expect(decoded.pixels == image.pixels)
    }

    @Test func skippingChecksumsStillRejectsTruncatedFiles() throws {
        let image = GrayImage(width: 64, height: 48) { x, y in UInt8((x * 7 + y * 13) & 0xFF) }
        let bytes = try PNG.encode(.gray8(image))
        for cut in [40, bytes.count / 2, bytes.count - 12, bytes.count - 1] {
            #expect { try PNG.decode(Array(bytes[0..<cut]), name: "cut.png", checksums: .skip) } throws: {
                ($0 as? ImageError)?.kind == .truncated && "\($0)".hasPrefix("cut.png: ")
            }
        }
    }
}

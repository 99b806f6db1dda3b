import Testing

@testable import ParallaxImaging

/// Decoding of PNG flavours our encoder never writes, built byte by byte.
@Suite struct PNGFormatTests {
    @Test func builderMatchesLibpngOnPlainGray() throws {
        let samples = (0..<(5 * 3)).map { $0 * 17 }
        let bytes = RawPNGBuilder(width: 5, height: 3, bitDepth: 8, colorType: 0, samples: samples).build()
        guard case .gray8(let image) = try PNG.decode(bytes, name: "raw") else { Issue.record("format"); return }
        #expect(image.pixels == samples.map { UInt8($0) })
    }

    @Test func lowBitDepthGrayIsScaledTo8Bit() throws {
        for depth in [1, 2, 4] {
            let maxValue = (1 << depth) - 1
            let samples = (0..<(7 * 3)).map { $0 % (maxValue + 1) }
            let bytes = RawPNGBuilder(width: 7, height: 3, bitDepth: depth, colorType: 0, samples: samples).build()
            guard case .gray8(let image) = try PNG.decode(bytes, name: "g\(depth)") else {
                Issue.record("format for depth \(depth)"); continue
            }
            // PNG spec §13.12: scale by 255 / (2^depth - 1), exact for these depths.
            #expect(image.pixels == samples.map { UInt8($0 * 255 / maxValue) }, "depth \(depth)")
        }
    }

    @Test func paletteExpandsToRGB() throws {
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30)]
        let samples = (0..<(6 * 2)).map { $0 % 4 }
        for depth in [2, 4, 8] {
            let bytes = RawPNGBuilder(width: 6, height: 2, bitDepth: depth, colorType: 3, palette: palette, samples: samples)
                .build()
            guard case .rgb8(let image) = try PNG.decode(bytes, name: "p\(depth)") else {
                Issue.record("format for depth \(depth)"); continue
            }
            #expect(image.pixels == samples.map { RGB8(r: palette[$0].0, g: palette[$0].1, b: palette[$0].2) })
        }
    }

    @Test func paletteWithTransparencyExpandsToRGBA() throws {
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
        let samples = [0, 1, 2, 2, 1, 0]
        let bytes = RawPNGBuilder(
            width: 3, height: 2, bitDepth: 8, colorType: 3, palette: palette, transparency: [0, 128], samples: samples
        ).build()
        guard case .rgba8(let image) = try PNG.decode(bytes, name: "ptrns") else { Issue.record("format"); return }
        // tRNS shorter than the palette: missing entries are opaque (PNG spec §11.3.2.1).
        let alpha: [UInt8] = [0, 128, 255]
        #expect(image.pixels == samples.map { RGBA8(r: palette[$0].0, g: palette[$0].1, b: palette[$0].2, a: alpha[$0]) })
    }

    @Test func grayAlphaBecomesRGBA() throws {
        let samples8 = [10, 255, 20, 0, 30, 128, 40, 64]
        let b8 = RawPNGBuilder(width: 2, height: 2, bitDepth: 8, colorType: 4, samples: samples8).build()
        guard case .rgba8(let i8) = try PNG.decode(b8, name: "ga8") else { Issue.record("format"); return }
        #expect(i8[1, 0] == RGBA8(gray: 20, a: 0))
        #expect(i8[1, 1] == RGBA8(gray: 40, a: 64))

        let samples16 = [0x1234, 0xFFFF, 0xABCD, 0x0001]
        let b16 = RawPNGBuilder(width: 2, height: 1, bitDepth: 16, colorType: 4, samples: samples16).build()
        guard case .rgba16(let i16) = try PNG.decode(b16, name: "ga16") else { Issue.record("format"); return }
        #expect(i16.pixels == [RGBA16(r: 0x1234, g: 0x1234, b: 0x1234, a: 0xFFFF), RGBA16(r: 0xABCD, g: 0xABCD, b: 0xABCD, a: 1)])
    }

    @Test func grayColourKeyBecomesAlpha() throws {
        // tRNS for grey holds one 16-bit sample value that is fully transparent.
        let b8 = RawPNGBuilder(width: 3, height: 1, bitDepth: 8, colorType: 0, transparency: [0, 7], samples: [7, 8, 7])
            .build()
        guard case .rgba8(let i8) = try PNG.decode(b8, name: "gt8") else { Issue.record("format"); return }
        #expect(i8.pixels.map(\.a) == [0, 255, 0])
        #expect(i8.pixels.map(\.r) == [7, 8, 7])

        let b16 = RawPNGBuilder(
            width: 2, height: 1, bitDepth: 16, colorType: 0, transparency: [0x12, 0x34], samples: [0x1234, 0x3412]
        ).build()
        guard case .rgba16(let i16) = try PNG.decode(b16, name: "gt16") else { Issue.record("format"); return }
        #expect(i16.pixels == [RGBA16(r: 0x1234, g: 0x1234, b: 0x1234, a: 0), RGBA16(r: 0x3412, g: 0x3412, b: 0x3412, a: 0xFFFF)])
    }

    @Test func rgbColourKeyBecomesAlpha() throws {
        let bytes = RawPNGBuilder(
            width: 2, height: 1, bitDepth: 8, colorType: 2, transparency: [0, 1, 0, 2, 0, 3],
            samples: [1, 2, 3, 1, 2, 4]
        ).build()
        guard case .rgba8(let image) = try PNG.decode(bytes, name: "rgbtrns") else { Issue.record("format"); return }
        #expect(image.pixels == [RGBA8(r: 1, g: 2, b: 3, a: 0), RGBA8(r: 1, g: 2, b: 4, a: 255)])
    }

    @Test func big16BitGrayIsReadBigEndian() throws {
        let samples = [0x0102, 0xFF00, 0x00FF, 0x8001]
        let bytes = RawPNGBuilder(width: 4, height: 1, bitDepth: 16, colorType: 0, samples: samples).build()
        guard case .gray16(let image) = try PNG.decode(bytes, name: "g16") else { Issue.record("format"); return }
        #expect(image.pixels == samples.map { UInt16($0) })
        let info = try PNG.parseHeader(bytes, name: "g16")
        #expect(info.bitDepth == 16 && info.channels == 1 && info.colorType == 0)
    }

    @Test func adam7InterlacedMatchesProgressive() throws {
        var rng = TestRandom(seed: 7)
        let samples = (0..<(13 * 11 * 3)).map { _ in Int(rng.u8()) }
        let plain = RawPNGBuilder(width: 13, height: 11, bitDepth: 8, colorType: 2, samples: samples)
        var laced = plain
        laced.interlaced = true
        guard case .rgb8(let a) = try PNG.decode(plain.build(), name: "plain"),
            case .rgb8(let b) = try PNG.decode(laced.build(), name: "adam7")
        else { Issue.record("format"); return }
        #expect(a == b)
        #expect(try PNG.parseHeader(laced.build(), name: "adam7").interlaced)
    }

    @Test func missingPaletteIsAnErrorNotACrash() throws {
        let bytes = RawPNGBuilder(width: 2, height: 2, bitDepth: 8, colorType: 3, samples: [0, 0, 0, 0]).build()
        #expect(throws: ImageError.self) { try PNG.decode(bytes, name: "nopal.png") }
    }

    @Test func invalidDepthForColourTypeIsRejected() throws {
        var bytes = RawPNGBuilder(width: 1, height: 1, bitDepth: 8, colorType: 2, samples: [1, 2, 3]).build()
        bytes[24] = 4  // RGB may not be 4-bit
        bytes.replaceSubrange(29..<33, with: be32(CRC32.checksum(bytes[12..<29])))
        #expect(throws: ImageError.self) { try PNG.decode(bytes, name: "bad.png") }
        #expect(throws: ImageError.self) { try PNG.parseHeader(bytes, name: "bad.png") }
    }
}

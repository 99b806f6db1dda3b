import Foundation
import Testing

@testable import ParallaxImaging
import ParallaxMath

/// The shared seeded generator (ParallaxMath's SplitMix64), so test images are reproducible.
typealias TestRandom = SplitMix64

extension SplitMix64 {
    mutating func u8() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    mutating func u16() -> UInt16 { UInt16(truncatingIfNeeded: next()) }
}

@Suite struct PNGRoundTripTests {
    @Test func gray8RoundTrip() throws {
        var rng = TestRandom(seed: 1)
        let image = GrayImage(width: 37, height: 23) { _, _ in rng.u8() }
        let decoded = try PNG.decode(PNG.encode(.gray8(image)), name: "gray8")
        guard case .gray8(let back) = decoded else { Issue.record("wrong format \(decoded)"); return }
        #expect(back == image)
    }

    @Test func gray16RoundTripIsBitExact() throws {
        var rng = TestRandom(seed: 2)
        var image = Gray16Image(width: 31, height: 17) { _, _ in rng.u16() }
        // Values whose two bytes differ catch a byte-order mistake.
        image[0, 0] = 0x0102
        image[1, 0] = 0xFF00
        image[2, 0] = 0x00FF
        let bytes = try PNG.encode(.gray16(image))
        let decoded = try PNG.decode(bytes, name: "gray16")
        guard case .gray16(let back) = decoded else { Issue.record("wrong format \(decoded)"); return }
        #expect(back == image)
        // PNG stores samples big-endian: find the IDAT-independent fact via a stored 1×1 image.
        let one = try PNG.encode(.gray16(Gray16Image(width: 1, height: 1, fill: 0x0102)), compressionLevel: 0)
        // With compression level 0 zlib stores the filtered row literally: filter byte 0, then 0x01 0x02.
        #expect(containsSubsequence(one, [0x00, 0x01, 0x02]))
    }

    @Test func rgb8RoundTrip() throws {
        var rng = TestRandom(seed: 3)
        let image = RGBImage(width: 19, height: 11) { _, _ in RGB8(r: rng.u8(), g: rng.u8(), b: rng.u8()) }
        guard case .rgb8(let back) = try PNG.decode(PNG.encode(.rgb8(image)), name: "rgb8") else {
            Issue.record("wrong format"); return
        }
        #expect(back == image)
    }

    @Test func rgba8RoundTripKeepsStraightAlpha() throws {
        var rng = TestRandom(seed: 4)
        var image = RGBAImage(width: 13, height: 9) { _, _ in RGBA8(r: rng.u8(), g: rng.u8(), b: rng.u8(), a: rng.u8()) }
        image[0, 0] = RGBA8(r: 200, g: 100, b: 50, a: 0)  // colour under zero alpha must survive
        guard case .rgba8(let back) = try PNG.decode(PNG.encode(.rgba8(image)), name: "rgba8") else {
            Issue.record("wrong format"); return
        }
        #expect(back == image)
    }

    @Test func rgb16RoundTripIsBitExact() throws {
        var rng = TestRandom(seed: 5)
        let image = Image<RGB16>(width: 17, height: 7) { _, _ in RGB16(r: rng.u16(), g: rng.u16(), b: rng.u16()) }
        guard case .rgb16(let back) = try PNG.decode(PNG.encode(.rgb16(image)), name: "rgb16") else {
            Issue.record("wrong format"); return
        }
        #expect(back == image)
    }

    @Test func rgba16RoundTripIsBitExact() throws {
        var rng = TestRandom(seed: 6)
        var image = Image<RGBA16>(width: 11, height: 5) { _, _ in
            RGBA16(r: rng.u16(), g: rng.u16(), b: rng.u16(), a: rng.u16())
        }
        // Low alpha with high colour: premultiplication (simplified API) would destroy this.
        image[0, 0] = RGBA16(r: 65535, g: 1234, b: 4321, a: 1)
        guard case .rgba16(let back) = try PNG.decode(PNG.encode(.rgba16(image)), name: "rgba16") else {
            Issue.record("wrong format"); return
        }
        #expect(back == image)
    }

    @Test func fileRoundTripAndInfo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("plot.png")
        let image = RGBAImage(width: 40, height: 30) { x, y in RGBA8(r: UInt8(x), g: UInt8(y), b: 7, a: 255) }
        try PNG.write(.rgba8(image), to: url)
        let info = try PNG.readInfo(contentsOf: url)
        #expect(info == PNGInfo(width: 40, height: 30, bitDepth: 8, channels: 4, colorType: 6, interlaced: false))
        guard case .rgba8(let back) = try PNG.read(contentsOf: url) else { Issue.record("wrong format"); return }
        #expect(back == image)
    }

    @Test func encodeRejectsEmptyImage() {
        #expect(throws: ImageError.self) { try PNG.encode(.gray8(GrayImage(width: 0, height: 5, fill: 0))) }
    }
}

func containsSubsequence(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
        return true
    }
    return false
}

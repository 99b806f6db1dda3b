import Testing

@testable import ParallaxImaging

@Suite struct ImageTests {
    @Test func rowMajorTopLeftLayoutAndSubscript() throws {
        var image = try GrayImage(width: 3, height: 2, pixels: [0, 1, 2, 10, 11, 12])
        #expect(image[2, 0] == 2)
        #expect(image[0, 1] == 10)
        image[1, 1] = 99
        #expect(image.pixels[4] == 99)
        #expect(image.pixel(x: 3, y: 0) == nil)
        #expect(image.pixel(x: -1, y: 0) == nil)
        #expect(image.pixel(x: 2, y: 1) == 12)
    }

    @Test func pixelCountMismatchThrows() {
        #expect(throws: ImageError.self) { try GrayImage(width: 3, height: 2, pixels: [1, 2, 3]) }
        #expect(throws: ImageError.self) { try GrayImage(width: -1, height: 2, pixels: []) }
    }

    @Test func cropSharesStorageAndCopies() {
        let image = GrayImage(width: 10, height: 8) { x, y in UInt8(y * 10 + x) }
        let view = image.crop(x: 2, y: 3, width: 4, height: 2)
        #expect(view.width == 4 && view.height == 2)
        #expect(view[0, 0] == 32)
        #expect(view[3, 1] == 45)
        let inner = view.crop(x: 1, y: 1, width: 10, height: 10)  // clipped to the view
        #expect(inner.width == 3 && inner.height == 1)
        #expect(inner[0, 0] == 43)
        let copy = view.copy()
        #expect(copy.width == 4 && copy.height == 2)
        #expect(copy.pixels == [32, 33, 34, 35, 42, 43, 44, 45])
        let clipped = image.crop(x: 8, y: -2, width: 5, height: 4)
        #expect(clipped.width == 2 && clipped.height == 2)
        #expect(clipped.copy().pixels == [8, 9, 18, 19])
        #expect(image.crop(x: 20, y: 20, width: 5, height: 5).copy().isEmpty)
    }

    @Test func grayColourConversions() {
        let gray = GrayImage(width: 2, height: 1) { x, _ in x == 0 ? 0 : 200 }
        #expect(gray.toRGB().pixels == [RGB8(gray: 0), RGB8(gray: 200)])
        #expect(gray.toRGBA().pixels == [RGBA8(gray: 0), RGBA8(gray: 200)])
        // BT.601: pure red → 76.2 → 76, green → 149.7 → 150, blue → 29.1 → 29; grey stays grey.
        let rgb = RGBImage(width: 4, height: 1) { x, _ in
            [RGB8(r: 255, g: 0, b: 0), RGB8(r: 0, g: 255, b: 0), RGB8(r: 0, g: 0, b: 255), RGB8(gray: 123)][x]
        }
        #expect(rgb.toGray().pixels == [76, 150, 29, 123])
        #expect(rgb.toRGBA().toGray().pixels == [76, 150, 29, 123])
        #expect(rgb.toRGBA().toRGB() == rgb)
    }

    @Test func sixteenToEightBitRounds() {
        let image = Gray16Image(width: 5, height: 1) { x, _ in [0, 128, 129, 65535, 257 * 100][x] }
        // v·255/65535: 128 → 0.498 → 0, 129 → 0.502 → 1.
        #expect(image.to8Bit().pixels == [0, 0, 1, 255, 100])
        // 8 → 16 → 8 is the identity for every value.
        let all = GrayImage(width: 256, height: 1) { x, _ in UInt8(x) }
        #expect(all.to16Bit().to8Bit() == all)
        let rgba = Image<RGBA16>(width: 1, height: 1, fill: RGBA16(r: 65535, g: 257, b: 0, a: 32896))
        #expect(rgba.to8Bit()[0, 0] == RGBA8(r: 255, g: 1, b: 0, a: 128))
    }

    @Test func floatConversions() {
        let gray = GrayImage(width: 3, height: 1) { x, _ in [0, 51, 255][x] }
        let f = gray.toFloat()
        #expect(f.pixels == [0, 0.2, 1])
        #expect(f.toGray8() == gray)
        let wild = FloatImage(width: 4, height: 1) { x, _ in [-1, 2, .nan, 0.5][x] }
        #expect(wild.toGray8().pixels == [0, 255, 0, 128])
        let g16 = Gray16Image(width: 1, height: 1, fill: 65535).toFloat()
        #expect(g16[0, 0] == 1)
        let ramp = FloatImage(width: 3, height: 1) { x, _ in Float(x) * 10 - 5 }
        #expect(ramp.normalizedToGray8().pixels == [0, 128, 255])
    }

    @Test func anyImageAccessors() {
        let rgba16 = AnyImage.rgba16(Image(width: 3, height: 2, fill: RGBA16(r: 65535, g: 0, b: 0)))
        #expect(rgba16.width == 3 && rgba16.height == 2 && rgba16.bitDepth == 16 && rgba16.channels == 4)
        #expect(rgba16.toRGBA8()[2, 1] == RGBA8(r: 255, g: 0, b: 0))
        #expect(rgba16.toGray8()[0, 0] == 76)
        let g16 = AnyImage.gray16(Gray16Image(width: 1, height: 1, fill: 257 * 7))
        #expect(g16.toGray8()[0, 0] == 7)
        #expect(g16.toRGBA8()[0, 0] == RGBA8(gray: 7))
    }

    @Test func pasteClipsAndOverwrites() {
        var canvas = GrayImage(width: 5, height: 3, fill: 0)
        let tile = GrayImage(width: 3, height: 2) { x, y in UInt8(1 + x + 3 * y) }
        canvas.paste(tile, x: 3, y: 2)  // only the top-left 2×1 part fits
        #expect(canvas.pixels == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
        canvas.paste(tile, x: -1, y: -1)
        #expect(canvas[0, 0] == 5 && canvas[1, 0] == 6 && canvas[2, 0] == 0)
        canvas.paste(tile, x: 10, y: 0)
        #expect(canvas[4, 2] == 2)
    }
}

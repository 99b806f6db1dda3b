import ParallaxMath
import Testing

@testable import ParallaxImaging

@Suite struct DrawingTests {
    let blank = RGBAImage(width: 20, height: 12, fill: .black)

    /// Pixels that differ from black.
    func inked(_ image: RGBAImage) -> Set<[Int]> {
        var set = Set<[Int]>()
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y] != .black { set.insert([x, y]) }
        }
        return set
    }

    @Test func horizontalLineCoversExactlyItsPixels() {
        var image = blank
        image.drawLine(from: Vector2(2, 5), to: Vector2(12, 5), color: .red)
        #expect(inked(image) == Set((2...12).map { [$0, 5] }))
        #expect(image[7, 5] == .red)
    }

    @Test func verticalThickLine() {
        var image = blank
        image.drawLine(from: Vector2(4, 1), to: Vector2(4, 9), color: .green, thickness: 3, antialiased: false)
        // Round caps of radius 1.5 add the pixels directly above and below the ends.
        for y in 1...9 { for x in 3...5 { #expect(image[x, y] == .green, "(\(x), \(y))") } }
        #expect(image[4, 0] == .green && image[4, 10] == .green)
        // (3, 0) is √2 < 1.5 from the end point, (2, 1) is 2 away.
        #expect(image[3, 0] == .green && image[5, 0] == .green)
        #expect(image[2, 1] == .black && image[6, 5] == .black && image[2, 5] == .black)
    }

    @Test func diagonalLineIsContinuousAndAntialiased() {
        var image = blank
        image.drawLine(from: Vector2(1, 1), to: Vector2(10, 10), color: .white)
        for i in 1...10 { #expect(image[i, i] == .white) }
        // Neighbours at distance 1/√2 get partial coverage: grey, not black or white.
        let side = image[2, 1]
        #expect(side.r > 0 && side.r < 255 && side.r == side.g)
        #expect(image[5, 1] == .black)

        var hard = blank
        hard.drawLine(from: Vector2(1, 1), to: Vector2(10, 10), color: .white, antialiased: false)
        #expect(inked(hard) == Set((1...10).map { [$0, $0] }))
    }

    @Test func shallowLineHasOnePixelPerColumn() {
        var image = blank
        image.drawLine(from: Vector2(0, 2), to: Vector2(19, 8), color: .white, antialiased: false)
        for x in 0..<20 {
            let column = (0..<12).filter { image[x, $0] != .black }
            #expect(column.count >= 1 && column.count <= 2, "column \(x): \(column)")
        }
    }

    @Test func offscreenAndDegenerateInputsAreClipped() {
        var image = blank
        image.drawLine(from: Vector2(-100, -100), to: Vector2(1e12, 1e12), color: .red)
        image.drawLine(from: Vector2(.nan, 0), to: Vector2(3, 3), color: .blue)
        image.fillCircle(center: Vector2(1e15, 0), radius: 3, color: .blue)
        image.drawText("hi", x: Int.max / 2, y: -5, color: .white, scale: 1_000_000)
        image.fillRect(x: -5, y: -5, width: 7, height: 7, color: .blue)
        #expect(image[0, 0] == .blue)
        #expect(image[1, 1] == .blue)
        #expect(image[2, 2] == .red)
        #expect(image[11, 11] == .red && image[11, 9] == .black)
        var point = blank
        point.drawLine(from: Vector2(5, 5), to: Vector2(5, 5), color: .red)
        #expect(inked(point) == [[5, 5]])
    }

    @Test func fillRectAndStrokeRect() {
        var image = blank
        image.fillRect(x: 2, y: 3, width: 4, height: 2, color: .yellow)
        #expect(inked(image) == Set((3...4).flatMap { y in (2...5).map { [$0, y] } }))
        var frame = blank
        frame.strokeRect(x: 1, y: 1, width: 5, height: 4, color: .cyan)
        #expect(frame[1, 1] == .cyan && frame[5, 4] == .cyan && frame[3, 1] == .cyan && frame[1, 3] == .cyan)
        #expect(frame[3, 2] == .black && frame[6, 1] == .black)
        #expect(inked(frame).count == 2 * 5 + 2 * 2)
    }

    @Test func fillCircleIsSymmetricAndRound() {
        var image = RGBAImage(width: 21, height: 21, fill: .black)
        image.fillCircle(center: Vector2(10, 10), radius: 5, color: .white, antialiased: false)
        #expect(image[10, 10] == .white && image[15, 10] == .white && image[10, 5] == .white)
        #expect(image[16, 10] == .black && image[14, 14] == .black)  // corner of the bounding box is outside
        let count = inked(image).count
        #expect(abs(Double(count) - Double.pi * 25) < 10)  // 81 lattice points vs π r² ≈ 78.5
        for p in inked(image) { #expect(image[20 - p[0], p[1]] == .white && image[p[0], 20 - p[1]] == .white) }

        var ring = RGBAImage(width: 21, height: 21, fill: .black)
        ring.strokeCircle(center: Vector2(10, 10), radius: 6, color: .white, antialiased: false)
        #expect(ring[16, 10] == .white && ring[10, 4] == .white && ring[10, 10] == .black)
    }

    @Test func alphaBlendingIsSourceOver() {
        var image = RGBAImage(width: 2, height: 1, fill: RGBA8(r: 0, g: 0, b: 200, a: 255))
        image.fillRect(x: 0, y: 0, width: 1, height: 1, color: RGBA8(r: 255, g: 0, b: 0, a: 128))
        // 255·(128/255) = 128, 200·(127/255) ≈ 99.6 → 100.
        #expect(image[0, 0] == RGBA8(r: 128, g: 0, b: 100, a: 255))
        image.blendPixel(x: 1, y: 0, color: .white, coverage: 0)
        #expect(image[1, 0] == RGBA8(r: 0, g: 0, b: 200, a: 255))
        var clear = RGBAImage(width: 1, height: 1, fill: .clear)
        clear.blendPixel(x: 0, y: 0, color: RGBA8(r: 10, g: 20, b: 30, a: 255), coverage: 0.5)
        #expect(clear[0, 0].a == 128)
    }

    @Test func polylineConnectsPointsAndCloses() {
        var image = blank
        let square = [Vector2(2, 2), Vector2(8, 2), Vector2(8, 8), Vector2(2, 8)]
        image.drawPolyline(square, color: .magenta, antialiased: false)
        #expect(image[5, 2] == .magenta && image[8, 5] == .magenta && image[5, 8] == .magenta)
        #expect(image[2, 5] == .black)
        image.drawPolyline(square, color: .magenta, closed: true, antialiased: false)
        #expect(image[2, 5] == .magenta)
        #expect(inked(image).count == 24)
    }

    @Test func crossMarker() {
        var image = blank
        image.drawCross(at: Vector2(10, 6), size: 2, color: .green)
        #expect(inked(image) == [[8, 6], [9, 6], [10, 6], [11, 6], [12, 6], [10, 4], [10, 5], [10, 7], [10, 8]])
    }
}

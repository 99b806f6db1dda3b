import Testing

@testable import ParallaxImaging

@Suite struct SamplingTests {
    /// f(x, y) = 3x + 5y + 1 is reproduced exactly by bilinear interpolation.
    let plane = FloatImage(width: 6, height: 5) { x, y in Float(3 * x + 5 * y + 1) }

    @Test func bilinearReproducesAPlane() {
        #expect(plane.bilinear(x: 2, y: 3) == 22)
        #expect(abs(plane.bilinear(x: 2.25, y: 1.5) - (6.75 + 7.5 + 1)) < 1e-5)
        #expect(abs(plane.bilinear(at: SIMD2(4.9, 3.1)) - (14.7 + 15.5 + 1)) < 1e-4)
    }

    @Test func bilinearMixesFourNeighbours() {
        let image = FloatImage(width: 2, height: 2) { x, y in [[0, 1], [2, 7]][y][x] }
        // Centre: (0 + 1 + 2 + 7) / 4.
        #expect(image.bilinear(x: 0.5, y: 0.5) == 2.5)
        #expect(abs(image.bilinear(x: 0.25, y: 0.75) - (0.75 * 0.25 * 0 + 0.25 * 0.25 * 1 + 0.75 * 0.75 * 2 + 0.25 * 0.75 * 7)) < 1e-6)
    }

    @Test func bilinearClampsAtTheBorder() {
        #expect(plane.bilinear(x: -3, y: 0) == 1)
        #expect(plane.bilinear(x: 100, y: 100) == Float(3 * 5 + 5 * 4 + 1))
        #expect(plane.bilinearIfInside(x: 5, y: 4) == 36)
        #expect(plane.bilinearIfInside(x: 5.01, y: 1) == nil)
        #expect(plane.bilinearIfInside(x: -0.01, y: 1) == nil)
        #expect(plane.bilinear(x: .nan, y: 1).isNaN)
        #expect(FloatImage(width: 0, height: 0, fill: 0).bilinear(x: 0, y: 0).isNaN)
    }

    @Test func grayBilinear() {
        let gray = GrayImage(width: 2, height: 1) { x, _ in x == 0 ? 10 : 20 }
        #expect(gray.bilinear(x: 0.5, y: 0) == 15)
        #expect(gray.bilinear(x: 0.1, y: 0.7) == 11)
    }

    @Test func boxDownsample() {
        let image = FloatImage(width: 5, height: 3) { x, y in Float(y * 5 + x) }
        let half = image.downsampled()
        #expect(half.width == 3 && half.height == 2)
        #expect(half[0, 0] == Float(0 + 1 + 5 + 6) / 4)
        #expect(half[2, 0] == Float(4 + 4 + 9 + 9) / 4)  // odd last column replicated
        #expect(half[1, 1] == Float(12 + 13 + 12 + 13) / 4)  // odd last row replicated
        let gray = GrayImage(width: 2, height: 2) { x, y in [[1, 2], [3, 4]][y][x] }.downsampled()
        #expect(gray.pixels == [3])  // (10 + 2) / 4 rounded
    }

    @Test func gaussianPyramidPreservesConstantsAndPlanes() {
        let constant = FloatImage(width: 9, height: 7, fill: 0.25).pyramidDown()
        #expect(constant.width == 5 && constant.height == 4)
        #expect(constant.pixels.allSatisfy { abs($0 - 0.25) < 1e-6 })
        // The symmetric kernel keeps a linear ramp exact away from the borders.
        let ramp = FloatImage(width: 16, height: 16) { x, y in Float(x + 2 * y) }.pyramidDown()
        #expect(abs(ramp[3, 4] - Float(6 + 2 * 8)) < 1e-5)
        // A single bright pixel spreads with the binomial weights (6·6)/256 at its centre.
        var impulse = FloatImage(width: 9, height: 9, fill: 0)
        impulse[4, 4] = 1
        let blurred = impulse.pyramidDown()
        #expect(abs(blurred[2, 2] - 36.0 / 256) < 1e-7)
        #expect(abs(blurred[1, 2] - 6.0 / 256) < 1e-7)
        #expect(abs(blurred.pixels.reduce(0, +) * 4 - 1) < 1e-5)
    }

    @Test func pyramidLevels() {
        let levels = FloatImage(width: 752, height: 480, fill: 1).pyramid(levels: 4)
        #expect(levels.map(\.width) == [752, 376, 188, 94])
        #expect(levels.map(\.height) == [480, 240, 120, 60])
        #expect(FloatImage(width: 20, height: 20, fill: 0).pyramid(levels: 5, minimumSide: 8).count == 2)
    }
}

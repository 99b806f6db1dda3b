import Foundation
import ParallaxImaging
import ParallaxMapping
import ParallaxMath
import Testing

@Suite("Binary descriptors")
struct DescriptorTests {
    /// A textured test image: smooth blobs from a fixed seed.
    static func texture(width: Int = 200, height: Int = 160, seed: UInt64 = 3) -> GrayImage {
        var rng = SplitMix64(seed: seed)
        let blobs = (0..<400).map { _ in (rng.uniform(0, Double(width)), rng.uniform(0, Double(height)),
                                         rng.uniform(2, 6), rng.uniform(-100, 100)) }
        return GrayImage(width: width, height: height) { x, y in
            var v = 128.0
            for b in blobs {
                let d2 = (Double(x) - b.0) * (Double(x) - b.0) + (Double(y) - b.1) * (Double(y) - b.1)
                v += b.3 * exp(-d2 / (2 * b.2 * b.2))
            }
            return UInt8(max(0, min(255, v)))
        }
    }

    @Test("Hamming distance counts differing bits")
    func hamming() {
        let a = BinaryDescriptor(0, 0, 0, 0)
        let b = a.setting(0, true).setting(70, true).setting(255, true)
        #expect(a.distance(to: b) == 3)
        #expect(b.bit(70) && !b.bit(71))
        #expect(BinaryDescriptor(.max, .max, .max, .max).distance(to: a) == 256)
    }

    @Test("same point matches, shifted image and rotation keep descriptors close, other points differ")
    func invariance() {
        let image = Self.texture()
        let brief = OrientedBRIEF()
        let points = [Vector2(60, 60), Vector2(100, 80), Vector2(140, 100)]
        let d = brief.describe(image, at: points).map(\.keypoint.descriptor)
        #expect(d.count == 3)
        // The same image shifted by (3, 2) px: descriptors at the shifted points are identical.
        let shifted = GrayImage(width: image.width, height: image.height) { x, y in
            image.pixel(x: x - 3, y: y - 2) ?? 128
        }
        let s = brief.describe(shifted, at: points.map { $0 + Vector2(3, 2) }).map(\.keypoint.descriptor)
        for i in 0..<3 { #expect(d[i].distance(to: s[i]) == 0) }
        // Rotated 90° about the image centre (oriented BRIEF: nearly the same bits).
        let rotated = GrayImage(width: image.width, height: image.height) { x, y in
            // rotated(x, y) = image(cx + (y - cy), cy - (x - cx))
            image.pixel(x: 100 + (y - 80), y: 80 - (x - 100)) ?? 128
        }
        let p = Vector2(100, 80)   // centre: maps to itself
        let r = brief.describe(rotated, at: [p]).map(\.keypoint.descriptor)
        #expect(r.count == 1)
        #expect(d[1].distance(to: r[0]) < 40, "rotated distance \(d[1].distance(to: r[0]))")
        #expect(d[0].distance(to: d[2]) > 60)
        // Matching finds each point's twin.
        let matches = DescriptorMatcher().match(s, d)
        #expect(matches.map(\.train) == [0, 1, 2])
    }

    @Test("keypoints at the border are dropped, not described")
    func border() {
        let image = Self.texture()
        let out = OrientedBRIEF().describe(image, at: [Vector2(2, 2), Vector2(100, 80), Vector2(.nan, 5)])
        #expect(out.map(\.index) == [1])
    }
}

import Foundation
import ParallaxImaging
import ParallaxMath

/// ORB-style oriented BRIEF (Rublee et al., ICCV 2011) on our own corners: the patch orientation
/// is the intensity centroid's angle; each of 256 bits compares the 5×5 box means at two points of
/// a fixed random pattern rotated by that angle (box means instead of a Gaussian-smoothed image,
/// read from an integral image, so noise does not flip bits).
public struct OrientedBRIEF: Sendable {
    /// Radius of the orientation disc and of the sampling pattern (px).
    public static let patchRadius = 13
    /// Half-size of the box averaged at each sampling point (px).
    public static let boxRadius = 2
    /// Pixels from the border a keypoint must keep to be described.
    public static var border: Int { Int((Double(patchRadius) * 2.0.squareRoot()).rounded(.up)) + boxRadius + 1 }

    /// The 256 point pairs (dx1, dy1, dx2, dy2) in the unrotated patch.
    public let pattern: [(Double, Double, Double, Double)]

    /// The pattern drawn from `seed` (isotropic Gaussian, σ = radius / 2, clipped to the disc):
    /// fixed, so descriptors from different runs and files compare.
    public init(seed: UInt64 = 0x5041_5241_4c4c_4158) {
        var rng = SplitMix64(seed: seed)
        let r = Double(Self.patchRadius)
        func point() -> (Double, Double) {
            while true {
                let x = rng.gaussian() * r / 2, y = rng.gaussian() * r / 2
                if x * x + y * y <= r * r { return (x, y) }
            }
        }
        var pairs: [(Double, Double, Double, Double)] = []
        pairs.reserveCapacity(256)
        while pairs.count < 256 {
            let a = point(), b = point()
            if abs(a.0 - b.0) + abs(a.1 - b.1) >= 2 { pairs.append((a.0, a.1, b.0, b.1)) }
        }
        pattern = pairs
    }

    /// Describes the keypoints at `pixels` in `image`; those too close to the border are dropped
    /// (the result keeps the input order and says which index each came from).
    public func describe(_ image: GrayImage, at pixels: [Vector2]) -> [(index: Int, keypoint: DescribedKeypoint)] {
        let integral = IntegralImage(image)
        let b = Double(Self.border)
        var out: [(Int, DescribedKeypoint)] = []
        out.reserveCapacity(pixels.count)
        for (i, p) in pixels.enumerated() {
            guard p.x.isFinite, p.y.isFinite, p.x >= b, p.y >= b,
                  p.x < Double(image.width) - b, p.y < Double(image.height) - b else { continue }
            let u = Int(p.x.rounded()), v = Int(p.y.rounded())
            let angle = orientation(image, u, v)
            let c = cos(angle), s = sin(angle)
            var words: [UInt64] = [0, 0, 0, 0]
            for (k, pair) in pattern.enumerated() {
                let ax = u + Int((c * pair.0 - s * pair.1).rounded()), ay = v + Int((s * pair.0 + c * pair.1).rounded())
                let bx = u + Int((c * pair.2 - s * pair.3).rounded()), by = v + Int((s * pair.2 + c * pair.3).rounded())
                if integral.boxSum(ax, ay, Self.boxRadius) < integral.boxSum(bx, by, Self.boxRadius) {
                    words[k >> 6] |= UInt64(1) << UInt64(k & 63)
                }
            }
            out.append((i, DescribedKeypoint(pixel: p, angle: angle,
                                             descriptor: BinaryDescriptor(words[0], words[1], words[2], words[3]))))
        }
        return out
    }

    /// Intensity-centroid angle of the disc of radius ``patchRadius`` around (u, v).
    private func orientation(_ image: GrayImage, _ u: Int, _ v: Int) -> Double {
        let r = Self.patchRadius
        var m10 = 0, m01 = 0
        for dy in -r...r {
            let row = (v + dy) * image.width
            let half = Int(Double(r * r - dy * dy).squareRoot())
            for dx in -half...half {
                let value = Int(image.pixels[row + u + dx])
                m10 += dx * value
                m01 += dy * value
            }
        }
        return atan2(Double(m01), Double(m10))
    }
}

/// Summed-area table of a grey image for constant-time box sums.
struct IntegralImage {
    let width: Int
    let height: Int
    private var sums: [Int]

    init(_ image: GrayImage) {
        width = image.width
        height = image.height
        let stride = width + 1
        sums = [Int](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var row = 0
            for x in 0..<width {
                row += Int(image.pixels[y * width + x])
                sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row
            }
        }
    }

    /// Sum over the (2r+1)² box centred at (x, y), clamped to the image.
    func boxSum(_ x: Int, _ y: Int, _ r: Int) -> Int {
        let x0 = max(0, x - r), y0 = max(0, y - r)
        let x1 = min(width, x + r + 1), y1 = min(height, y + r + 1)
        guard x1 > x0, y1 > y0 else { return 0 }
        let s = width + 1
        return sums[y1 * s + x1] - sums[y0 * s + x1] - sums[y1 * s + x0] + sums[y0 * s + x0]
    }
}

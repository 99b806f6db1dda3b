import Foundation
import ParallaxMath
@testable import ParallaxVision

/// A smooth, richly textured analytic image: a sum of random plane waves (periods 6–40 px)
/// plus a few soft blobs, so it can be evaluated exactly at any subpixel shift.
struct AnalyticTexture {
    var waves: [(kx: Double, ky: Double, phase: Double, amp: Double)] = []
    var blobs: [(x: Double, y: Double, s: Double, amp: Double)] = []

    init(seed: UInt64, width: Int, height: Int) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<12 {
            let period = Double.random(in: 6...40, using: &rng)
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
            waves.append((2 * .pi / period * cos(angle), 2 * .pi / period * sin(angle),
                          Double.random(in: 0..<(2 * .pi), using: &rng),
                          Double.random(in: 4...12, using: &rng)))
        }
        for _ in 0..<40 {
            blobs.append((Double.random(in: 0..<Double(width), using: &rng),
                          Double.random(in: 0..<Double(height), using: &rng),
                          Double.random(in: 3...10, using: &rng),
                          Double.random(in: -60...60, using: &rng)))
        }
    }

    func value(_ x: Double, _ y: Double) -> Double {
        var v = 128.0
        for w in waves { v += w.amp * sin(w.kx * x + w.ky * y + w.phase) }
        for b in blobs {
            let d2 = (x - b.x) * (x - b.x) + (y - b.y) * (y - b.y)
            v += b.amp * exp(-d2 / (2 * b.s * b.s))
        }
        return min(max(v, 0), 255)
    }

    /// The image of the texture translated by `shift`: `I(x) = f(x − shift)`.
    func render(width: Int, height: Int, shift: Vector2 = .zero) -> FloatPlane {
        var img = FloatPlane(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                img[x, y] = Float(value(Double(x) - shift.x, Double(y) - shift.y))
            }
        }
        return img
    }
}

import Foundation

/// A small, seedable, platform-independent random number generator: xoshiro256** (Blackman &
/// Vigna 2018) seeded through SplitMix64, with Box–Muller Gaussians.
///
/// Swift's `SystemRandomNumberGenerator` cannot be seeded; simulations must be reproducible
/// bit for bit from a seed, so every noise source in ParallaxSimulation draws from this.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64
    private var spareGaussian: Double?

    /// Seeds the state from one 64-bit number with SplitMix64 (never all zero).
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    /// An independent stream derived from this seed and a stream number (for separate noise
    /// sources whose sequences must not depend on how many samples the others drew).
    public init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03) &+ stream)
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform double in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal sample (Box–Muller; the second value of each pair is kept for next call).
    public mutating func gaussian() -> Double {
        if let g = spareGaussian {
            spareGaussian = nil
            return g
        }
        var u1 = uniform()
        while u1 <= 0 { u1 = uniform() }
        let u2 = uniform()
        let r = (-2 * Foundation.log(u1)).squareRoot()
        let a = 2 * Double.pi * u2
        spareGaussian = r * sin(a)
        return r * cos(a)
    }

    /// Three independent standard normal samples.
    public mutating func gaussian3() -> SIMD3<Double> { SIMD3(gaussian(), gaussian(), gaussian()) }
}

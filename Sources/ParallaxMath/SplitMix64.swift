import Foundation

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a tiny, fast, seedable generator, so RANSAC, simulations and tests are
/// reproducible bit for bit across runs and platforms (Swift's default generator is not seedable).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates the generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform sample in [lo, hi).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double { Double.random(in: lo..<hi, using: &self) }

    /// A standard normal sample (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = uniform(Double.leastNormalMagnitude, 1), u2 = uniform(0, 1)
        return (-2 * Foundation.log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Three independent standard normal samples.
    public mutating func gaussianVector() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) }
}

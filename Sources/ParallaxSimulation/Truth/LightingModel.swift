import Foundation

/// The slowly varying illumination and camera exposure of a simulated recording.
///
/// ARKit's meaning of light estimates (`conventions.md`): ambient intensity in lumens with
/// 1000 = neutral, colour temperature in kelvin with 6500 = neutral white. Every light of the
/// scene is scaled by `ambientIntensity / 1000` and given the colour temperature, so the rendered
/// images agree with `truth/lighting.json`. The exposure gain models auto-exposure hunting: it
/// changes pixel values but not the scene's light, so it is recorded separately.
public struct LightingModel: Sendable {
    /// Whether lighting and exposure vary (false: constant 1000 lm, 6500 K, gain 1).
    public var varies: Bool
    /// Phases (radians) drawn from the seed, so different seeds give different light histories.
    let phases: SIMD4<Double>

    /// Creates a model; `seed` picks the phases of the slow oscillations.
    public init(varies: Bool = true, seed: UInt64) {
        self.varies = varies
        var random = SeededRandom(seed: seed, stream: 7)
        let tau = 2 * Double.pi
        phases = SIMD4(tau * random.uniform(), tau * random.uniform(), tau * random.uniform(), tau * random.uniform())
    }

    /// Ambient intensity (lm) at time `t` (s): 1000 ± 25 % over ~23 s, with a faster ±5 % flicker.
    public func ambientIntensity(at t: Double) -> Double {
        guard varies else { return 1000 }
        return 1000 * (1 + 0.25 * sin(2 * .pi * t / 23 + phases[0]) + 0.05 * sin(2 * .pi * t / 3.1 + phases[1]))
    }

    /// Colour temperature (K) at time `t`: between 4700 K and 6300 K over ~37 s.
    public func colorTemperature(at t: Double) -> Double {
        guard varies else { return 6500 }
        return 5500 + 800 * sin(2 * .pi * t / 37 + phases[2])
    }

    /// Camera exposure gain at time `t`: 1 ± 15 % (auto-exposure), multiplies grey levels.
    public func exposureGain(at t: Double) -> Double {
        guard varies else { return 1 }
        return 1 + 0.12 * sin(2 * .pi * t / 7 + phases[3]) + 0.03 * sin(2 * .pi * t / 1.9)
    }
}

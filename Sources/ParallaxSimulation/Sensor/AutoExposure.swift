import Foundation

/// A camera's auto-exposure loop: after each frame it compares the image's mean grey level with
/// a target and moves its brightness factor part of the way there, with a smooth random drift
/// (AR(1)-filtered noise) so that the exposure keeps hunting as real controllers do.
///
/// The brightness factor `b` multiplies the grey levels of a frame rendered at the nominal
/// exposure. It is split into an exposure time, `nominal · b` clamped to
/// `[nominal / 4, 2 · nominal]` (and to the frame period), and an analogue gain for the rest,
/// so longer exposures blur more.
public struct AutoExposure: Sendable {
    /// Mean grey level the loop aims for.
    public var targetMean: Double = 110
    /// Fraction of the (logarithmic) brightness error corrected per frame.
    public var responsiveness: Double = 0.3
    /// Standard deviation of the drift's innovation per frame (logarithmic units).
    public var driftSigma: Double = 0.06
    /// Correlation of the drift from one frame to the next.
    public var driftCorrelation: Double = 0.8
    /// Nominal exposure time (s); 0 when exposure blur is off (all of `b` is then gain).
    public let nominalExposure: Double
    /// Longest exposure the frame period allows (s).
    public let maximumExposure: Double

    private var logBrightness = 0.0
    private var drift = 0.0
    private var random: SeededRandom

    /// Starts at brightness factor 1 (nominal exposure, gain 1).
    public init(nominalExposure: Double, framePeriod: Double, seed: UInt64) {
        self.nominalExposure = nominalExposure
        maximumExposure = min(2 * nominalExposure, framePeriod)
        random = SeededRandom(seed: seed, stream: 5000)
    }

    /// The brightness factor for the next frame (exposure ratio × gain).
    public var brightness: Double { exp(logBrightness) }

    /// The settings for the next frame.
    public var current: (exposureTime: Double, gain: Double) {
        let b = brightness
        guard nominalExposure > 0 else { return (0, b) }
        let exposure = min(max(nominalExposure * b, nominalExposure / 4), maximumExposure)
        return (exposure, b * nominalExposure / exposure)
    }

    /// Updates the loop after a frame whose image had `measuredMean` grey level (nil: no image
    /// was rendered, only the drift acts).
    public mutating func update(measuredMean: Double?) {
        drift = driftCorrelation * drift + driftSigma * random.gaussian()
        if let measuredMean {
            let error = log(targetMean / max(measuredMean, 1))
            logBrightness += responsiveness * error
        }
        logBrightness = min(max(logBrightness + drift, log(0.25)), log(8))
    }
}

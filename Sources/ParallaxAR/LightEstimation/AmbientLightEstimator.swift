import Foundation
import ParallaxImaging
import ParallaxMath

/// One ambient light estimate (ARKit's `ARLightEstimate`), with what it was computed from.
public struct AmbientLightEstimate: Sendable, Equatable {
    /// Ambient intensity in lumens, 1000 = neutral (temporally filtered).
    public var ambientIntensity: Double
    /// Colour temperature in kelvin, 6500 = neutral white (temporally filtered).
    public var ambientColorTemperature: Double
    /// False when the image had no colour (grey camera): the temperature is then the neutral
    /// 6500 K by convention, not a measurement.
    public var colorTemperatureMeasured: Bool
    /// The unfiltered intensity of this frame alone.
    public var rawIntensity: Double
    /// The image statistics behind it.
    public var brightness: ImageBrightness
}

/// Estimates ambient intensity and colour temperature from captured images.
///
/// Intensity = 1000 lm × (robust mean linear luminance) / `referenceLinearLuminance`, then
/// smoothed over time by ``AmbientLightFilter``. The reference is the mean linear luminance the
/// camera sees under neutral light — like ARKit, this assumes an average scene reflectance; the
/// default is calibrated on the simulator's room scene (`Datasets/sample`, see
/// ``AmbientLightEstimator/simulatorReferenceLinearLuminance``). Colour temperature is the
/// grey-world estimate: the image's mean linear colour is taken as the illuminant's colour
/// (Buchsbaum, "A spatial processor model for object colour perception", J. Franklin Inst. 1980)
/// and converted with McCamy's formula.
public struct AmbientLightEstimator: Sendable {
    /// Mean linear luminance of the simulator's room at 1000 lm, exposure gain 1 (measured on
    /// `Datasets/sample`: median over its frames of mean / (ambient/1000 · gain^2.2)).
    public static let simulatorReferenceLinearLuminance = 0.25

    /// Linear luminance that maps to 1000 lm.
    public var referenceLinearLuminance: Double
    /// Pixel subsampling step for the statistics.
    public var step: Int
    /// Fraction of darkest and brightest pixels ignored.
    public var trimFraction: Double
    /// Temporal filter of the intensity.
    public var intensityFilter: AmbientLightFilter
    /// Frame-to-frame brightness change on the same scene points (nil: level filter only).
    public var changeTracker: BrightnessChangeTracker?
    /// Temporal filter of the colour temperature (slower: white balance drifts slowly).
    public var temperatureFilter: AmbientLightFilter

    /// Creates an estimator.
    public init(referenceLinearLuminance: Double = AmbientLightEstimator.simulatorReferenceLinearLuminance,
                step: Int = 2, trimFraction: Double = 0.02,
                changeTracker: BrightnessChangeTracker? = BrightnessChangeTracker(),
                intensityFilter: AmbientLightFilter = AmbientLightFilter(),
                temperatureFilter: AmbientLightFilter = AmbientLightFilter(processNoisePerSecond: 0.03, measurementSigma: 0.03)) {
        self.referenceLinearLuminance = referenceLinearLuminance
        self.step = step
        self.trimFraction = trimFraction
        self.intensityFilter = intensityFilter
        self.changeTracker = changeTracker
        self.temperatureFilter = temperatureFilter
    }

    /// Estimates the light of `image` captured at `timestamp` (s). Pass the camera's
    /// `exposureGain` when it is known (metadata) to measure the scene's light rather than the
    /// image's brightness.
    public mutating func estimate(image: AnyImage, timestamp: Double, exposureGain: Double = 1) -> AmbientLightEstimate {
        let b = ImageBrightness.measure(image, step: step, trimFraction: trimFraction, exposureGain: exposureGain)
        let raw = 1000 * b.linearLuminance / referenceLinearLuminance
        var change: Double?
        if var tracker = changeTracker {
            change = tracker.update(image, table: ImageBrightness.decodeTable(exposureGain: exposureGain))
            changeTracker = tracker
        }
        let intensity = intensityFilter.update(max(raw, 1e-3), at: timestamp, relativeChange: change)
        var kelvin = ColorTemperature.neutral
        var measured = false
        if b.hasColor, let k = ColorTemperature.kelvin(linearRGB: b.linearRGB) {
            kelvin = temperatureFilter.update(k, at: timestamp)
            measured = true
        }
        return AmbientLightEstimate(ambientIntensity: intensity, ambientColorTemperature: kelvin,
                                    colorTemperatureMeasured: measured, rawIntensity: raw, brightness: b)
    }
}

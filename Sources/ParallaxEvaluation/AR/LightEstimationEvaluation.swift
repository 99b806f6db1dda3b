import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxImaging

/// Light estimation on a simulated dataset compared with its `truth/lighting.json`
/// (`parallax evaluate-light`).
///
/// Two estimates are run side by side:
/// - **image only** (what a camera without exposure metadata allows): it measures the image's
///   brightness, i.e. the scene light *times* the auto-exposure. It is compared both with the
///   scene light and with the *apparent* light `ambient · gain^2.2` (the gain multiplies encoded
///   grey levels; through the sRGB decode that is ≈ gain^2.2 in linear light).
/// - **with exposure metadata** (as ARKit does with the camera's exposure settings): the truth's
///   `exposureGain`, standing in for the metadata a real camera reports, is divided out of the
///   encoded values before decoding, and the result is compared with the scene light.
public struct LightEstimationEvaluation: Sendable, Codable {
    /// Frames evaluated.
    public var frames: Int
    /// Whether the images had colour (grey datasets report the neutral 6500 K, not measured).
    public var colorMeasured: Bool
    /// Image-only estimate vs the scene's ambient intensity.
    public var imageOnlyVsScene: IntensityAgreement
    /// Image-only estimate vs the apparent intensity `ambient · gain^2.2`.
    public var imageOnlyVsApparent: IntensityAgreement
    /// Exposure-compensated estimate vs the scene's ambient intensity.
    public var compensatedVsScene: IntensityAgreement
    /// Std of the frame-to-frame change (lm) on static-lighting segments, nil when none.
    public var staticFlicker: Double?
    /// Std of the raw (unfiltered) frame-to-frame change beyond truth, for comparison (lm).
    public var rawExcessFlicker: Double
    /// Reference luminance that would map this dataset's truth to 1000 lm (calibration).
    public var calibratedReferenceLuminance: Double
    /// Mean reported colour temperature (K).
    public var meanColorTemperature: Double
    /// Per frame: timestamp (s), truth, image-only, compensated estimates (lm).
    public var series: [[Double]]

    /// The exponent relating an encoded-domain gain to linear light for mid-grey sRGB values.
    public static let apparentGainExponent = 2.2

    /// Runs both estimators over camera 0 of the dataset at `url` (its parent holds `truth/`, or
    /// `url` itself does). `maxFrames` limits the work (nil: all).
    public static func run(datasetURL url: URL, maxFrames: Int? = nil,
                           estimator: AmbientLightEstimator = AmbientLightEstimator()) throws -> LightEstimationEvaluation {
        let dataset = try EuRoCDataset(url: url)
        let root = dataset.mav0.deletingLastPathComponent()
        let truthURL = root.appendingPathComponent("truth/lighting.json")
        guard FileManager.default.fileExists(atPath: truthURL.path) else {
            throw LightEstimationError(file: truthURL.path, reason: "no lighting truth (only simulated datasets have truth/lighting.json)")
        }
        let truth = try LightingTruth(contentsOf: truthURL)
        var frames = try dataset.cameraFrames(0)
        if let m = maxFrames { frames = Array(frames.prefix(max(0, m))) }
        var plain = estimator, compensated = estimator
        var tScene: [Double] = [], tApparent: [Double] = [], ePlain: [Double] = [], eComp: [Double] = [], raw: [Double] = []
        var ratios: [Double] = [], kelvins: [Double] = [], series: [[Double]] = []
        var colour = false
        for f in frames {
            guard let t = truth.frame(at: f.timestampNs) else {
                throw LightEstimationError(file: truthURL.path, reason: "no truth for frame \(f.displayPath)")
            }
            let image = try f.loadImage()
            let a = plain.estimate(image: image, timestamp: f.timestamp)
            let b = compensated.estimate(image: image, timestamp: f.timestamp, exposureGain: t.exposureGain)
            colour = colour || a.colorTemperatureMeasured
            let apparent = t.ambientIntensity * pow(t.exposureGain, apparentGainExponent)
            tScene.append(t.ambientIntensity); tApparent.append(apparent)
            ePlain.append(a.ambientIntensity); eComp.append(b.ambientIntensity); raw.append(a.rawIntensity)
            ratios.append(b.brightness.linearLuminance / (t.ambientIntensity / 1000))
            kelvins.append(a.ambientColorTemperature)
            series.append([f.timestamp, t.ambientIntensity, a.ambientIntensity, b.ambientIntensity])
        }
        guard !frames.isEmpty else { throw LightEstimationError(file: dataset.mav0.path, reason: "no camera frames") }
        return LightEstimationEvaluation(
            frames: frames.count, colorMeasured: colour,
            imageOnlyVsScene: IntensityAgreement(estimate: ePlain, truth: tScene),
            imageOnlyVsApparent: IntensityAgreement(estimate: ePlain, truth: tApparent),
            compensatedVsScene: IntensityAgreement(estimate: eComp, truth: tScene),
            staticFlicker: IntensityAgreement.staticFlicker(estimate: eComp, truth: tScene),
            rawExcessFlicker: IntensityAgreement(estimate: raw, truth: tApparent).excessFlicker,
            calibratedReferenceLuminance: SampleStatistics.upperMedian(ratios),
            meanColorTemperature: kelvins.reduce(0, +) / Double(kelvins.count), series: series)
    }
}

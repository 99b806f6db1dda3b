import ArgumentParser
import Foundation
import ParallaxAR
import ParallaxDatasets
import ParallaxEvaluation

/// `parallax evaluate light DATASET`: runs the ambient light estimator over a simulated dataset
/// and compares it with `truth/lighting.json` (relative error, correlation, flicker).
struct EvaluateLightCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "light",
        abstract: "Score light estimation against a simulated dataset's truth/lighting.json.",
        discussion: """
            Reports, for camera 0: the image-only estimate (no exposure metadata) against the \
            scene light and against the apparent light (ambient x gain^2.2), the estimate with \
            the camera's exposure gain divided out against the scene light, flicker (std of \
            frame-to-frame change beyond the true change; on static-lighting segments, of the \
            change itself) and the colour temperature (grey datasets report 6500 K, not measured).
            """)

    @OptionGroup var input: DatasetArgument

    @Flag(name: .long, help: "Print a JSON object instead of text.")
    var json = false

    @Flag(name: .long, help: "Include the per-frame series in the JSON output.")
    var series = false

    @Option(name: .customLong("max-frames"), parsing: .unconditional, help: "Evaluate at most this many frames (≥ 1).")
    var maxFrames: Int?

    func validate() throws {
        if let maxFrames { try NumberChecks.integer(maxFrames, "--max-frames", in: 1...Int.max) }
    }

    func run() throws {
        var result = try LightEstimationEvaluation.run(datasetURL: input.url, maxFrames: maxFrames)
        if !series { result.series = [] }
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            enc.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            print(String(decoding: try enc.encode(result), as: UTF8.self))
            return
        }
        func line(_ name: String, _ a: IntensityAgreement) -> String {
            String(format: "  %-34@ rel. error mean %5.1f %%  median %5.1f %%  correlation %.3f  excess flicker %.1f lm",
                   name as NSString, 100 * a.meanRelativeError, 100 * a.medianRelativeError, a.correlation, a.excessFlicker)
        }
        print("Light estimation on \(input.dataset) (\(result.frames) frames, camera 0)")
        print(line("image only vs scene light", result.imageOnlyVsScene))
        print(line("image only vs apparent (a*g^2.2)", result.imageOnlyVsApparent))
        print(line("exposure-compensated vs scene", result.compensatedVsScene))
        print(String(format: "  raw (unfiltered) excess flicker %.1f lm", result.rawExcessFlicker))
        if let f = result.staticFlicker {
            print(String(format: "  static-lighting flicker (std of frame-to-frame change) %.2f lm", f))
        } else {
            print("  static-lighting flicker: no static segment (lighting varies throughout)")
        }
        print(String(format: "  reference luminance for 1000 lm on this dataset %.4f (estimator uses %.4f)",
                     result.calibratedReferenceLuminance, AmbientLightEstimator.simulatorReferenceLinearLuminance))
        print(result.colorMeasured
              ? String(format: "  colour temperature: mean %.0f K (grey-world)", result.meanColorTemperature)
              : "  colour temperature: 6500 K reported — grey images, not measured")
    }
}

import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxMapping
import ParallaxMath
import ParallaxRecordings

/// `parallax info DATASET`: sensors, rates, counts, calibration, noise parameters, gaps and
/// anomalies of an EuRoC/ASL-layout dataset, as text or JSON.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe an EuRoC/ASL (or TUM-VI) dataset, or a bag's or MCAP file's topics, types, counts and rates.",
        discussion: """
            DATASET is the dataset folder or its mav0 folder. Every CSV row is read once (constant \
            memory). Bad input (missing files, malformed rows, non-increasing timestamps) stops \
            with a file:line message and a non-zero exit, unless --lenient is given, in which \
            case bad rows are skipped and listed as anomalies.
            """)

    @OptionGroup var input: DatasetArgument

    @Flag(name: .long, help: "Print a JSON object instead of text.")
    var json = false

    @Flag(name: .long, help: "Skip bad CSV rows (and report them) instead of failing.")
    var lenient = false

    @Flag(name: .long, help: "Also decode every image, check it against sensor.yaml and check that the streams fit together.")
    var validate = false

    func run() throws {
        if VocabularyFile.isVocabularyFile(input.dataset) {
            print(VocabularyInfo.describe(try VocabularyFile.read(contentsOf: input.url), path: input.dataset))
            return
        }
        if MapInfo.isMapFile(input.dataset) {
            print(try MapInfo.describe(input.dataset))
            return
        }
        if input.isRecording {
            // A bag or MCAP file: its topics, types, counts and rates (no calibration needed).
            let summary = try RecordingSummary(url: input.url, damage: input.partial ? .stopWithWarning : .fail)
            try show(summary, text: summary.text)
            return
        }
        let d = try input.open(policy: lenient ? .lenient : .strict)
        // Validation decodes every image and checks that the streams fit together; its warnings
        // (with counts) join the anomalies.
        let warnings = validate ? try d.validate().warnings : []
        var report = InfoReport(d, summary: try DatasetSummary(d))
        report.anomalies += warnings
        try show(report, text: report.text)
    }

    /// Prints `value` as JSON with `--json`, else `text`.
    private func show(_ value: some Encodable, text: String) throws {
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try enc.encode(value), as: UTF8.self))
        } else {
            print(text)
        }
    }
}

/// The JSON shape of `parallax info --json`.
struct InfoReport: Encodable {
    struct Camera: Encodable {
        var name: String, width: Int, height: Int, cameraModel: String
        var intrinsics: [String: Double]
        var distortionModel: String, distortionCoefficients: [Double]
        /// `T_B_C` as 16 row-major numbers, plus translation and unit quaternion (w, x, y, z).
        var T_B_C: [Double], translation: [Double], quaternionWXYZ: [Double]
        var stats: SensorStats
    }
    struct IMU: Encodable {
        var name: String
        var gyroscopeNoiseDensity: Double, gyroscopeRandomWalk: Double
        var accelerometerNoiseDensity: Double, accelerometerRandomWalk: Double
        var discreteGyroscopeSigma: Double, discreteAccelerometerSigma: Double
        var stats: SensorStats
    }
    var path: String
    var sensors: [String]
    var stereo: Bool
    var stereoBaselineMeters: Double?
    var stereoPairs: Int, unpairedFrames: Int
    var durationSeconds: Double
    var cameras: [Camera]
    var imu: IMU
    var groundTruth: SensorStats?
    var position: SensorStats?
    var skippedRows: Int
    var anomalies: [String]

    init(_ d: EuRoCDataset, summary s: DatasetSummary) {
        path = d.mav0.path
        sensors = d.cameras.map(\.name) + [d.imu.name] + (d.groundTruthSensor.map { [$0] } ?? [])
            + (d.positionSensor.map { [$0] } ?? [])
        stereo = d.isStereo
        stereoBaselineMeters = d.stereoBaseline
        stereoPairs = s.stereoPairs
        unpairedFrames = s.unpairedFrames
        let all = s.cameras + [s.imu]
        let first = all.compactMap(\.firstNs).min(), last = all.compactMap(\.lastNs).max()
        durationSeconds = first.flatMap { f in last.map { seconds(fromNanoseconds: $0 - f) } } ?? 0
        cameras = zip(d.cameras, s.cameras).map { c, st in
            let T = c.T_body_camera
            let q = T.rotation
            return Camera(name: c.name, width: c.width, height: c.height, cameraModel: c.cameraModel,
                          intrinsics: ["fu": c.intrinsics.fu, "fv": c.intrinsics.fv, "cu": c.intrinsics.cu, "cv": c.intrinsics.cv],
                          distortionModel: c.distortion.name, distortionCoefficients: c.distortion.coefficients,
                          T_B_C: c.T_BS.rowMajor, translation: [T.translation.x, T.translation.y, T.translation.z],
                          quaternionWXYZ: [q.w, q.x, q.y, q.z], stats: st)
        }
        let i = d.imu
        imu = IMU(name: i.name, gyroscopeNoiseDensity: i.gyroscopeNoiseDensity, gyroscopeRandomWalk: i.gyroscopeRandomWalk,
                  accelerometerNoiseDensity: i.accelerometerNoiseDensity, accelerometerRandomWalk: i.accelerometerRandomWalk,
                  discreteGyroscopeSigma: i.discreteGyroscopeNoiseSigma,
                  discreteAccelerometerSigma: i.discreteAccelerometerNoiseSigma, stats: s.imu)
        groundTruth = s.groundTruth
        position = s.position
        skippedRows = s.diagnostics.skippedRows
        anomalies = s.anomalies + s.diagnostics.messages.map { "skipped: \($0)" }
    }

    private func f(_ v: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", v) }
    private func g(_ v: Double) -> String { String(format: "%.4g", v) }

    private func rates(_ s: SensorStats) -> String {
        let nominal = s.nominalRateHz.map { "\(f($0, 1)) Hz nominal, " } ?? ""
        let measured = s.measuredRateHz.map { "\(f($0, 2)) Hz measured" } ?? "rate n/a"
        return "\(nominal)\(measured); \(s.count) rows over \(f(s.durationSeconds)) s"
    }

    private func gaps(_ s: SensorStats) -> [String] {
        guard s.gapCount > 0 else { return [] }
        var out = ["  gaps: \(s.gapCount) (\(s.missingSamples) missing at the nominal rate), longest interval \(f(s.longestIntervalSeconds)) s"]
        for gap in s.gaps { out.append("    after t=\(gap.afterNs) ns: \(f(gap.seconds, 4)) s (\(gap.missingSamples) missing)") }
        return out
    }

    /// The human-readable report.
    var text: String {
        var l: [String] = []
        l.append("Dataset   \(path)")
        l.append("Sensors   \(sensors.joined(separator: ", "))\(stereo ? " (stereo)" : " (monocular)")")
        l.append("Duration  \(f(durationSeconds)) s")
        for c in cameras {
            l.append("")
            l.append("\(c.name): \(c.width)x\(c.height) \(c.cameraModel), \(rates(c.stats))")
            l.append("  intrinsics  fu \(c.intrinsics["fu"] ?? 0)  fv \(c.intrinsics["fv"] ?? 0)  cu \(c.intrinsics["cu"] ?? 0)  cv \(c.intrinsics["cv"] ?? 0)")
            l.append("  distortion  \(c.distortionModel) [\(c.distortionCoefficients.map { g($0) }.joined(separator: ", "))]")
            l.append("  T_B_C       t = [\(c.translation.map { f($0, 4) }.joined(separator: ", "))] m, q(wxyz) = [\(c.quaternionWXYZ.map { f($0, 4) }.joined(separator: ", "))]")
            l += gaps(c.stats)
        }
        if let b = stereoBaselineMeters {
            l.append("")
            l.append("stereo: baseline \(f(b, 4)) m, \(stereoPairs) pairs, \(unpairedFrames) unpaired frames")
        }
        l.append("")
        l.append("\(imu.name): \(rates(imu.stats))")
        l.append("  gyroscope      noise density \(g(imu.gyroscopeNoiseDensity)) rad/s/√Hz, random walk \(g(imu.gyroscopeRandomWalk)) rad/s²/√Hz, per-sample σ \(g(imu.discreteGyroscopeSigma)) rad/s")
        l.append("  accelerometer  noise density \(g(imu.accelerometerNoiseDensity)) m/s²/√Hz, random walk \(g(imu.accelerometerRandomWalk)) m/s³/√Hz, per-sample σ \(g(imu.discreteAccelerometerSigma)) m/s²")
        l += gaps(imu.stats)
        for s in [groundTruth, position].compactMap({ $0 }) {
            l.append("")
            l.append("\(s.name): \(rates(s))")
        }
        l.append("")
        l.append(anomalies.isEmpty ? "Anomalies: none" : "Anomalies:")
        for a in anomalies { l.append("  - \(a)") }
        return l.joined(separator: "\n")
    }
}

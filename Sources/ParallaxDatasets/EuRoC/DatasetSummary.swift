import Foundation

/// A gap between two consecutive samples of one sensor that is longer than expected.
public struct SampleGap: Sendable, Equatable, Codable {
    /// Timestamp (ns) of the sample before the gap.
    public var afterNs: Int64
    /// Length of the gap in seconds.
    public var seconds: Double
    /// Samples that would fit in the gap at the nominal rate (dropped frames for a camera).
    public var missingSamples: Int
}

/// Counts, timing and gaps of one sensor's stream, gathered in one pass.
public struct SensorStats: Sendable, Equatable, Codable {
    /// Folder name (`cam0`, `imu0`, ...).
    public var name: String
    /// Nominal rate from `sensor.yaml` (nil when the file gives none, as for ground truth).
    public var nominalRateHz: Double?
    /// Number of rows.
    public var count = 0
    /// First and last timestamps (ns).
    public var firstNs: Int64?, lastNs: Int64?
    /// Intervals longer than the gap threshold (2× the nominal period for the IMU, 1.5× for
    /// cameras, where one dropped frame doubles the interval).
    public var gapCount = 0
    /// Sum of `missingSamples` over all gaps.
    public var missingSamples = 0
    /// The longest interval between consecutive rows, seconds.
    public var longestIntervalSeconds = 0.0
    /// The first gaps (at most 10, so memory stays bounded).
    public var gaps: [SampleGap] = []
    private var threshold: Double?

    init(name: String, nominalRateHz: Double?, gapFactor: Double) {
        self.name = name
        self.nominalRateHz = nominalRateHz
        threshold = nominalRateHz.map { gapFactor / $0 }
    }

    enum CodingKeys: String, CodingKey {
        case name, nominalRateHz, count, firstNs, lastNs, gapCount, missingSamples, longestIntervalSeconds, gaps
        case durationSeconds, measuredRateHz
    }

    /// Encodes the stored fields plus the derived duration and measured rate.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(nominalRateHz, forKey: .nominalRateHz)
        try c.encode(count, forKey: .count)
        try c.encodeIfPresent(firstNs, forKey: .firstNs)
        try c.encodeIfPresent(lastNs, forKey: .lastNs)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encodeIfPresent(measuredRateHz, forKey: .measuredRateHz)
        try c.encode(gapCount, forKey: .gapCount)
        try c.encode(missingSamples, forKey: .missingSamples)
        try c.encode(longestIntervalSeconds, forKey: .longestIntervalSeconds)
        try c.encode(gaps, forKey: .gaps)
    }

    /// Decodes what ``encode(to:)`` wrote (derived values are recomputed).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        nominalRateHz = try c.decodeIfPresent(Double.self, forKey: .nominalRateHz)
        count = try c.decode(Int.self, forKey: .count)
        firstNs = try c.decodeIfPresent(Int64.self, forKey: .firstNs)
        lastNs = try c.decodeIfPresent(Int64.self, forKey: .lastNs)
        gapCount = try c.decode(Int.self, forKey: .gapCount)
        missingSamples = try c.decode(Int.self, forKey: .missingSamples)
        longestIntervalSeconds = try c.decode(Double.self, forKey: .longestIntervalSeconds)
        gaps = try c.decode([SampleGap].self, forKey: .gaps)
    }

    mutating func add(_ t: Int64) {
        if let last = lastNs {
            let dt = seconds(fromNanoseconds: t - last)
            longestIntervalSeconds = max(longestIntervalSeconds, dt)
            if let threshold, let rate = nominalRateHz, dt > threshold {
                let missing = max(1, Int((dt * rate).rounded()) - 1)
                gapCount += 1
                missingSamples += missing
                if gaps.count < 10 { gaps.append(SampleGap(afterNs: last, seconds: dt, missingSamples: missing)) }
            }
        } else {
            firstNs = t
        }
        lastNs = t
        count += 1
    }

    /// Time from the first to the last row, seconds.
    public var durationSeconds: Double {
        guard let f = firstNs, let l = lastNs else { return 0 }
        return seconds(fromNanoseconds: l - f)
    }

    /// (count − 1) / duration, or nil with fewer than two rows.
    public var measuredRateHz: Double? {
        guard count > 1, durationSeconds > 0 else { return nil }
        return Double(count - 1) / durationSeconds
    }
}

/// Everything `parallax info` reports about a dataset, computed in one streaming pass.
public struct DatasetSummary: Sendable {
    /// Per-camera statistics (cam0, cam1).
    public var cameras: [SensorStats]
    /// IMU statistics.
    public var imu: SensorStats
    /// Full-state ground-truth statistics, when present.
    public var groundTruth: SensorStats?
    /// Position-only ground-truth statistics, when present.
    public var position: SensorStats?
    /// Frame events with both cameras.
    public var stereoPairs = 0
    /// Frames whose stereo partner is missing.
    public var unpairedFrames = 0
    /// Rows skipped under ``ReadPolicy/lenient``.
    public var diagnostics = ReadDiagnostics()
    /// Human-readable findings: gaps, dropped frames, rate mismatches, coverage, skipped rows.
    public var anomalies: [String] = []

    /// Reads all CSV files of `dataset` once (constant memory) and summarises them.
    public init(_ dataset: EuRoCDataset) throws {
        cameras = dataset.cameras.map { SensorStats(name: $0.name, nominalRateHz: $0.rateHz, gapFactor: 1.5) }
        imu = SensorStats(name: dataset.imu.name, nominalRateHz: dataset.imu.rateHz, gapFactor: 2)
        let it = try dataset.replay().makeIterator()
        while let event = try it.next() {
            switch event {
            case .imu(let s): imu.add(s.timestampNs)
            case .frame(let f):
                if let a = f.cam0 { cameras[0].add(a.timestampNs) }
                if let b = f.cam1, cameras.count > 1 { cameras[1].add(b.timestampNs) }
                if f.isStereoPair { stereoPairs += 1 }
            case .groundTruth: break
            }
        }
        unpairedFrames = it.unpairedFrames
        diagnostics = it.diagnostics
        if let gt = try dataset.groundTruthStream() {
            var s = SensorStats(name: dataset.groundTruthSensor ?? EuRoCDataset.groundTruthName, nominalRateHz: nil, gapFactor: 2)
            while let g = try gt.next() { s.add(g.timestampNs) }
            groundTruth = s
            diagnostics.merge(gt.diagnostics)
        }
        if let ps = try dataset.positionStream(), let name = dataset.positionSensor {
            var s = SensorStats(name: name, nominalRateHz: nil, gapFactor: 2)
            while let p = try ps.next() { s.add(p.timestampNs) }
            position = s
            diagnostics.merge(ps.diagnostics)
        }
        anomalies = findAnomalies()
    }

    private func findAnomalies() -> [String] {
        var out: [String] = []
        for s in cameras + [imu] {
            if s.count == 0 { out.append("\(s.name): no rows") }
            if s.gapCount > 0 {
                let what = s.name.hasPrefix("cam") ? "dropped frames" : "missing samples"
                out.append("\(s.name): \(s.gapCount) gaps, \(s.missingSamples) \(what), longest interval \(format(s.longestIntervalSeconds)) s")
            }
            if let nominal = s.nominalRateHz, let measured = s.measuredRateHz, abs(measured - nominal) > 0.05 * nominal {
                out.append("\(s.name): measured rate \(format(measured)) Hz differs from nominal \(format(nominal)) Hz by more than 5%")
            }
        }
        if unpairedFrames > 0 { out.append("stereo: \(unpairedFrames) frames without a partner in the other camera") }
        if let c = cameras.first, let cf = c.firstNs, let cl = c.lastNs, let f = imu.firstNs, let l = imu.lastNs {
            if f > cf { out.append("imu0 starts \(format(seconds(fromNanoseconds: f - cf))) s after the first frame") }
            if l < cl { out.append("imu0 ends \(format(seconds(fromNanoseconds: cl - l))) s before the last frame") }
        }
        if let gt = groundTruth, let c = cameras.first, let gf = gt.firstNs, let cf = c.firstNs, gf > cf {
            out.append("ground truth starts \(format(seconds(fromNanoseconds: gf - cf))) s after the first frame")
        }
        if diagnostics.skippedRows > 0 { out.append("\(diagnostics.skippedRows) bad rows skipped (lenient)") }
        return out
    }

    private func format(_ v: Double) -> String { String(format: "%.3f", v) }
}

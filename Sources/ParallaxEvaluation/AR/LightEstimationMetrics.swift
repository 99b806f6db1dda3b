import Foundation

/// Agreement between an estimated and a true intensity series.
public struct IntensityAgreement: Sendable, Equatable, Codable {
    /// Mean |estimate − truth| / truth.
    public var meanRelativeError: Double
    /// Median |estimate − truth| / truth.
    public var medianRelativeError: Double
    /// Pearson correlation of the two series (nan when either is constant).
    public var correlation: Double
    /// Standard deviation (lm) of the frame-to-frame change of the estimate *beyond* the true
    /// change: std(Δestimate − Δtruth). The flicker a viewer would see on top of real changes.
    public var excessFlicker: Double
    /// Frames compared.
    public var frames: Int

    /// Compares `estimate` with `truth` (same length, same frames).
    public init(estimate: [Double], truth: [Double]) {
        let n = min(estimate.count, truth.count)
        frames = n
        var rel: [Double] = []
        for i in 0..<n where truth[i] > 0 { rel.append(abs(estimate[i] - truth[i]) / truth[i]) }
        meanRelativeError = rel.isEmpty ? .nan : rel.reduce(0, +) / Double(rel.count)
        medianRelativeError = SampleStatistics.upperMedian(rel)
        correlation = Self.pearson(Array(estimate.prefix(n)), Array(truth.prefix(n)))
        var d: [Double] = []
        if n > 1 { for i in 1..<n { d.append((estimate[i] - estimate[i - 1]) - (truth[i] - truth[i - 1])) } }
        excessFlicker = Self.std(d)
    }

    /// Pearson's correlation coefficient.
    public static func pearson(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(min(a.count, b.count))
        guard n > 1 else { return .nan }
        let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in 0..<Int(n) { sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) * (a[i] - ma); sbb += (b[i] - mb) * (b[i] - mb) }
        return saa > 0 && sbb > 0 ? sab / (saa * sbb).squareRoot() : .nan
    }

    /// Population standard deviation (0 for fewer than two values).
    public static func std(_ v: [Double]) -> Double {
        guard v.count > 1 else { return 0 }
        let m = v.reduce(0, +) / Double(v.count)
        return (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count)).squareRoot()
    }

    /// Flicker on static segments: std of the estimate's frame-to-frame change over the frames
    /// whose true value changed by less than `tolerance` (relative) from the previous frame;
    /// nil when there are fewer than two such steps.
    public static func staticFlicker(estimate: [Double], truth: [Double], tolerance: Double = 1e-4) -> Double? {
        var d: [Double] = []
        let n = min(estimate.count, truth.count)
        if n > 1 {
            for i in 1..<n where abs(truth[i] - truth[i - 1]) <= tolerance * max(abs(truth[i]), 1) { d.append(estimate[i] - estimate[i - 1]) }
        }
        return d.count >= 2 ? std(d) : nil
    }
}

/// Order statistics of measured samples (timings, residuals), shared by the reports.
public enum SampleStatistics {
    /// The `q`-quantile (0…1) by nearest rank: the smallest sample with at least a fraction `q`
    /// of the samples at or below it (so `quantile(v, 0.5)` is the lower median); 0 when empty.
    public static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s[min(s.count - 1, max(0, Int((q * Double(s.count)).rounded(.up)) - 1))]
    }

    /// The upper median (the lower median's neighbour above for an even count); nan when empty.
    public static func upperMedian(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        return s[s.count / 2]
    }
}

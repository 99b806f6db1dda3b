import Foundation

/// Summary statistics of a list of non-negative errors, defined as evo's
/// `PE.get_all_statistics` defines them (population standard deviation, median of an even
/// count = mean of the two middle values).
public struct ErrorStatistics: Sendable, Equatable, Codable {
    /// Number of errors.
    public var count: Int
    /// Root mean square.
    public var rmse: Double
    /// Arithmetic mean.
    public var mean: Double
    /// Median.
    public var median: Double
    /// Population standard deviation (divides by `count`).
    public var std: Double
    /// Smallest error.
    public var min: Double
    /// Largest error.
    public var max: Double
    /// Sum of squared errors.
    public var sse: Double

    /// Statistics of `errors`; all zero when the list is empty.
    public init(_ errors: [Double]) {
        count = errors.count
        guard !errors.isEmpty else {
            (rmse, mean, median, std, min, max, sse) = (0, 0, 0, 0, 0, 0, 0)
            return
        }
        let n = Double(errors.count)
        sse = errors.reduce(0) { $0 + $1 * $1 }
        rmse = (sse / n).squareRoot()
        mean = errors.reduce(0, +) / n
        let m = mean
        std = (errors.reduce(0) { $0 + ($1 - m) * ($1 - m) } / n).squareRoot()
        let sorted = errors.sorted()
        let mid = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
        min = sorted[0]
        max = sorted[sorted.count - 1]
    }

    /// The statistics by evo's names, in evo's order.
    public var named: [(name: String, value: Double)] {
        [("rmse", rmse), ("mean", mean), ("median", median), ("std", std), ("min", min), ("max", max), ("sse", sse)]
    }
}

import Foundation
import ParallaxDatasets
import ParallaxTracking

/// Per-frame cost of the estimator on a dataset, split front-end / back-end (use a release build;
/// one core — the estimator is single-threaded). Meant for a `parallax bench tracking` command.
public struct TrackingBenchmark: Sendable {
    /// Statistics of one run.
    public struct Result: Sendable, CustomStringConvertible {
        /// Mono or stereo.
        public var mode: TrackerConfiguration.Mode
        /// Frames timed.
        public var frames: Int
        /// Median and 99th percentile of total, front-end and back-end milliseconds per frame.
        public var totalMedian: Double, totalP99: Double
        public var frontEndMedian: Double, frontEndP99: Double
        public var backEndMedian: Double, backEndP99: Double
        /// Median and 99th percentile of PNG reading and decoding, not part of the totals.
        public var decodeMedian: Double, decodeP99: Double

        public var description: String {
            String(format: "%@: %d frames, tracking ms/frame median %.2f (front %.2f, back %.2f), p99 %.2f (front %.2f, back %.2f); "
                   + "PNG decoding (not counted) median %.2f, p99 %.2f",
                   mode.rawValue, frames, totalMedian, frontEndMedian, backEndMedian, totalP99, frontEndP99, backEndP99,
                   decodeMedian, decodeP99)
        }
    }

    /// The dataset to replay.
    public let dataset: EuRoCDataset

    /// Creates a benchmark.
    public init(dataset: EuRoCDataset) { self.dataset = dataset }

    /// Replays the dataset once in `mode` and measures every frame.
    public func run(mode: TrackerConfiguration.Mode, from: Double? = nil, to: Double? = nil) throws -> Result {
        let summary = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: mode)).run(from: from, to: to)
        let q = SampleStatistics.quantile
        let total = summary.trackingMs
        return Result(mode: dataset.isStereo ? mode : .mono, frames: summary.frames,
                      totalMedian: q(total, 0.5), totalP99: q(total, 0.99),
                      frontEndMedian: q(summary.frontEndMs, 0.5), frontEndP99: q(summary.frontEndMs, 0.99),
                      backEndMedian: q(summary.backEndMs, 0.5), backEndP99: q(summary.backEndMs, 0.99),
                      decodeMedian: q(summary.decodeMs, 0.5), decodeP99: q(summary.decodeMs, 0.99))
    }
}

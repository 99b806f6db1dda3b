import Foundation
import ParallaxDatasets
import ParallaxMath
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
        /// Passes over the dataset; with more than one, every frame's times are the lowest of its passes.
        public var passes: Int = 1

        public var description: String {
            String(format: "%@: %d frames, tracking ms/frame median %.2f (front %.2f, back %.2f), p99 %.2f (front %.2f, back %.2f); "
                   + "PNG decoding (not counted) median %.2f, p99 %.2f",
                   mode.rawValue, frames, totalMedian, frontEndMedian, backEndMedian, totalP99, frontEndP99, backEndP99,
                   decodeMedian, decodeP99)
                + (passes > 1 ? "; each frame the lowest of \(passes) passes" : "")
        }
    }

    /// A replay's answers differed between passes, so per-frame times cannot be paired.
    public struct NondeterministicReplay: Error, CustomStringConvertible {
        public var description: String
    }

    /// The dataset to replay.
    public let dataset: EuRoCDataset

    /// Creates a benchmark.
    public init(dataset: EuRoCDataset) { self.dataset = dataset }

    /// Replays the dataset `passes` times in `mode` and measures every frame.
    ///
    /// Why several passes: on a shared machine another tenant's burst lands on some frames of a
    /// pass and inflates them (the same replay's median moved by 15–60 % between runs here). The
    /// replay is deterministic, so frame k does the same work in every pass, and the lowest of its
    /// times is its cost with the least interference: medians taken over those per-frame minima
    /// repeat closely. Total, front-end, back-end and decoding are each minimised on their own, so
    /// front and back need not add up to the total.
    public func run(mode: TrackerConfiguration.Mode, from: Double? = nil, to: Double? = nil, passes: Int = 1) throws -> Result {
        let passes = max(1, passes)
        var total: [Double] = [], front: [Double] = [], back: [Double] = [], decode: [Double] = []
        var frames = 0
        var poses: [Vector3?] = []
        for pass in 0..<passes {
            var positions: [Vector3?] = []
            let summary = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: mode))
                .run(from: from, to: to) { result, _ in positions.append(result.T_world_body?.translation) }
            if pass == 0 {
                (frames, total, front, back, decode) = (summary.frames, summary.trackingMs, summary.frontEndMs,
                                                         summary.backEndMs, summary.decodeMs)
                poses = positions
                continue
            }
            guard summary.frames == frames, summary.trackingMs.count == total.count, positions == poses else {
                throw NondeterministicReplay(description: "pass \(pass + 1) of the replay gave other answers than the first; per-frame times cannot be paired")
            }
            total = zip(total, summary.trackingMs).map { min($0, $1) }
            front = zip(front, summary.frontEndMs).map { min($0, $1) }
            back = zip(back, summary.backEndMs).map { min($0, $1) }
            decode = zip(decode, summary.decodeMs).map { min($0, $1) }
        }
        let q = SampleStatistics.quantile
        var result = Result(mode: dataset.isStereo ? mode : .mono, frames: frames,
                            totalMedian: q(total, 0.5), totalP99: q(total, 0.99),
                            frontEndMedian: q(front, 0.5), frontEndP99: q(front, 0.99),
                            backEndMedian: q(back, 0.5), backEndP99: q(back, 0.99),
                            decodeMedian: q(decode, 0.5), decodeP99: q(decode, 0.99))
        result.passes = passes
        return result
    }
}

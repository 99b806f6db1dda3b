import Foundation
import ParallaxDatasets

/// Why an evaluation could not be computed.
public struct EvaluationError: Error, CustomStringConvertible, Equatable {
    /// What went wrong, naming the trajectories involved.
    public let message: String
    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Reference and estimate poses paired by timestamp (index `k` of both belongs together).
public struct AssociatedTrajectories: Sendable {
    /// The matched reference (ground-truth) poses.
    public var reference: Trajectory
    /// The matched estimate poses, in the estimate's own clock.
    public var estimate: Trajectory
    /// Index into the original reference of each pair.
    public var referenceIndices: [Int]
    /// Index into the original estimate of each pair.
    public var estimateIndices: [Int]

    /// Number of pairs.
    public var count: Int { referenceIndices.count }
}

/// Nearest-neighbour association of timestamps, with the semantics of evo's
/// `associate_trajectories` / `matching_time_indices` (evo ≥ 1.26, `evo/core/sync.py`):
///
/// - the trajectory with **fewer** poses drives the search (the estimate when both have the
///   same count), so none of its poses is lost; each of its poses takes the nearest pose of the
///   other trajectory, and several may take the same one;
/// - `offset` is added to the estimate's times (evo's `--t_offset`), i.e. subtracted from the
///   reference's when the reference is the longer one;
/// - a pair is accepted when `|Δt| ≤ maxDifference`; on an exact tie the earlier pose wins;
/// - poses outside the other trajectory's time span ± `maxDifference` are skipped.
public enum TimestampAssociation {
    /// Indices `(short, long)` of matches for every time in `short` that has a time in `long`
    /// (shifted by `longOffset`) within `maxDifference`. Both lists must be sorted ascending.
    public static func matchingIndices(
        short: [Double], long: [Double], maxDifference: Double, longOffset: Double = 0
    ) -> (short: [Int], long: [Int]) {
        guard !long.isEmpty else { return ([], []) }
        let shifted = long.map { $0 + longOffset }   // evo adds the offset to the copy first
        var outShort: [Int] = [], outLong: [Int] = []
        for (i, t) in short.enumerated() {
            if t < shifted[0] - maxDifference || t > shifted[shifted.count - 1] + maxDifference { continue }
            // Upper bound: the first index whose time is strictly greater than t.
            var lo = 0, hi = shifted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if shifted[mid] <= t { lo = mid + 1 } else { hi = mid }
            }
            let upper = min(lo, shifted.count - 1)
            let diffUpper = shifted[upper] - t
            let diffLower = upper > 0 ? t - shifted[upper - 1] : Double.infinity
            let best: Int
            if diffUpper <= maxDifference && diffUpper < diffLower {
                best = upper
            } else if diffLower <= maxDifference && diffLower <= diffUpper {
                best = upper - 1
            } else {
                continue
            }
            outShort.append(i)
            outLong.append(best)
        }
        return (outShort, outLong)
    }

    /// Pairs `reference` and `estimate` poses by time.
    /// - Parameters:
    ///   - maxDifference: largest accepted time difference in seconds (evo's `--t_max_diff`).
    ///   - offset: seconds added to the estimate's times before matching (evo's `--t_offset`).
    /// - Throws: `EvaluationError` when either trajectory is empty or no pair matches.
    public static func associate(
        reference: Trajectory, estimate: Trajectory, maxDifference: Double = 0.01, offset: Double = 0
    ) throws -> AssociatedTrajectories {
        guard maxDifference >= 0, maxDifference.isFinite, offset.isFinite else {
            throw EvaluationError("the maximum time difference must be a finite number ≥ 0 and the offset finite")
        }
        guard let refRange = reference.timeRange else { throw EvaluationError("\(reference.name) has no poses") }
        guard let estRange = estimate.timeRange else { throw EvaluationError("\(estimate.name) has no poses") }
        let estimateLonger = estimate.count > reference.count
        let refIdx: [Int], estIdx: [Int]
        if estimateLonger {
            (refIdx, estIdx) = matchingIndices(
                short: reference.timestamps, long: estimate.timestamps, maxDifference: maxDifference, longOffset: offset)
        } else {
            (estIdx, refIdx) = matchingIndices(
                short: estimate.timestamps, long: reference.timestamps, maxDifference: maxDifference, longOffset: -offset)
        }
        guard !refIdx.isEmpty else {
            func span(_ r: ClosedRange<Double>) -> String { String(format: "%.6f–%.6f s", r.lowerBound, r.upperBound) }
            throw EvaluationError(
                "no timestamps of \(estimate.name) (\(span(estRange))) match \(reference.name) (\(span(refRange))) "
                + "within \(maxDifference) s (offset \(offset) s): the trajectories do not overlap in time")
        }
        return AssociatedTrajectories(
            reference: reference.subset(refIdx), estimate: estimate.subset(estIdx),
            referenceIndices: refIdx, estimateIndices: estIdx)
    }
}

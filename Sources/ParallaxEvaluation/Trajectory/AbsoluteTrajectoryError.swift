import Foundation
import ParallaxDatasets
import ParallaxMath

/// Absolute trajectory error: the translation error of each associated pose after aligning the
/// whole estimate to the reference (evo_ape `--pose_relation trans_part`, the ATE of Sturm et
/// al., IROS 2012).
public struct AbsoluteTrajectoryError: Sendable {
    /// The alignment applied to the estimate.
    public var alignment: TrajectoryAlignment
    /// Per-pose error `‖p_est,aligned − p_ref‖` in metres, in association order.
    public var errors: [Double]
    /// Statistics of `errors` (metres).
    public var statistics: ErrorStatistics
    /// The associated estimate after alignment (in the reference world frame).
    public var alignedEstimate: Trajectory

    /// Aligns `pairs.estimate` to `pairs.reference` with `method` and measures the errors.
    public init(_ pairs: AssociatedTrajectories, alignment method: AlignmentMethod) throws {
        let alignment = try TrajectoryAlignment.estimate(
            method, estimate: pairs.estimate.positions, reference: pairs.reference.positions)
        try self.init(pairs, alignment: alignment)
    }

    /// Measures the errors after applying a given alignment.
    public init(_ pairs: AssociatedTrajectories, alignment: TrajectoryAlignment) throws {
        guard pairs.count > 0 else { throw EvaluationError("no associated poses to evaluate") }
        self.alignment = alignment
        alignedEstimate = alignment.apply(to: pairs.estimate)
        let ref = pairs.reference.positions
        errors = alignedEstimate.positions.enumerated().map { i, p in (p - ref[i]).norm }
        statistics = ErrorStatistics(errors)
    }
}

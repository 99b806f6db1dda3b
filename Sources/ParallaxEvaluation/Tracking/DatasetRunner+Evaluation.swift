import ParallaxDatasets
import ParallaxTracking

extension DatasetRunner.Summary {
    /// ATE (posyaw alignment, 10 ms association) against ground truth, when both exist.
    public func evaluation(alignment: AlignmentMethod = .posyaw) throws -> TrajectoryEvaluation? {
        guard let gt = groundTruth, trajectory.count >= 3 else { return nil }
        var options = EvaluationOptions()
        options.alignment = alignment
        return try TrajectoryEvaluation(estimate: trajectory, reference: gt, options: options)
    }
}

import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxEvaluation

/// `parallax evaluate trajectory EST GT` (also `parallax evaluate EST GT`): ATE and RPE of an estimated trajectory against ground truth,
/// with the same definitions as evo_ape / evo_rpe (see `ParallaxDatasets/Evaluation`).
struct EvaluateTrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "Score an estimated trajectory against ground truth (ATE and RPE).",
        discussion: """
            Files are TUM text (timestamp tx ty tz qx qy qz qw) or EuRoC ground-truth CSV \
            (detected by extension, then content). Poses are paired by nearest timestamp within \
            --max-diff seconds, the estimate is aligned to the ground truth (posyaw = translation \
            + yaw, the 4 unobservable DoF of visual-inertial odometry; se3; sim3; none), then the \
            translation ATE and the RPE over --rpe-delta (m: travelled metres, s: seconds, \
            f: poses) are reported. Figures agree with evo_ape/evo_rpe (trans_part, angle_deg) \
            for none/se3/sim3; evo has no posyaw.
            """)

    @Argument(help: "Estimated trajectory (TUM text or EuRoC CSV).")
    var estimate: String

    @Argument(help: "Ground-truth trajectory (TUM text or EuRoC CSV).")
    var groundTruth: String

    @Option(help: "Alignment: posyaw, se3, sim3 or none.")
    var align: AlignmentMethod = .posyaw

    @Option(parsing: .unconditional, help: "Largest time difference in seconds for pairing poses (≥ 0).")
    var maxDiff: Double = 0.01

    @Option(parsing: .unconditional, help: "Seconds added to the estimate's timestamps before pairing (may be negative).")
    var offset: Double = 0

    @Option(parsing: .unconditional, help: "RPE step (positive).")
    var rpeDelta: Double = 1

    @Option(help: "Unit of the RPE step: m (travelled metres), s (seconds) or f (poses).")
    var rpeUnit: RPEDeltaUnit = .meters

    @Flag(help: "Start an RPE pair at every pose instead of consecutive pairs (evo --all_pairs).")
    var rpeAllPairs = false

    @Flag(help: "Print the report as JSON instead of a table.")
    var json = false

    @Option(help: "Write a top-view (x-y) PNG of both aligned trajectories to this file.")
    var plot: String?

    func validate() throws {
        try NumberChecks.nonNegative(maxDiff, "--max-diff", atMost: NumberChecks.maxSeconds, unit: "s")
        try NumberChecks.positive(rpeDelta, "--rpe-delta", atMost: 1e9)
        try NumberChecks.finite(offset, "--offset")
        guard abs(offset) <= NumberChecks.maxSeconds else {
            throw ValidationError("--offset must be within ±\(NumberChecks.text(NumberChecks.maxSeconds)) s, got \(NumberChecks.text(offset))")
        }
    }

    func run() throws {
        let est = try Trajectory.read(contentsOf: URL(fileURLWithPath: estimate))
        let gt = try Trajectory.read(contentsOf: URL(fileURLWithPath: groundTruth))
        var options = EvaluationOptions()
        options.alignment = align
        options.maxDifference = maxDiff
        options.timeOffset = offset
        options.rpeDelta = rpeDelta
        options.rpeUnit = rpeUnit
        options.rpeAllPairs = rpeAllPairs
        let evaluation = try TrajectoryEvaluation(estimate: est, reference: gt, options: options)
        if let plot {
            try TrajectoryPlot.write(evaluation, to: URL(fileURLWithPath: plot))
        }
        print(json ? try evaluation.report.jsonText() : evaluation.report.table(), terminator: "")
        if let plot, !json { print("plot written to \(plot)") }
    }
}

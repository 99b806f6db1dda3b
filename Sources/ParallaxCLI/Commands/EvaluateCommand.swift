import ArgumentParser

/// `parallax evaluate`: the measurement commands, one per thing measured. `trajectory` is the
/// default, so `parallax evaluate EST GT` still scores a trajectory.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure trajectories, plane detection, light estimation and feature tracks against ground truth.",
        subcommands: [
            EvaluateTrajectoryCommand.self, EvaluatePlanesCommand.self, EvaluateLightCommand.self,
            EvaluateFrontEndCommand.self, EvaluateMapCommand.self, EvaluateSecondSessionCommand.self,
        ],
        defaultSubcommand: EvaluateTrajectoryCommand.self)
}

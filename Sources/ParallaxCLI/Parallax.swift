import ArgumentParser

/// The `parallax` command: replay, measure and render world tracking on a headless machine.
@main
struct Parallax: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax",
        abstract: "World tracking you can replay, measure and render on a server.",
        discussion: """
            Datasets use the EuRoC/ASL folder layout (also TUM-VI exports). Poses follow \
            docs/architecture.md: T_world_body, Hamilton quaternions, seconds and metres.
            """,
        version: "0.1.0",
        subcommands: [
            InfoCommand.self, ReplayCommand.self, HitTestCommand.self, EvaluateCommand.self,
            EvaluatePlanesCommand.self, EvaluateLightCommand.self, EvaluateFrontEndCommand.self, RenderCommand.self, ViewCommand.self,
            SimulateCommand.self, BenchCommand.self,
        ])
}

import ArgumentParser

/// The `parallax` command: replay, measure and render world tracking on a headless machine.
@main
struct Parallax: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax",
        abstract: "World tracking you can replay, measure and render on a server.",
        discussion: """
            Datasets use the EuRoC/ASL folder layout (also TUM-VI exports). Poses follow \
            docs/architecture.md: T_world_body, Hamilton quaternions, seconds and metres. \
            Mistakes in a command line print "Error: …" and the usage (exit code 64); failures \
            while running print "Error: …" (exit code 1).
            """,
        version: "0.1.0",
        subcommands: [
            InfoCommand.self, ReplayCommand.self, ConvertCommand.self, HitTestCommand.self, EvaluateCommand.self, RenderCommand.self,
            ViewCommand.self, SimulateCommand.self, BenchCommand.self, VocabularyCommand.self,
        ])

    /// Command names from before `evaluate` became a group, still accepted as the first argument.
    static let formerCommandNames = [
        "evaluate-planes": ["evaluate", "planes"], "evaluate-light": ["evaluate", "light"],
        "evaluate-frontend": ["evaluate", "frontend"],
    ]

    /// `arguments` with a former command name (`evaluate-planes`) replaced by its current path.
    static func modernized(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, let path = formerCommandNames[first] else { return arguments }
        return path + arguments.dropFirst()
    }

    static func main() async {
        await main(modernized(Array(CommandLine.arguments.dropFirst())))
    }
}

import ArgumentParser

/// `parallax bench`: speed and memory measurements (benchmarks, not tests). Build with
/// `swift build -c release` before trusting any figure.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure speed and memory (use a release build).",
        subcommands: [
            BenchRenderCommand.self, BenchReplayCommand.self, BenchFrontEndCommand.self, BenchTrackingCommand.self,
            BenchSimulateCommand.self, BenchARSessionCommand.self,
        ])
}

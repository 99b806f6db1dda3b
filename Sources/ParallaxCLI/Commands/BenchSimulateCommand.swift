import ArgumentParser
import Foundation
import ParallaxEvaluation
import ParallaxSceneGraph
import ParallaxSimulation

/// `parallax bench simulate`: simulated camera frames per second (rendering, distortion warp,
/// noise and PNG encoding), mono and stereo at EuRoC's 752×480.
struct BenchSimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate", abstract: "Measure simulation speed (frames per second, mono and stereo).")

    @Option(help: "Scene file the simulated cameras look at.")
    var scene: String = "Scenes/room.json"

    @Option(parsing: .unconditional, help: "Frames per case (1…100000).")
    var frames: Int = 40

    func validate() throws {
        try NumberChecks.integer(frames, "--frames", in: 1...100_000)
    }

    func run() throws {
        let loaded = try Scene.load(contentsOf: URL(fileURLWithPath: scene))
        for stereo in [false, true] {
            let result = try SimulationBenchmark.run(scene: loaded, stereo: stereo, frames: frames)
            print(result.description)
        }
    }
}

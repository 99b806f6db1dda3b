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

    @Option(help: "Frames per case.")
    var frames: Int = 40

    func run() throws {
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        let loaded = try Scene.load(contentsOf: URL(fileURLWithPath: scene))
        for stereo in [false, true] {
            let result = try SimulationBenchmark.run(scene: loaded, stereo: stereo, frames: frames)
            print(result.description)
        }
    }
}

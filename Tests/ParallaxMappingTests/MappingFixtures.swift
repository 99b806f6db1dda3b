import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMapping
import ParallaxMath
import ParallaxSceneGraph
import ParallaxSimulation
import ParallaxTracking

/// Simulated datasets for the mapping tests, cached like the tracking tests' (same names, so
/// either suite reuses the other's renders).
enum MappingFixtures {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let trajectories = repoRoot.appendingPathComponent("../shared/trajectories").standardizedFileURL
    static let cache = URL(fileURLWithPath: ProcessInfo.processInfo.environment["PARALLAX_SIM_CACHE"] ?? "/tmp/parallax-sim")
    /// True when the shared trajectories exist (simulation tests are skipped otherwise).
    static var hasTrajectories: Bool { FileManager.default.fileExists(atPath: trajectories.path) }

    /// `parallax simulate --scene Scenes/room.json --trajectory <trajectory> --duration <d> [--stereo] --seed 1
    /// --rate-cam <rate>` with EuRoC cameras and noise, generated once.
    static func simulated(trajectory: String, stereo: Bool, duration: Double, rate: Int = 20) throws -> EuRoCDataset {
        let name = "\(trajectory)-room-\(stereo ? "stereo" : "mono")-\(Int(duration))s-\(rate)hz"
        let folder = try SimulationCache(folder: cache).dataset(named: name) { temporary in
            let scene = try Scene.load(contentsOf: repoRoot.appendingPathComponent("Scenes/room.json"))
            var config = SimulationConfiguration()
            config.seed = 1
            config.cameras = SimulationConfiguration.eurocCameras(stereo: stereo, rate: Double(rate))
            let poses = try TUMTrajectory.read(contentsOf: trajectories.appendingPathComponent("\(trajectory).txt"))
            let samples = poses.poses.map { PoseSample(time: $0.time, T_world_body: $0.T_world_body) }
            let spline = try TrajectoryBuilder.fromSamples(samples, staticStart: 0, duration: duration)
            let alignment = SimulationSetup.alignment(for: spline, scene: scene)
            _ = try Simulator(scene: scene, trajectory: spline, configuration: config, alignment: alignment).run(to: temporary)
        }
        return try EuRoCDataset(url: folder)
    }

    /// The revisit walk the mapping suites share: rpng_table_03, mono, 60 s at 10 Hz (it circles
    /// a table and comes back to views it mapped more than 10 s before).
    static func tableWalk() throws -> EuRoCDataset {
        try simulated(trajectory: "rpng_table_03", stereo: false, duration: 60, rate: 10)
    }
}

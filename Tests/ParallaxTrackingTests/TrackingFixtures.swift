import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxSceneGraph
import ParallaxSimulation
import ParallaxTracking

/// Paths and datasets shared by the tracking tests.
enum TrackingFixtures {
    /// Repository root (three levels up from this file).
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The shared folder next to the repository (`<repo>/../shared`).
    static let shared = repoRoot.appendingPathComponent("../shared").standardizedFileURL
    /// The real EuRoC V1_01 snippet (drone at rest).
    static let snippet = shared.appendingPathComponent("datasets/euroc-v101-micro")

    /// Where simulated test datasets are cached (override with `PARALLAX_SIM_CACHE`).
    static let cache = URL(fileURLWithPath: ProcessInfo.processInfo.environment["PARALLAX_SIM_CACHE"]
        ?? "/tmp/parallax-sim")

    /// Duration of the simulated accuracy datasets (s) and camera rate (Hz).
    static let simulatedDuration = 30.0
    static let simulatedCameraRate = 20.0

    /// The world each trajectory is flown through: the room for EuRoC V1_01 (a 2 × 3 × 0.7 m flight),
    /// the 40 × 30 × 12 m hall for UDel Gore and the EuRoC machine-hall flights (MH_*), as EuRoC's
    /// own hall: Gore's first 30 s climb 7.8 m and cross 8.6 m — in the
    /// 6 × 5 × 3 m room the camera would start outside the walls and see black for 18 % of the frames.
    static func scene(for trajectory: String) -> String {
        trajectory == "udel_gore" || trajectory.hasPrefix("euroc_MH") ? "hall" : "room"
    }

    /// The simulated stereo dataset following `trajectory` (a file in `shared/trajectories`) through
    /// ``scene(for:)`` with EuRoC noise, seed 1 — generated once and cached, exactly what
    /// `parallax simulate --scene Scenes/<scene>.json --trajectory … --duration 30 --stereo --seed 1` writes.
    /// Mono runs use its cam0 (the same images a mono simulation renders), which halves the
    /// generation cost. Returns nil (with the reason) when the shared trajectories are absent.
    /// Handheld runs (`stereo: false`) render cam0 alone: a mono dataset, as a phone records.
    /// `timeOffset` (s) shifts the image stamps against the IMU (Kalibr's `timeshift_cam_imu`) without
    /// stating it in `sensor.yaml`, so the tracker has to estimate it; `duration` shortens the run.
    /// `profile` applies a sensor profile's effects (`phone`: rolling shutter, exposure, offset,
    /// calibration error, auto-exposure), stated in `sensor.yaml` as a dataset would.
    static func simulated(trajectory: String, stereo: Bool = true, timeOffset: Double = 0,
                          duration: Double = simulatedDuration, profile: SensorProfile = .ideal) throws
        -> (EuRoCDataset?, String) {
        let trajectoryURL = shared.appendingPathComponent("trajectories/\(trajectory).txt")
        guard FileManager.default.fileExists(atPath: trajectoryURL.path) else {
            return (nil, "skipped: \(trajectoryURL.path) not found")
        }
        let sceneName = scene(for: trajectory)
        let offsetTag = (timeOffset == 0 ? "" : "-td\(Int((timeOffset * 1e4).rounded()))e-4s")
            + (profile == .ideal ? "" : "-\(profile.rawValue)-\(Self.shutterTag(profile.effects))")  // images differ by method
        let name = "\(trajectory)-\(sceneName)-\(stereo ? "stereo" : "mono")-\(Int(duration))s-\(Int(simulatedCameraRate))hz\(offsetTag)"
        let folder = try SimulationCache(folder: cache).dataset(named: name) { temporary in
            try simulate(trajectory: trajectory, stereo: stereo, duration: duration, into: temporary) { config in
                if profile != .ideal {
                    config.sensorEffects = profile.effects
                } else {
                    config.sensorEffects.timeshiftCamIMU = timeOffset
                    config.sensorEffects.statesTimingInCalibration = false
                }
            }
        }
        return (try EuRoCDataset(url: folder), name)
    }

    /// A set like ``simulated(trajectory:stereo:timeOffset:duration:profile:)``'s (mono unless
    /// `stereo`), but from seed `seed`, with IMU turn-on biases drawn with `biasSpread` when given
    /// (images, noise and biases all from that seed, as `parallax simulate --seed N
    /// --gyro-bias-spread … --accel-bias-spread …` makes them).
    static func simulated(trajectory: String, stereo: Bool = false, duration: Double, profile: SensorProfile,
                          seed: UInt64, biasSpread: InitialBiasSpread?) throws -> (EuRoCDataset?, String) {
        guard FileManager.default.fileExists(atPath: shared.appendingPathComponent("trajectories/\(trajectory).txt").path) else {
            return (nil, "skipped: trajectories/\(trajectory).txt not found")
        }
        let name = "\(trajectory)-\(scene(for: trajectory))-\(stereo ? "stereo" : "mono")-\(Int(duration))s-\(Int(simulatedCameraRate))hz"
            + "-\(profile.rawValue)-\(shutterTag(profile.effects))-s\(seed)"
            + (biasSpread.map { "-bias\($0.gyroscope)-\($0.accelerometer)" } ?? "")
        let folder = try SimulationCache(folder: cache).dataset(named: name) { temporary in
            try simulate(trajectory: trajectory, stereo: stereo, duration: duration, into: temporary) { config in
                config.sensorEffects = profile.effects
                config.seed = seed
                config.initialBiasSpread = biasSpread
            }
        }
        return (try EuRoCDataset(url: folder), name)
    }

    /// Simulates `trajectory` through ``scene(for:)`` with EuRoC's cameras at ``simulatedCameraRate``,
    /// seed 1, and whatever `configure` changes, into `folder`.
    private static func simulate(trajectory: String, stereo: Bool, duration: Double, into folder: URL,
                                 configure: (inout SimulationConfiguration) -> Void) throws {
        let sceneFile = repoRoot.appendingPathComponent("Scenes/\(Self.scene(for: trajectory)).json")
        let scene = try Scene.load(contentsOf: sceneFile)
        var config = SimulationConfiguration()
        config.seed = 1
        config.cameras = SimulationConfiguration.eurocCameras(stereo: stereo, rate: simulatedCameraRate)
        configure(&config)
        let poses = try TUMTrajectory.read(contentsOf: shared.appendingPathComponent("trajectories/\(trajectory).txt"))
        let samples = poses.poses.map { PoseSample(time: $0.time, T_world_body: $0.T_world_body) }
        let spline = try TrajectoryBuilder.fromSamples(samples, staticStart: 0, duration: duration)
        _ = try Simulator(scene: scene, trajectory: spline, configuration: config,
                          alignment: SimulationSetup.alignment(for: spline, scene: scene)).run(to: folder)
    }

    /// Writes into `folder` the cached dataset `name` (made by ``simulated(trajectory:stereo:timeOffset:duration:profile:)``
    /// from `trajectory`, mono, seed 1) with its IMU and ground truth simulated again from initial
    /// biases drawn with `spread`; the images and `sensor.yaml` are the cached dataset's (cam0 data
    /// linked, not copied). Only the IMU is rendered again, which takes a second.
    static func withRedrawnBias(of name: String, trajectory: String, duration: Double, profile: SensorProfile,
                                spread: InitialBiasSpread, into folder: URL) throws {
        try withRedrawnIMU(of: name, trajectory: trajectory, duration: duration, profile: profile, into: folder) {
            $0.initialBiasSpread = spread
        }
    }

    /// As ``withRedrawnBias(of:trajectory:duration:profile:spread:into:)``, with the IMU simulated
    /// again under whatever `configure` changes (its biases, its scale and misalignment errors).
    static func withRedrawnIMU(of name: String, trajectory: String, duration: Double, profile: SensorProfile,
                               into folder: URL, configure: (inout SimulationConfiguration) -> Void) throws {
        let source = cache.appendingPathComponent(name)
        try simulate(trajectory: trajectory, stereo: false, duration: duration, into: folder) { config in
            config.sensorEffects = profile.effects
            config.renderImages = false
            configure(&config)
        }
        let fm = FileManager.default
        let cam0 = folder.appendingPathComponent("mav0/cam0")
        try? fm.removeItem(at: cam0)
        try fm.createDirectory(at: cam0, withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: cam0.appendingPathComponent("data"),
                                  withDestinationURL: source.appendingPathComponent("mav0/cam0/data"))
        for file in ["data.csv", "sensor.yaml"] {
            try fm.copyItem(at: source.appendingPathComponent("mav0/cam0/\(file)"), to: cam0.appendingPathComponent(file))
        }
    }

    /// How a profile's blur and rolling shutter were rendered, for cache names: `rp` for
    /// reprojection, `r64` for up to 64 renders.
    static func shutterTag(_ effects: SensorEffects) -> String {
        effects.shutterMethod == .reprojection ? "rp" : "r\(effects.maxRendersPerFrame)"
    }

    /// Runs the estimator over a dataset and returns the summary.
    static func run(_ dataset: EuRoCDataset, mode: TrackerConfiguration.Mode, from: Double? = nil, to: Double? = nil)
        throws -> DatasetRunner.Summary {
        try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: mode)).run(from: from, to: to)
    }
}

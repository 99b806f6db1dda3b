import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

/// Everything that defines a simulated recording besides the scene and the trajectory.
public struct SimulationConfiguration: Sendable {
    /// Random seed: the same configuration, scene, trajectory and seed give byte-identical files.
    public var seed: UInt64 = 1
    /// IMU calibration (rate and noise densities; EuRoC ADIS16448 at 200 Hz by default).
    public var imu: IMUCalibration = .eurocIMU
    /// One (mono) or two (stereo) cameras; EuRoC cam0/cam1 by default. Their `rateHz` is used.
    public var cameras: [CameraCalibration] = [.eurocCam0]
    /// Sensor noise of the images, in grey levels (σ of a Gaussian).
    public var imageNoiseSigma: Double = 2
    /// Whether lighting and exposure change over time.
    public var varyLighting = true
    /// Whether to render images at all (false: IMU and ground truth only).
    public var renderImages = true
    /// Added to every timestamp (ns), so files look like a recording (EuRoC uses Unix epoch ns).
    public var timeOffsetNs: Int64 = 1_700_000_000_000_000_000
    /// Initial biases of the IMU.
    public var initialGyroscopeBias = Vector3(0.002, -0.001, 0.0015)
    /// Initial biases of the IMU.
    public var initialAccelerometerBias = Vector3(0.03, -0.02, 0.04)
    /// When set, the initial biases are drawn from the seed with this spread instead of the two
    /// fixed values above (the ground-truth CSV's bias columns hold what was drawn).
    public var initialBiasSpread: InitialBiasSpread?
    /// Sizes of the IMU's scale-factor and misalignment errors, drawn from the seed (none by
    /// default); the drawn matrices go to `truth/imu.json`.
    public var imuIntrinsicErrors = IMUIntrinsicErrorSizes.none
    /// Camera imperfections (exposure blur, rolling shutter, time shift, calibration error,
    /// auto-exposure); none by default, which keeps the output byte-identical to earlier versions.
    public var sensorEffects = SensorEffects()

    /// Creates the default configuration (mono EuRoC camera, EuRoC IMU, seed 1).
    public init() {}

    /// The IMU's biases at the first sample: drawn from the seed when `initialBiasSpread` is set,
    /// the fixed values otherwise.
    public var initialBiases: (gyroscope: Vector3, accelerometer: Vector3) {
        initialBiasSpread?.draw(seed: seed) ?? (initialGyroscopeBias, initialAccelerometerBias)
    }

    /// EuRoC's stereo pair at `rate` Hz.
    public static func eurocCameras(stereo: Bool, rate: Double = 20) -> [CameraCalibration] {
        (stereo ? [CameraCalibration.eurocCam0, .eurocCam1] : [.eurocCam0]).map {
            var c = $0
            c.rateHz = rate
            return c
        }
    }
}

/// What a simulation wrote.
public struct SimulationSummary: Sendable {
    /// IMU and ground-truth rows.
    public var imuSamples: Int
    /// Frames per camera.
    public var cameraFrames: Int
    /// Number of cameras.
    public var cameras: Int
    /// Planar surfaces in `truth/planes.json`.
    public var planes: Int
}

/// Simulates a visual-inertial recording of a scene along a trajectory and writes it in the
/// EuRoC layout: `mav0/{cam0,cam1,imu0,state_groundtruth_estimate0}` plus `truth/planes.json` and
/// `truth/lighting.json` next to `mav0`.
public final class Simulator {
    /// The scene (y-up, scene-graph world).
    public let scene: Scene
    /// The body (IMU) trajectory in the z-up world.
    public let trajectory: CumulativeBSpline
    /// Settings.
    public let configuration: SimulationConfiguration
    /// Placement of the z-up world in the scene.
    public let alignment: SceneAlignment
    var renderer: OffscreenRenderer?

    /// Prepares a simulation. The renderer is created lazily on the first frame.
    public init(scene: Scene, trajectory: CumulativeBSpline, configuration: SimulationConfiguration, alignment: SceneAlignment) {
        self.scene = scene
        self.trajectory = trajectory
        self.configuration = configuration
        self.alignment = alignment
    }

    /// Runs the simulation into `folder` (created; an existing `mav0` is replaced). With sensor
    /// effects on, `sensor.yaml` holds the written (possibly wrong) calibration and
    /// `truth/meta.json` the true values.
    /// - Parameter progress: called with the fraction done (0…1) after each camera frame.
    @discardableResult
    public func run(to folder: URL, progress: ((Double) -> Void)? = nil) throws -> SimulationSummary {
        let config = configuration
        guard (1...2).contains(config.cameras.count) else {
            throw SimulationError.invalidArgument("need one or two cameras, got \(config.cameras.count)")
        }
        let rate = config.cameras[0].rateHz
        guard rate > 0, rate.isFinite else { throw SimulationError.invalidArgument("camera rate must be positive, got \(rate)") }
        let periodNs = Int64((1e9 / rate).rounded())
        let effects = config.sensorEffects
        try effects.validate(framePeriod: Double(periodNs) * 1e-9)
        if effects.profile.isMono, config.cameras.count > 1 {
            throw SimulationError.invalidArgument("the \(effects.profile.rawValue) sensor profile is a single camera; simulate it mono")
        }
        let perturbations = config.cameras.enumerated().map {
            CalibrationPerturbation(truth: $1, sizes: effects.calibrationError, seed: config.seed, index: $0)
        }
        let bias = config.initialBiases
        var imuSim = IMUSimulator(
            rate: config.imu.rateHz, noise: config.imu.noiseDensities,
            initialGyroscopeBias: bias.gyroscope, initialAccelerometerBias: bias.accelerometer)
        imuSim.intrinsics = config.imuIntrinsicErrors.draw(seed: config.seed)
        let imuSamples = try imuSim.simulate(trajectory: trajectory, seed: config.seed, timeOffsetNanoseconds: config.timeOffsetNs)

        let writer = try EuRoCWriter(url: folder, cameras: perturbations.map { effects.statedCalibration($0.written) },
                                     imu: config.imu, groundTruth: true, overwrite: true)
        for s in imuSamples {
            try writer.append(IMUSample(timestampNs: s.timestampNanoseconds, angularVelocity: s.gyroscope, acceleration: s.accelerometer))
            try writer.append(GroundTruthState(
                timestampNs: s.timestampNanoseconds, position: s.state.T_world_body.translation,
                orientation: s.state.T_world_body.rotation, velocity: s.state.velocityWorld,
                gyroscopeBias: s.gyroscopeBias, accelerometerBias: s.accelerometerBias))
        }

        // Camera frames on the nanosecond grid of the camera rate (they coincide with IMU samples
        // when the IMU rate is a multiple of the camera rate, as in EuRoC).
        let startNs = Int64((trajectory.startTime * 1e9).rounded())
        let frameCount = Int((trajectory.endTime - trajectory.startTime) * 1e9 / Double(periodNs) + 1e-6) + 1
        let frames = try simulateFrames(count: frameCount, startNs: startNs, periodNs: periodNs, writer: writer, progress: progress)
        try writer.finish()

        // Each box's faces once: the planes are the larger of them, the surfaces all of them.
        let faces = ScenePlanes.faces(of: scene, alignment: alignment)
        let planes = ScenePlanes.planes(among: faces)
        let truth = folder.appendingPathComponent("truth")
        do {
            try FileManager.default.createDirectory(at: truth, withIntermediateDirectories: true)
            try Data(TruthFiles.planesJSON(planes, alignment: alignment).utf8).write(to: truth.appendingPathComponent("planes.json"))
            try Data(TruthFiles.planesJSON(ScenePlanes.surfaces(among: faces), alignment: alignment, key: "surfaces").utf8)
                .write(to: truth.appendingPathComponent("surfaces.json"))
            try Data(TruthFiles.lightingJSON(frames.lighting).utf8).write(to: truth.appendingPathComponent("lighting.json"))
            if !effects.isIdeal {
                let meta = SensorMetaFile(effects: effects, cameras: perturbations, imageNoiseSigma: config.imageNoiseSigma,
                                          frames: frames.exposures)
                try meta.json().write(to: truth.appendingPathComponent("meta.json"))
            } else {
                // A stale file from an earlier run with effects would lie about this one.
                try? FileManager.default.removeItem(at: truth.appendingPathComponent("meta.json"))
            }
            let imuTruth = truth.appendingPathComponent("imu.json")
            if config.imuIntrinsicErrors.isZero {
                try? FileManager.default.removeItem(at: imuTruth)
            } else {
                try IMUTruthFile(sizes: config.imuIntrinsicErrors, errors: imuSim.intrinsics).json().write(to: imuTruth)
            }
        } catch {
            throw SimulationError.invalidInput(file: truth.path, reason: "cannot write truth files (\(error.localizedDescription))")
        }
        return SimulationSummary(imuSamples: imuSamples.count, cameraFrames: config.renderImages ? frameCount : 0,
                                 cameras: config.cameras.count, planes: planes.count)
    }
}

import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxSceneGraph
import ParallaxSimulation

#if canImport(Glibc)
import Glibc
#endif

/// `parallax simulate`: a synthetic visual-inertial recording in the EuRoC layout.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a camera + IMU recording of a scene (EuRoC layout with ground truth).",
        discussion: """
            The body (IMU) moves along a C² B-spline: a preset motion around the scene's table, or \
            a fit through a TUM/EuRoC trajectory file. Writes DIR/mav0 (cam0[, cam1], imu0, \
            state_groundtruth_estimate0) and DIR/truth/{planes,surfaces,lighting}.json. The same command \
            and seed give byte-identical files. Limits: --duration ≤ \(Int(Self.maxDuration)) s, \
            --rate-imu ≤ \(Int(Self.maxIMURate)) Hz, --rate-cam ≤ \(Int(Self.maxCameraRate)) Hz (and ≤ the IMU \
            rate), --image-noise ≤ \(Int(Self.maxImageNoise)) grey levels.
            """)

    /// The longest simulation in seconds: an hour at EuRoC rates is 720 k IMU rows and 72 k frames per camera.
    static let maxDuration = 3600.0
    /// The highest IMU rate in Hz (tactical IMUs log at up to a few kHz).
    static let maxIMURate = 10_000.0
    /// The highest camera rate in Hz.
    static let maxCameraRate = 1000.0
    /// The largest image noise σ in grey levels (the full 8-bit range).
    static let maxImageNoise = 255.0
    /// The widest gyroscope bias spread in rad/s (about 57 °/s: far beyond any MEMS part).
    static let maxGyroBiasSpread = 1.0
    /// The widest accelerometer bias spread in m/s² (half of gravity).
    static let maxAccelBiasSpread = 5.0

    @Option(help: "Scene file (JSON, glTF or OBJ).")
    var scene: String = "Scenes/room.json"

    @Option(help: "Trajectory to follow: TUM text (timestamp tx ty tz qx qy qz qw) or EuRoC ground-truth CSV.")
    var trajectory: String?

    @Option(help: "Preset motion when no trajectory is given.")
    var motion: MotionPreset = .handheld

    @Option(parsing: .unconditional, help: "Duration in seconds (a trajectory file may end sooner).")
    var duration: Double = 30

    @Flag(help: "Simulate EuRoC's stereo pair (cam0 and cam1) instead of cam0 only.")
    var stereo = false

    @Option(name: .customLong("static-start"), parsing: .unconditional, help: "Seconds to hold the first pose perfectly still.")
    var staticStart: Double = 0

    @Option(parsing: .unconditional, help: "Random seed (noise, bias walks, lighting; the initial biases with a bias spread).")
    var seed: UInt64 = 1

    @Option(name: .customLong("rate-imu"), parsing: .unconditional, help: "IMU rate in Hz.")
    var rateIMU: Double = 200

    @Option(name: .customLong("rate-cam"), parsing: .unconditional, help: "Camera rate in Hz.")
    var rateCam: Double = 20

    @Option(help: "EuRoC dataset folder whose mav0/cam0, cam1 and imu0 sensor.yaml to use (default: EuRoC's values).")
    var calibration: String?

    @Option(name: .customLong("image-noise"), parsing: .unconditional, help: "Image noise σ in grey levels.")
    var imageNoise: Double = 2

    @Option(name: .customLong("gyro-bias-spread"), parsing: .unconditional,
            help: "Draw the gyroscope's initial bias from the seed: σ per axis in rad/s (0: the fixed default).")
    var gyroBiasSpread: Double = 0

    @Option(name: .customLong("accel-bias-spread"), parsing: .unconditional,
            help: "Draw the accelerometer's initial bias from the seed: σ per axis in m/s² (0: the fixed default).")
    var accelBiasSpread: Double = 0

    @Option(name: .customLong("imu-scale-error"), parsing: .unconditional, help: """
        IMU scale-factor errors: σ per axis in percent, drawn from the seed for the gyroscope and the \
        accelerometer (0 to 10; truth/imu.json gets the drawn values).
        """)
    var imuScaleError: Double = 0

    @Option(name: .customLong("imu-misalignment"), parsing: .unconditional, help: """
        IMU axis misalignment: σ per angle in degrees (three per sensor, drawn from the seed; 0 to 5).
        """)
    var imuMisalignment: Double = 0

    @Flag(name: .customLong("constant-lighting"), help: "Keep lighting and exposure constant.")
    var constantLighting = false

    @Flag(name: .customLong("no-images"), help: "Write IMU, ground truth and truth files only.")
    var noImages = false

    @Option(name: .shortAndLong, help: "Output dataset folder.")
    var output: String

    @OptionGroup(title: "Sensor effects (all off by default)")
    var sensor: SensorEffectOptions

    func validate() throws {
        try NumberChecks.positive(duration, "--duration", atMost: Self.maxDuration, unit: "s")
        try NumberChecks.nonNegative(staticStart, "--static-start", atMost: duration, unit: "s")
        guard staticStart < duration else {
            throw ValidationError("--static-start must be shorter than --duration (\(NumberChecks.text(duration)) s), "
                                  + "got \(NumberChecks.text(staticStart))")
        }
        try NumberChecks.positive(rateIMU, "--rate-imu", atMost: Self.maxIMURate, unit: "Hz")
        try NumberChecks.positive(rateCam, "--rate-cam", atMost: Self.maxCameraRate, unit: "Hz")
        guard rateCam <= rateIMU else {
            throw ValidationError("--rate-cam (\(NumberChecks.text(rateCam)) Hz) must not exceed "
                                  + "--rate-imu (\(NumberChecks.text(rateIMU)) Hz)")
        }
        try NumberChecks.nonNegative(imageNoise, "--image-noise", atMost: Self.maxImageNoise, unit: "grey levels")
        try NumberChecks.nonNegative(gyroBiasSpread, "--gyro-bias-spread", atMost: Self.maxGyroBiasSpread, unit: "rad/s")
        try NumberChecks.nonNegative(accelBiasSpread, "--accel-bias-spread", atMost: Self.maxAccelBiasSpread, unit: "m/s²")
        try NumberChecks.nonNegative(imuScaleError, "--imu-scale-error", atMost: 10, unit: "%")
        try NumberChecks.nonNegative(imuMisalignment, "--imu-misalignment", atMost: 5, unit: "degrees")
    }

    func run() throws {
        let sceneURL = URL(fileURLWithPath: scene)
        let loaded = try Scene.load(contentsOf: sceneURL)
        var config = SimulationConfiguration()
        config.seed = seed
        config.imageNoiseSigma = imageNoise
        config.varyLighting = !constantLighting
        config.renderImages = !noImages
        if gyroBiasSpread > 0 || accelBiasSpread > 0 {
            config.initialBiasSpread = InitialBiasSpread(gyroscope: gyroBiasSpread, accelerometer: accelBiasSpread)
            let drawn = config.initialBiases
            func text(_ v: Vector3, _ digits: Int) -> String {
                "(" + [v.x, v.y, v.z].map { String(format: "%.\(digits)f", $0) }.joined(separator: ", ") + ")"
            }
            print("initial biases drawn from seed \(seed): gyroscope \(text(drawn.gyroscope, 5)) rad/s, "
                  + "accelerometer \(text(drawn.accelerometer, 4)) m/s²")
        }
        config.imuIntrinsicErrors = IMUIntrinsicErrorSizes(scaleFraction: imuScaleError / 100, misalignmentDegrees: imuMisalignment)
        config.sensorEffects = try sensor.effects(stereo: stereo)
        var cameras = [CameraCalibration.eurocCam0, .eurocCam1]
        var imu = IMUCalibration.eurocIMU
        if let calibration {
            let mav0 = URL(fileURLWithPath: calibration).appendingPathComponent("mav0")
            imu = try IMUCalibration(contentsOf: mav0.appendingPathComponent("imu0/sensor.yaml"), name: "imu0",
                                     file: "\(calibration)/mav0/imu0/sensor.yaml")
            cameras = try (0..<(stereo ? 2 : 1)).map {
                try CameraCalibration(contentsOf: mav0.appendingPathComponent("cam\($0)/sensor.yaml"), name: "cam\($0)",
                                      file: "\(calibration)/mav0/cam\($0)/sensor.yaml")
            }
        }
        imu.rateHz = rateIMU
        config.imu = imu
        config.cameras = Array(cameras.prefix(stereo ? 2 : 1)).map {
            var c = $0
            c.rateHz = rateCam
            return c
        }

        let spline: CumulativeBSpline
        let alignment: SceneAlignment
        if let trajectory {
            let url = URL(fileURLWithPath: trajectory)
            let poses = url.pathExtension.lowercased() == "csv"
                ? try EuRoCTrajectory.read(contentsOf: url) : try TUMTrajectory.read(contentsOf: url)
            let samples = poses.poses.map { PoseSample(time: $0.time, T_world_body: $0.T_world_body) }
            spline = try TrajectoryBuilder.fromSamples(samples, staticStart: staticStart, duration: duration)
            alignment = SimulationSetup.alignment(for: spline, scene: loaded)
            let fit = SplineFitting.error(of: try SplineFitting.fit(samples: samples, knotSpacing: 0.05), against: samples)
            print("trajectory \(trajectory): spline fit \(fit)")
            if let over = SimulationSetup.overflow(of: spline, in: loaded) {
                let text = String(format: "warning: the trajectory spans %.1f × %.1f m but the floor of %@ is %.1f × %.1f m: "
                                  + "the camera will leave the scene and see nothing at times; use a larger scene "
                                  + "(Scenes/hall.json for the EuRoC machine-hall flights and the Gore walk)",
                                  over.trajectory.x, over.trajectory.y, scene, over.floor.x, over.floor.y)
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }
            if let over = SimulationSetup.verticalOverflow(of: spline, in: loaded) {
                let text = String(format: "warning: placed in %@, the trajectory spans heights %.1f to %.1f m but the "
                                  + "floor is at 0 and the ceiling at %.1f m: the camera will pass through them and "
                                  + "see nothing at times; use a shorter --duration or a taller scene",
                                  scene, over.low, over.high, over.ceiling)
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }
        } else {
            alignment = SimulationSetup.floorAlignment(for: loaded)
            let settings = SimulationSetup.motionSettings(for: loaded, alignment: alignment)
            spline = try TrajectoryBuilder.preset(motion, duration: duration,
                                                  staticStart: staticStart, settings: settings)
        }
        let simulator = Simulator(scene: loaded, trajectory: spline, configuration: config, alignment: alignment)
        let bar = isatty(STDOUT_FILENO) != 0 ? ProgressBar() : nil
        let summary = try simulator.run(to: URL(fileURLWithPath: output)) { bar?.update($0) }
        bar?.finish()
        print("wrote \(output): \(summary.imuSamples) IMU samples at \(rateIMU) Hz, \(summary.cameraFrames) frames × "
              + "\(summary.cameras) camera(s) at \(rateCam) Hz, \(summary.planes) planes, \(String(format: "%.2f", spline.duration)) s")
    }
}

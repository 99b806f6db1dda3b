import Foundation
import ParallaxMath

/// The calibration of an IMU, read from `mav0/imu0/sensor.yaml`.
///
/// The four noise figures are **continuous-time** densities, as Kalibr and EuRoC report them.
/// For samples taken every Δt = 1 / rate seconds:
/// white measurement noise per sample has σ_d = σ_c / √Δt and the bias random walk grows per step
/// by σ_d = σ_c · √Δt (see ``IMUNoiseDensities``, which holds the formulas).
public struct IMUCalibration: Sendable, Equatable {
    /// The sensor folder name (`imu0`).
    public var name: String
    /// The free-text `comment`, if any.
    public var comment: String?
    /// `T_BS` exactly as stored: IMU sensor → body (identity for EuRoC, where body = IMU).
    public var T_BS: Matrix4
    /// Nominal sample rate in Hz.
    public var rateHz: Double
    /// Gyroscope white noise density σ_g in rad / s / √Hz.
    public var gyroscopeNoiseDensity: Double
    /// Gyroscope bias random walk σ_bg in rad / s² / √Hz.
    public var gyroscopeRandomWalk: Double
    /// Accelerometer white noise density σ_a in m / s² / √Hz.
    public var accelerometerNoiseDensity: Double
    /// Accelerometer bias random walk σ_ba in m / s³ / √Hz.
    public var accelerometerRandomWalk: Double

    /// `T_BS` as a rigid transform (IMU sensor frame → body frame).
    public var T_body_imu: RigidTransform { RigidTransform(matrix: T_BS) }

    /// Creates a calibration.
    public init(name: String = "imu0", comment: String? = nil, T_BS: Matrix4 = .identity, rateHz: Double,
                gyroscopeNoiseDensity: Double, gyroscopeRandomWalk: Double,
                accelerometerNoiseDensity: Double, accelerometerRandomWalk: Double) {
        self.name = name; self.comment = comment; self.T_BS = T_BS; self.rateHz = rateHz
        self.gyroscopeNoiseDensity = gyroscopeNoiseDensity; self.gyroscopeRandomWalk = gyroscopeRandomWalk
        self.accelerometerNoiseDensity = accelerometerNoiseDensity
        self.accelerometerRandomWalk = accelerometerRandomWalk
    }

    /// Reads `sensor.yaml`; `file` is the name used in errors.
    public init(contentsOf url: URL, name: String, file: String) throws {
        try self.init(yaml: OpenCVYAML(url: url, file: file), name: name)
    }

    /// Parses the text of a `sensor.yaml`.
    public init(yamlText: String, name: String, file: String) throws {
        try self.init(yaml: OpenCVYAML(text: yamlText, file: file), name: name)
    }

    init(yaml: OpenCVYAML, name: String) throws {
        self.name = name
        comment = yaml.optionalString("comment")
        T_BS = yaml.has("T_BS") ? try readTransform(yaml) : .identity
        rateHz = try yaml.number("rate_hz")
        gyroscopeNoiseDensity = try yaml.number("gyroscope_noise_density")
        gyroscopeRandomWalk = try yaml.number("gyroscope_random_walk")
        accelerometerNoiseDensity = try yaml.number("accelerometer_noise_density")
        accelerometerRandomWalk = try yaml.number("accelerometer_random_walk")
        let fields: [(String, Double)] = [("rate_hz", rateHz), ("gyroscope_noise_density", gyroscopeNoiseDensity),
                                          ("gyroscope_random_walk", gyroscopeRandomWalk),
                                          ("accelerometer_noise_density", accelerometerNoiseDensity),
                                          ("accelerometer_random_walk", accelerometerRandomWalk)]
        for (field, value) in fields where value <= 0 {
            throw DatasetError(.calibration, file: yaml.file, "field '\(field)' must be positive, found \(value)")
        }
        try CalibrationLimits.checkIMU(rateHz: rateHz, noise: fields.dropFirst(), file: yaml.file)
    }

    /// The sample period Δt = 1 / rate in seconds.
    public var period: Double { 1 / rateHz }
    /// The four continuous-time noise densities, with the discretisation helpers.
    public var noiseDensities: IMUNoiseDensities {
        IMUNoiseDensities(gyroscopeNoiseDensity: gyroscopeNoiseDensity, gyroscopeRandomWalk: gyroscopeRandomWalk,
                          accelerometerNoiseDensity: accelerometerNoiseDensity, accelerometerRandomWalk: accelerometerRandomWalk)
    }
    /// Per-sample gyroscope noise σ_g / √Δt in rad/s.
    public var discreteGyroscopeNoiseSigma: Double { noiseDensities.discreteGyroSigma(dt: period) }
    /// Per-sample accelerometer noise σ_a / √Δt in m/s².
    public var discreteAccelerometerNoiseSigma: Double { noiseDensities.discreteAccelSigma(dt: period) }
    /// Gyroscope bias change per sample σ_bg · √Δt in rad/s.
    public var discreteGyroscopeBiasStepSigma: Double { noiseDensities.gyroBiasStepSigma(dt: period) }
    /// Accelerometer bias change per sample σ_ba · √Δt in m/s².
    public var discreteAccelerometerBiasStepSigma: Double { noiseDensities.accelBiasStepSigma(dt: period) }
}

import Foundation

/// Continuous-time IMU noise densities: the four numbers of a Kalibr/EuRoC `imu0/sensor.yaml`,
/// shared by the simulator (which draws noise with them) and the tracker (which weights with them).
///
/// Discretisation at sample period Δt (`conventions.md`; Trawny & Roumeliotis 2005 §2.2, Kalibr
/// wiki "IMU Noise Model"; Forster et al., TRO 2017, §IV): white measurement noise per sample has
/// σ_d = σ_c / √Δt, the bias random walk grows per step by σ_d = σ_c · √Δt.
public struct IMUNoiseDensities: Equatable, Sendable {
    /// Gyroscope white noise density σ_g (rad / s / √Hz).
    public var gyroscopeNoiseDensity: Double
    /// Gyroscope bias random walk σ_bg (rad / s² / √Hz).
    public var gyroscopeRandomWalk: Double
    /// Accelerometer white noise density σ_a (m / s² / √Hz).
    public var accelerometerNoiseDensity: Double
    /// Accelerometer bias random walk σ_ba (m / s³ / √Hz).
    public var accelerometerRandomWalk: Double

    /// Creates a noise model from continuous-time densities.
    public init(gyroscopeNoiseDensity: Double, gyroscopeRandomWalk: Double,
                accelerometerNoiseDensity: Double, accelerometerRandomWalk: Double) {
        self.gyroscopeNoiseDensity = gyroscopeNoiseDensity
        self.gyroscopeRandomWalk = gyroscopeRandomWalk
        self.accelerometerNoiseDensity = accelerometerNoiseDensity
        self.accelerometerRandomWalk = accelerometerRandomWalk
    }

    /// EuRoC's ADIS16448 values (the `mav0/imu0/sensor.yaml` shipped with the dataset).
    public static let euroc = IMUNoiseDensities(
        gyroscopeNoiseDensity: 1.6968e-4, gyroscopeRandomWalk: 1.9393e-5,
        accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)

    /// A perfect IMU.
    public static let zero = IMUNoiseDensities(
        gyroscopeNoiseDensity: 0, gyroscopeRandomWalk: 0, accelerometerNoiseDensity: 0, accelerometerRandomWalk: 0)

    /// Variance of one discrete gyroscope sample's white noise at period `dt`: σ_g² / Δt.
    public func discreteGyroVariance(dt: Double) -> Double { gyroscopeNoiseDensity * gyroscopeNoiseDensity / dt }
    /// Variance of one discrete accelerometer sample's white noise at period `dt`: σ_a² / Δt.
    public func discreteAccelVariance(dt: Double) -> Double { accelerometerNoiseDensity * accelerometerNoiseDensity / dt }
    /// Variance of the gyroscope bias step over `dt`: σ_bg² · Δt.
    public func gyroBiasStepVariance(dt: Double) -> Double { gyroscopeRandomWalk * gyroscopeRandomWalk * dt }
    /// Variance of the accelerometer bias step over `dt`: σ_ba² · Δt.
    public func accelBiasStepVariance(dt: Double) -> Double { accelerometerRandomWalk * accelerometerRandomWalk * dt }

    /// Per-sample gyroscope noise σ_g / √Δt in rad/s.
    public func discreteGyroSigma(dt: Double) -> Double { gyroscopeNoiseDensity / dt.squareRoot() }
    /// Per-sample accelerometer noise σ_a / √Δt in m/s².
    public func discreteAccelSigma(dt: Double) -> Double { accelerometerNoiseDensity / dt.squareRoot() }
    /// Gyroscope bias change per sample σ_bg · √Δt in rad/s.
    public func gyroBiasStepSigma(dt: Double) -> Double { gyroscopeRandomWalk * dt.squareRoot() }
    /// Accelerometer bias change per sample σ_ba · √Δt in m/s².
    public func accelBiasStepSigma(dt: Double) -> Double { accelerometerRandomWalk * dt.squareRoot() }
}

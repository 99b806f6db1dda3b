import ParallaxMath

/// Continuous-time IMU noise densities, as EuRoC's `imu0/sensor.yaml` gives them.
///
/// Discretisation at sample period Δt (`conventions.md`; Trawny & Roumeliotis 2005 §2.2, also the
/// Kalibr IMU noise model): white noise σ_d = σ_c / √Δt, bias random walk σ_d = σ_c · √Δt per step.
public struct IMUNoise: Equatable, Sendable {
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

    /// EuRoC's ADIS16448 values (the `imu0/sensor.yaml` shipped with the dataset).
    public static let euroc = IMUNoise(
        gyroscopeNoiseDensity: 1.6968e-4, gyroscopeRandomWalk: 1.9393e-5,
        accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)

    /// Variance of one discrete gyroscope sample's white noise at period `dt`: σ_g² / Δt.
    public func discreteGyroVariance(dt: Double) -> Double { gyroscopeNoiseDensity * gyroscopeNoiseDensity / dt }
    /// Variance of one discrete accelerometer sample's white noise at period `dt`: σ_a² / Δt.
    public func discreteAccelVariance(dt: Double) -> Double { accelerometerNoiseDensity * accelerometerNoiseDensity / dt }
    /// Variance of the gyroscope bias step over `dt`: σ_bg² · Δt.
    public func gyroBiasStepVariance(dt: Double) -> Double { gyroscopeRandomWalk * gyroscopeRandomWalk * dt }
    /// Variance of the accelerometer bias step over `dt`: σ_ba² · Δt.
    public func accelBiasStepVariance(dt: Double) -> Double { accelerometerRandomWalk * accelerometerRandomWalk * dt }
}

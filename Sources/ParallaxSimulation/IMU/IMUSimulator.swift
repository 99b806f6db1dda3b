import Foundation
import ParallaxDatasets
import ParallaxMath

/// One simulated IMU sample with the ground truth that produced it.
public struct SimulatedIMUSample: Sendable, Equatable {
    /// Timestamp in integer nanoseconds (EuRoC file names and CSV).
    public var timestampNanoseconds: Int64
    /// Time in seconds (`timestampNanoseconds / 1e9`, relative to the trajectory clock).
    public var time: Double
    /// Measured angular velocity `w_RS_S` (rad/s, body frame).
    public var gyroscope: Vector3
    /// Measured specific force `a_RS_S` (m/s², body frame).
    public var accelerometer: Vector3
    /// True gyroscope bias at this sample (rad/s).
    public var gyroscopeBias: Vector3
    /// True accelerometer bias at this sample (m/s²).
    public var accelerometerBias: Vector3
    /// The true kinematic state at this time.
    public var state: TrajectoryState
}

/// The IMU measurement model (Forster et al. 2017, eqs. 27–28; Kalibr's IMU noise model), with
/// the scale-factor and misalignment matrices D_g and D_a of ``IMUIntrinsicErrors`` (identity by
/// default):
///
///     ω̃ = D_g ω_body + b_g + η_g
///     ã = D_a R_world_bodyᵀ (a_world − g) + b_a + η_a,   g = (0, 0, −9.81)
///     ḃ_g = η_bg,  ḃ_a = η_ba
///
/// Discretised at Δt = 1/rate: white noise has σ_d = σ_c / √Δt, and a bias random walk moves by
/// σ_c · √Δt · N(0, 1) per step. Sample `k` is at time `startTime + k·Δt` exactly (in ns).
public struct IMUSimulator: Sendable {
    /// Gravity in the z-up world (m/s²).
    public static let gravity = Vector3(0, 0, -9.81)

    /// Sample rate (Hz).
    public var rate: Double
    /// Noise densities.
    public var noise: IMUNoiseDensities
    /// Biases at the first sample.
    public var initialGyroscopeBias: Vector3
    /// Biases at the first sample.
    public var initialAccelerometerBias: Vector3
    /// Adds white measurement noise when true (biases still walk when false).
    public var whiteNoiseEnabled: Bool
    /// Scale-factor and misalignment errors (none by default).
    public var intrinsics = IMUIntrinsicErrors.none

    /// Creates a simulator (200 Hz ADIS16448 with small initial biases by default).
    public init(
        rate: Double = 200, noise: IMUNoiseDensities = .euroc,
        initialGyroscopeBias: Vector3 = Vector3(0.002, -0.001, 0.0015),
        initialAccelerometerBias: Vector3 = Vector3(0.03, -0.02, 0.04), whiteNoiseEnabled: Bool = true
    ) {
        self.rate = rate
        self.noise = noise
        self.initialGyroscopeBias = initialGyroscopeBias
        self.initialAccelerometerBias = initialAccelerometerBias
        self.whiteNoiseEnabled = whiteNoiseEnabled
    }

    /// Simulates every sample in `[trajectory.startTime, trajectory.endTime]`.
    /// - Parameters:
    ///   - timeOffsetNanoseconds: added to each sample's nanosecond timestamp (e.g. an epoch).
    ///   - seed: the RNG seed; the same seed gives bit-identical samples.
    public func simulate(trajectory: CumulativeBSpline, seed: UInt64, timeOffsetNanoseconds: Int64 = 0) throws -> [SimulatedIMUSample] {
        guard rate > 0, rate.isFinite else { throw SimulationError.invalidArgument("IMU rate must be positive, got \(rate)") }
        let periodNs = Int64((1e9 / rate).rounded())
        let startNs = Int64((trajectory.startTime * 1e9).rounded())
        let count = Int((trajectory.endTime - trajectory.startTime) * 1e9 / Double(periodNs) + 1e-6) + 1
        let dt = Double(periodNs) * 1e-9
        let sqrtDt = dt.squareRoot()
        let sigmaGyro = noise.gyroscopeNoiseDensity / sqrtDt
        let sigmaAccel = noise.accelerometerNoiseDensity / sqrtDt
        let walkGyro = noise.gyroscopeRandomWalk * sqrtDt
        let walkAccel = noise.accelerometerRandomWalk * sqrtDt

        // Separate streams so that turning white noise off leaves the bias walks unchanged.
        var whiteRandom = SeededRandom(seed: seed, stream: 1)
        var walkRandom = SeededRandom(seed: seed, stream: 2)
        var bg = initialGyroscopeBias
        var ba = initialAccelerometerBias
        var samples: [SimulatedIMUSample] = []
        samples.reserveCapacity(count)
        for k in 0..<count {
            let ns = startNs + Int64(k) * periodNs
            let t = Double(ns) * 1e-9
            let state = trajectory.state(at: t)
            let rotation = state.T_world_body.rotation
            var gyro = intrinsics.gyroscope * state.angularVelocityBody + bg
            var accel = intrinsics.accelerometer * rotation.inverse.act(state.accelerationWorld - Self.gravity) + ba
            let nGyro = whiteRandom.gaussian3(), nAccel = whiteRandom.gaussian3()
            if whiteNoiseEnabled {
                gyro += sigmaGyro * nGyro
                accel += sigmaAccel * nAccel
            }
            samples.append(SimulatedIMUSample(
                timestampNanoseconds: ns + timeOffsetNanoseconds, time: t, gyroscope: gyro, accelerometer: accel,
                gyroscopeBias: bg, accelerometerBias: ba, state: state))
            bg += walkGyro * walkRandom.gaussian3()
            ba += walkAccel * walkRandom.gaussian3()
        }
        return samples
    }
}

import ParallaxMath

/// How widely the IMU's biases at power-on scatter between recordings.
///
/// A real IMU's turn-on bias differs every time it starts (the ADIS16448 datasheet gives
/// 0.2 m/s² and 0.6 °/s of in-run plus turn-on spread; a phone's MEMS unit after factory
/// calibration is of the same order). A simulation that always starts from the same bias tests
/// an estimator on one point of that spread, so with a spread each seed draws its own: every
/// axis independently from N(0, σ²), on a random stream of its own, so the IMU noise, the bias
/// walks and the images of a seed stay what they are without the spread.
public struct InitialBiasSpread: Sendable, Equatable {
    /// σ of each gyroscope axis (rad/s).
    public var gyroscope: Double
    /// σ of each accelerometer axis (m/s²).
    public var accelerometer: Double

    /// A spread of `gyroscope` rad/s and `accelerometer` m/s² per axis (both finite, ≥ 0).
    public init(gyroscope: Double, accelerometer: Double) {
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
    }

    /// The random stream the draw uses (apart from the IMU's 1–2, the images' 1000+, the
    /// calibration errors' 3000+, auto-exposure's 5000 and lighting's 7).
    static let stream: UInt64 = 9000

    /// The initial (gyroscope, accelerometer) biases of recording `seed`.
    public func draw(seed: UInt64) -> (gyroscope: Vector3, accelerometer: Vector3) {
        var random = SeededRandom(seed: seed, stream: Self.stream)
        let g = random.gaussian3(), a = random.gaussian3()
        return (gyroscope * g, accelerometer * a)
    }
}

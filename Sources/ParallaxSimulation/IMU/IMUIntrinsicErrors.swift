import Foundation
import ParallaxMath

/// The scale-factor and axis-misalignment errors of an IMU: the part of its "intrinsics" that
/// Kalibr's `scale-misalignment` model and OpenVINS's online IMU calibration estimate.
///
/// A MEMS part reports ω̃ = D_g ω + b_g + η_g and ã = D_a a + b_a + η_a, where ω and a are the
/// true body rate and specific force and each D = I + diag(s) + L: `s` the per-axis scale-factor
/// errors and `L` strictly lower triangular (axis y leans towards x by L₁₀; axis z towards x and
/// y by L₂₀ and L₂₁: the sensing axes are not quite orthogonal). Consumer parts specify about
/// ±1 % sensitivity and ±1 % cross-axis sensitivity before calibration (Bosch BMI160 data sheet);
/// a factory calibration leaves a few tenths of that.
public struct IMUIntrinsicErrors: Sendable, Equatable {
    /// D_g: true rate → reported rate (before bias and noise).
    public var gyroscope: Matrix3
    /// D_a: true specific force → reported specific force (before bias and noise).
    public var accelerometer: Matrix3

    /// Errors given as matrices.
    public init(gyroscope: Matrix3, accelerometer: Matrix3) {
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
    }

    /// A perfect IMU (D_g = D_a = I).
    public static let none = IMUIntrinsicErrors(gyroscope: .identity, accelerometer: .identity)
}

/// How large the IMU's scale-factor and misalignment errors are: each error is drawn from
/// N(0, σ²) with these σ, per recording seed, on a random stream of its own (so the IMU noise, the
/// bias walks and the images of a seed stay what they are).
public struct IMUIntrinsicErrorSizes: Sendable, Equatable {
    /// σ of each axis's scale-factor error (0.003 = 0.3 %), gyroscope and accelerometer alike.
    public var scaleFraction: Double
    /// σ of each misalignment angle (degrees), gyroscope and accelerometer alike.
    public var misalignmentDegrees: Double

    /// Sizes of `scaleFraction` (fraction) and `misalignmentDegrees` (degrees), both finite and ≥ 0.
    public init(scaleFraction: Double = 0, misalignmentDegrees: Double = 0) {
        self.scaleFraction = scaleFraction
        self.misalignmentDegrees = misalignmentDegrees
    }

    /// No error.
    public static let none = IMUIntrinsicErrorSizes()

    /// True when both sizes are zero.
    public var isZero: Bool { scaleFraction == 0 && misalignmentDegrees == 0 }

    /// The random stream of the draw (apart from the IMU's 1–2, the images' 1000+, the calibration
    /// errors' 3000+, auto-exposure's 5000, the initial biases' 9000 and lighting's 7).
    static let stream: UInt64 = 9100

    /// The errors of recording `seed`: the gyroscope's scale errors and angles, then the accelerometer's.
    public func draw(seed: UInt64) -> IMUIntrinsicErrors {
        guard !isZero else { return .none }
        var random = SeededRandom(seed: seed, stream: Self.stream)
        let angle = misalignmentDegrees * Double.pi / 180
        func matrix() -> Matrix3 {
            let s = random.gaussian3() * scaleFraction, l = random.gaussian3() * angle
            return Matrix3(identityPlusDiagonal: s, strictlyLower: l)
        }
        let gyroscope = matrix()
        return IMUIntrinsicErrors(gyroscope: gyroscope, accelerometer: matrix())
    }
}

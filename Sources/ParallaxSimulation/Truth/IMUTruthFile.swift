import Foundation
import ParallaxMath

/// `truth/imu.json`: the IMU's true scale-factor and misalignment matrices (``IMUIntrinsicErrors``),
/// written only when the simulation had such errors. `imu0/sensor.yaml` never states them, as a
/// recording's calibration file would not.
public struct IMUTruthFile: Codable, Sendable, Equatable {
    /// The model, in words.
    public var model: String
    /// The configured σ of the scale-factor errors (fraction).
    public var scaleFractionSigma: Double
    /// The configured σ of the misalignment angles (degrees).
    public var misalignmentDegreesSigma: Double
    /// D_g, three rows of three.
    public var gyroscope: [[Double]]
    /// D_a, three rows of three.
    public var accelerometer: [[Double]]

    /// The file for errors drawn with `sizes`.
    public init(sizes: IMUIntrinsicErrorSizes, errors: IMUIntrinsicErrors) {
        model = "reported = D * true + bias + noise; D = I + diag(scale errors) + strictly lower-triangular misalignment (rad)"
        scaleFractionSigma = sizes.scaleFraction
        misalignmentDegreesSigma = sizes.misalignmentDegrees
        func rows(_ m: Matrix3) -> [[Double]] { (0..<3).map { r in (0..<3).map { m[r, $0] } } }
        gyroscope = rows(errors.gyroscope)
        accelerometer = rows(errors.accelerometer)
    }

    /// The JSON text (pretty-printed, sorted keys).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

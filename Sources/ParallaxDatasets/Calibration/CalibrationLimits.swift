import Foundation

/// Plausibility bounds for `sensor.yaml` numbers.
///
/// A value that parses but is physically absurd (a focal length of 1e20 px, a noise density of
/// 1e30) would otherwise flow into the tracker and fail far from its cause, so it is rejected
/// here with the file and field. The bounds are generous: orders of magnitude beyond any real
/// camera or MEMS IMU, so they only catch typos and corrupted files.
enum CalibrationLimits {
    /// The highest sensor rate accepted, in Hz.
    static let maximumRateHz = 100_000.0
    /// Focal lengths may be at most this many times the larger image side (a ~0.06° field of view).
    static let maximumFocalPerImageSide = 1000.0
    /// How far outside the image the principal point may lie, as a fraction of the image side.
    static let principalPointMargin = 0.5
    /// The largest magnitude of a distortion coefficient.
    static let maximumDistortionCoefficient = 100.0
    /// The largest continuous-time IMU noise density or random walk.
    static let maximumNoiseDensity = 10.0

    /// Checks focal lengths (positive, not absurdly long) and the principal point (near the image).
    static func checkIntrinsics(_ k: PinholeIntrinsics, width: Int, height: Int, file: String) throws {
        let longestSide = Double(max(width, height))
        let maxFocal = maximumFocalPerImageSide * longestSide
        guard k.fu > 0, k.fv > 0, k.fu <= maxFocal, k.fv <= maxFocal else {
            throw DatasetError(.calibration, file: file,
                               "field 'intrinsics' must have focal lengths fu, fv in (0, \(maxFocal)] px for a "
                               + "\(width)x\(height) image, found \(k.fu), \(k.fv)")
        }
        let w = Double(width), h = Double(height)
        let m = principalPointMargin
        guard k.cu >= -m * w, k.cu <= (1 + m) * w, k.cv >= -m * h, k.cv <= (1 + m) * h else {
            throw DatasetError(.calibration, file: file,
                               "field 'intrinsics' has principal point (\(k.cu), \(k.cv)) far outside the "
                               + "\(width)x\(height) image")
        }
    }

    /// Checks that every distortion coefficient has a plausible magnitude.
    static func checkDistortion(_ coefficients: [Double], file: String) throws {
        if let bad = coefficients.first(where: { abs($0) > maximumDistortionCoefficient }) {
            throw DatasetError(.calibration, file: file,
                               "field 'distortion_coefficients' has \(bad); magnitudes above "
                               + "\(maximumDistortionCoefficient) are not a real lens")
        }
    }

    /// Checks the IMU rate and the four noise figures (already known to be positive).
    static func checkIMU(rateHz: Double, noise: ArraySlice<(String, Double)>, file: String) throws {
        guard rateHz <= maximumRateHz else {
            throw DatasetError(.calibration, file: file, "field 'rate_hz' must be at most \(maximumRateHz), found \(rateHz)")
        }
        for (field, value) in noise where value > maximumNoiseDensity {
            throw DatasetError(.calibration, file: file,
                               "field '\(field)' is \(value); above \(maximumNoiseDensity) is not a real IMU")
        }
    }
}

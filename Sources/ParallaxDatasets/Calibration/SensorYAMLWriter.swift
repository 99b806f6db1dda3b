import Foundation
import ParallaxMath

/// Writes calibrations back as OpenCV-style `sensor.yaml` text (with the `%YAML:1.0` line the
/// EuRoC tools expect). Numbers use Swift's shortest round-trip form, so reading the file gives
/// back the same `Double` values.
enum SensorYAMLWriter {
    static func yaml(_ c: CameraCalibration) -> String {
        var s = header(type: "camera", comment: c.comment)
        s += transform(c.T_BS)
        s += "\n# Camera specific definitions.\n"
        s += "rate_hz: \(csvNumber(c.rateHz))\n"
        s += "resolution: [\(c.width), \(c.height)]\n"
        s += "camera_model: \(c.cameraModel)\n"
        let k = c.intrinsics
        s += "intrinsics: \(list([k.fu, k.fv, k.cu, k.cv])) #fu, fv, cu, cv\n"
        s += "distortion_model: \(c.distortion.name)\n"
        s += "distortion_coefficients: \(list(c.distortion.coefficients))\n"
        // Kalibr's names: t_imu = t_cam + timeshift_cam_imu; line_delay is seconds per row.
        if let t = c.timeOffset { s += "timeshift_cam_imu: \(csvNumber(t)) # [s] t_imu = t_cam + shift\n" }
        if let d = c.lineDelay { s += "line_delay: \(csvNumber(d)) # [s] per row\n" }
        return s
    }

    static func yaml(_ c: IMUCalibration) -> String {
        var s = header(type: "imu", comment: c.comment)
        s += transform(c.T_BS)
        s += "rate_hz: \(csvNumber(c.rateHz))\n\n"
        s += "# inertial sensor noise model parameters (continuous time)\n"
        s += "gyroscope_noise_density: \(csvNumber(c.gyroscopeNoiseDensity))     # [ rad / s / sqrt(Hz) ]\n"
        s += "gyroscope_random_walk: \(csvNumber(c.gyroscopeRandomWalk))       # [ rad / s^2 / sqrt(Hz) ]\n"
        s += "accelerometer_noise_density: \(csvNumber(c.accelerometerNoiseDensity))  # [ m / s^2 / sqrt(Hz) ]\n"
        s += "accelerometer_random_walk: \(csvNumber(c.accelerometerRandomWalk))    # [ m / s^3 / sqrt(Hz) ]\n"
        return s
    }

    /// The ground-truth sensor file (identity `T_BS`, as EuRoC ships it).
    static func groundTruthYAML() -> String {
        header(type: "visual-inertial", comment: "Ground truth state written by Parallax") + transform(.identity)
    }

    private static func header(type: String, comment: String?) -> String {
        var s = "%YAML:1.0\n# General sensor definitions.\nsensor_type: \(type)\n"
        if let comment { s += "comment: \(quoted(comment))\n" }
        s += "\n# Sensor extrinsics wrt. the body-frame.\n"
        return s
    }

    private static func transform(_ m: Matrix4) -> String {
        let v = m.rowMajor.map(csvNumber)
        let rows = (0..<4).map { r in v[(4 * r)..<(4 * r + 4)].joined(separator: ", ") }
        return "T_BS:\n  cols: 4\n  rows: 4\n  data: [" + rows.joined(separator: ",\n         ") + "]\n"
    }

    private static func list(_ v: [Double]) -> String { "[" + v.map(csvNumber).joined(separator: ", ") + "]" }

    /// A double-quoted YAML scalar, so comments containing `:` or `#` survive.
    private static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

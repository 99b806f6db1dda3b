import Foundation
import ParallaxMath
import ParallaxTracking

/// The calibration lines of `parallax replay`'s report: how far the online estimate of each
/// camera's extrinsics moved from what `sensor.yaml` states.
enum CalibrationReport {
    /// One line per camera (empty when nothing was tracked), each starting with a newline.
    /// The estimated rolling-shutter readout, when the calibration stated none.
    static func readout(_ s: DatasetRunner.Summary) -> String {
        guard let readout = s.finalReadout else { return "" }
        return readout > 0
            ? String(format: "\nrolling-shutter readout (estimated; sensor.yaml states no line_delay): %.1f ms top to bottom", readout * 1e3)
            : "\nrolling-shutter readout (estimated; sensor.yaml states no line_delay): none found (global shutter)"
    }

    static func extrinsics(_ s: DatasetRunner.Summary) -> String {
        var out = ""
        for (i, estimate) in s.finalExtrinsics.enumerated() where i < s.calibratedExtrinsics.count {
            let written = s.calibratedExtrinsics[i]
            let delta = written.inverse * estimate
            let degrees = SO3.log(delta.rotationMatrix).norm * 180 / .pi
            let millimetres = (estimate.translation - written.translation).norm * 1e3
            let t = estimate.translation, q = estimate.rotation
            out += String(format: "\ncam%d extrinsics (T_body_camera): %.3f° and %.2f mm from sensor.yaml; "
                          + "t = [%.5f, %.5f, %.5f] m, q (w, x, y, z) = [%.6f, %.6f, %.6f, %.6f]",
                          i, degrees, millimetres, t.x, t.y, t.z, q.w, q.x, q.y, q.z)
        }
        return out
    }

    /// The IMU biases at the last pose (empty when nothing was tracked): what a user compares with
    /// an IMU's datasheet, or with the bias columns of EuRoC's ground truth.
    static func biases(_ s: DatasetRunner.Summary) -> String {
        guard let b = s.finalBiases else { return "" }
        let g = b.gyroscope, a = b.accelerometer
        return String(format: "\nIMU biases at the last pose: gyroscope [%.5f, %.5f, %.5f] rad/s, accelerometer [%.4f, %.4f, %.4f] m/s²",
                      g.x, g.y, g.z, a.x, a.y, a.z)
    }

    /// One line per camera whose intrinsics were estimated online (empty otherwise).
    static func intrinsics(_ s: DatasetRunner.Summary) -> String {
        s.finalIntrinsics.enumerated().map { i, v in
            guard v.count == 6 else { return "" }
            return String(format: "\ncam%d intrinsics: fx %.3f, fy %.3f, cx %.3f, cy %.3f px, k1 %.5f, k2 %.5f",
                          i, v[0], v[1], v[2], v[3], v[4], v[5])
        }.joined()
    }

    /// The IMU's estimated scale and misalignment corrections (empty when not estimated).
    static func imu(_ s: DatasetRunner.Summary) -> String {
        guard let c = s.finalIMUIntrinsics else { return "" }
        func line(_ name: String, _ scale: Vector3, _ misalignment: Vector3) -> String {
            let k = scale * 100, m = misalignment * (180 / .pi)
            return String(format: "\n%@ correction (estimated): scale [%+.3f, %+.3f, %+.3f] %%, misalignment [%+.3f, %+.3f, %+.3f]°",
                          name, k.x, k.y, k.z, m.x, m.y, m.z)
        }
        return line("gyroscope", c.gyroScale, c.gyroMisalignment) + line("accelerometer", c.accelScale, c.accelMisalignment)
    }
}

import Foundation
import Testing
@testable import ParallaxDatasets

/// `sensor.yaml` files that parse but must not be accepted (issue 13): deep nesting that would
/// crash the YAML parser, absurd numbers, reflections.
@Suite struct CalibrationBadInputTests {
    private func cameraError(_ text: String) -> String? {
        do { _ = try CameraCalibration(yamlText: text, name: "cam0", file: "mav0/cam0/sensor.yaml"); return nil } catch {
            return "\(error)"
        }
    }

    private func imuError(_ text: String) -> String? {
        do { _ = try IMUCalibration(yamlText: text, name: "imu0", file: "mav0/imu0/sensor.yaml"); return nil } catch {
            return "\(error)"
        }
    }

    @Test func deeplyNestedFlowSequenceIsRejectedNotACrash() {
        let deep = "%YAML:1.0\nrate_hz: 200\nx: " + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "\n"
        #expect(imuError(deep) == "mav0/imu0/sensor.yaml:3: YAML nests deeper than 64 levels; a sensor.yaml needs at most a few")
        let mapping = "x: " + String(repeating: "{a: ", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(imuError(mapping)?.contains("sensor.yaml:1: YAML nests deeper than 64 levels") == true)
        let block = "x:\n" + String(repeating: "- ", count: 100_000) + "1\n"
        #expect(imuError(block)?.contains("sensor.yaml:2: YAML nests deeper than 64 levels") == true)
    }

    /// Found by the yaml fuzz target (run 3 of the long round): a comment ended by a lone `\r`,
    /// followed by thousands of `{`, overflowed the parser's stack past the guard.
    @Test(arguments: ["\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"])
    func commentsEndAtEveryLineBreak(lineBreak: String) {
        let text = "%YAML:1.0\n# comment" + lineBreak + "x: " + String(repeating: "{a: ", count: 3000) + "1"
            + String(repeating: "}", count: 3000) + "\n"
        #expect(imuError(text)?.contains("sensor.yaml:3: YAML nests deeper than 64 levels") == true, "\(imuError(text) ?? "accepted")")
    }

    @Test func fuzzerCrashInputIsRejected() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/yaml/crash-comment-cr-flow-nesting.yaml").standardizedFileURL
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(imuError(text)?.contains("YAML nests") == true, "\(imuError(text) ?? "accepted")")
    }

    @Test func bracketsInQuotesBeyondTheCapAreRejected() {
        let text = Fixtures.imuYAML + "\ncomment: '" + String(repeating: "{", count: 600) + "'\n"
        #expect(imuError(text)?.contains("YAML nests brackets deeper than 512 levels") == true, "\(imuError(text) ?? "accepted")")
    }

    @Test func bracketsInCommentsAndQuotesDoNotCount() throws {
        let text = Fixtures.imuYAML + "\n# " + String(repeating: "[", count: 100) + "\ncomment: '"
            + String(repeating: "{", count: 100) + "'\n"
        #expect(try IMUCalibration(yamlText: text, name: "imu0", file: "i.yaml").rateHz == 200)
    }

    @Test func unknownCameraModelIsRejected() {
        let text = Fixtures.cameraYAML.replacingOccurrences(of: "camera_model: pinhole", with: "camera_model: foo")
        #expect(cameraError(text) == "mav0/cam0/sensor.yaml: field 'camera_model' must be 'pinhole', found 'foo'")
    }

    @Test func absurdIntrinsicsAreRejected() {
        let huge = Fixtures.cameraYAML.replacingOccurrences(of: "[40.0, 41.0, 31.5, 23.5]", with: "[1e20, 41.0, 31.5, 23.5]")
        #expect(cameraError(huge)?.contains("field 'intrinsics' must have focal lengths fu, fv in (0, 64000.0] px") == true)
        let zero = Fixtures.cameraYAML.replacingOccurrences(of: "[40.0, 41.0, 31.5, 23.5]", with: "[40.0, 0, 31.5, 23.5]")
        #expect(cameraError(zero)?.contains("field 'intrinsics' must have focal lengths") == true)
        let negative = Fixtures.cameraYAML.replacingOccurrences(of: "[40.0, 41.0, 31.5, 23.5]", with: "[-40.0, 41.0, 31.5, 23.5]")
        #expect(cameraError(negative)?.contains("field 'intrinsics' must have focal lengths") == true)
        let far = Fixtures.cameraYAML.replacingOccurrences(of: "[40.0, 41.0, 31.5, 23.5]", with: "[40.0, 41.0, 5000, 23.5]")
        #expect(cameraError(far) == "mav0/cam0/sensor.yaml: field 'intrinsics' has principal point (5000.0, 23.5) far outside the 64x48 image")
    }

    @Test func absurdDistortionIsRejected() {
        let text = Fixtures.cameraYAML.replacingOccurrences(of: "[-0.28, 0.07, 0.0002, 1.7e-05]", with: "[1e6, 0.07, 0.0002, 1.7e-05]")
        #expect(cameraError(text)?.contains("field 'distortion_coefficients' has 1000000.0") == true)
    }

    @Test func reflectionIsNamedAsSuch() {
        let text = Fixtures.cameraYAML.replacingOccurrences(of: "0.0, 0.0, 1.0, 0.002", with: "0.0, 0.0, -1.0, 0.002")
        #expect(cameraError(text) == "mav0/cam0/sensor.yaml: field 'T_BS' rotation has determinant −1 (a reflection)")
    }

    @Test func absurdOrNegativeNoiseDensitiesAreRejected() {
        let huge = Fixtures.imuYAML.replacingOccurrences(of: "gyroscope_noise_density: 1.6968e-04", with: "gyroscope_noise_density: 1e30")
        #expect(imuError(huge)?.contains("field 'gyroscope_noise_density' is 1e+30; above 10.0 is not a real IMU") == true)
        let negative = Fixtures.imuYAML.replacingOccurrences(of: "accelerometer_random_walk: 3.0000e-3", with: "accelerometer_random_walk: -3e-3")
        #expect(imuError(negative) == "mav0/imu0/sensor.yaml: field 'accelerometer_random_walk' must be positive, found -0.003")
        let rate = Fixtures.imuYAML.replacingOccurrences(of: "rate_hz: 200", with: "rate_hz: 1e300")
        #expect(imuError(rate)?.contains("field 'rate_hz' must be at most") == true)
    }
}

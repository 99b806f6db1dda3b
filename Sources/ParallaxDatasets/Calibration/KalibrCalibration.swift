import Foundation
import ParallaxMath
import ParallaxImaging
import Yams

/// Calibrations in Kalibr's files, which is what users of ROS bags and live rigs have:
/// `camchain.yaml` / `camchain-imucam.yaml` (one block per camera: `cam0`, `cam1`) and the IMU
/// noise file `imu.yaml` (top-level fields, or an `imu0` block in Kalibr's results).
///
/// Conversions to the EuRoC `sensor.yaml` model (body frame = IMU frame):
/// - `T_BS` of a camera is `T_imu_cam = T_cam_imu⁻¹`. A camera block without `T_cam_imu` but with
///   `T_cn_cnm1` (pose of the previous camera in this one) is chained from the previous camera.
/// - `distortion_model: radtan` / `equidistant` with `distortion_coeffs`; `camera_model: pinhole` only.
/// - `timeshift_cam_imu` (t_imu = t_cam + shift) and `line_delay` are kept.
/// - Kalibr does not store the frame rate: `rate_hz` is read when present, else the rate given here.
/// - `imu.yaml`'s `update_rate` is the IMU rate; its `T_i_b` (body → IMU, Kalibr results), when
///   present, must be the identity, since the body frame here is the IMU frame.
///
/// ``sensorYAML`` writes the EuRoC equivalents.
public struct KalibrCalibration: Sendable, Equatable {
    /// The cameras in file order (`cam0`, `cam1`).
    public var cameras: [CameraCalibration]
    /// Each camera's `rostopic`, when stated.
    public var cameraTopics: [String?]

    /// Reads a camchain file; `rateHz` is the camera rate used when a block has no `rate_hz`.
    /// - Throws: ``DatasetError`` naming the file and the camera block for missing or bad fields.
    public init(camchain url: URL, rateHz: Double = 20) throws {
        try self.init(camchainText: try Self.text(url), file: url.lastPathComponent, rateHz: rateHz)
    }

    /// Parses camchain text; `file` names it in errors.
    public init(camchainText text: String, file: String, rateHz: Double = 20) throws {
        let top = try OpenCVYAML(text: text, file: file)
        let names = top.fieldNames.filter { $0.hasPrefix("cam") && Int($0.dropFirst(3)) != nil }
            .sorted { Int($0.dropFirst(3)) ?? 0 < Int($1.dropFirst(3)) ?? 0 }
        guard (1...2).contains(names.count), names.first == "cam0" else {
            throw DatasetError(.calibration, file: file,
                               "expected blocks 'cam0' and optionally 'cam1', found \(names.isEmpty ? "none" : names.joined(separator: ", "))")
        }
        var cameras: [CameraCalibration] = [], topics: [String?] = []
        var previous: Matrix4?  // T_cam_imu of the previous camera
        for name in names {
            guard let block = top.mapping(name) else {
                throw DatasetError(.calibration, file: file, "'\(name)' must be a block of fields")
            }
            let yaml = OpenCVYAML(mapping: block, file: "\(file) (\(name))")
            let T_cam_imu: Matrix4
            if yaml.has("T_cam_imu") {
                T_cam_imu = try checkedRigidTransform(try yaml.numbers(["T_cam_imu"], count: 16), field: "T_cam_imu", file: yaml.file)
            } else if yaml.has("T_cn_cnm1"), let previous {
                let T = try checkedRigidTransform(try yaml.numbers(["T_cn_cnm1"], count: 16), field: "T_cn_cnm1", file: yaml.file)
                T_cam_imu = T * previous
            } else {
                throw DatasetError(.calibration, file: yaml.file,
                                   "field 'T_cam_imu' is missing: use the camchain-imucam.yaml of kalibr_calibrate_imu_camera")
            }
            previous = T_cam_imu
            let T_BS = RigidTransform(matrix: T_cam_imu).inverse.matrix
            cameras.append(try CameraCalibration(yaml: yaml, name: name, T_BS: T_BS, defaultRateHz: rateHz))
            topics.append(yaml.optionalString("rostopic"))
        }
        self.cameras = cameras
        cameraTopics = topics
    }

    /// Reads Kalibr's `imu.yaml` (noise densities, `update_rate`, `rostopic`).
    public static func imu(contentsOf url: URL) throws -> (calibration: IMUCalibration, topic: String?) {
        try imu(text: try text(url), file: url.lastPathComponent)
    }

    /// Parses `imu.yaml` text; `file` names it in errors.
    public static func imu(text: String, file: String) throws -> (calibration: IMUCalibration, topic: String?) {
        var yaml = try OpenCVYAML(text: text, file: file)
        if let block = yaml.mapping("imu0") { yaml = OpenCVYAML(mapping: block, file: "\(file) (imu0)") }
        if yaml.has("T_i_b") {
            let T = try checkedRigidTransform(try yaml.numbers(["T_i_b"], count: 16), field: "T_i_b", file: yaml.file)
            guard T.rowMajor.enumerated().allSatisfy({ abs($1 - (($0 % 5 == 0) ? 1 : 0)) < 1e-9 }) else {
                throw DatasetError(.calibration, file: yaml.file,
                                   "field 'T_i_b' must be the identity: the body frame is the IMU frame")
            }
        }
        let rate = try yaml.optionalNumber("update_rate") ?? yaml.number("rate_hz")
        let noise = [try yaml.number("gyroscope_noise_density"), try yaml.number("gyroscope_random_walk"),
                     try yaml.number("accelerometer_noise_density"), try yaml.number("accelerometer_random_walk")]
        let fields = zip(["update_rate", "gyroscope_noise_density", "gyroscope_random_walk",
                          "accelerometer_noise_density", "accelerometer_random_walk"], [rate] + noise).map { ($0, $1) }
        for (field, value) in fields where value <= 0 {
            throw DatasetError(.calibration, file: yaml.file, "field '\(field)' must be positive, found \(value)")
        }
        try CalibrationLimits.checkIMU(rateHz: rate, noise: fields.dropFirst(), file: yaml.file)
        let calibration = IMUCalibration(name: "imu0", comment: "from Kalibr \(file)", rateHz: rate,
                                         gyroscopeNoiseDensity: noise[0], gyroscopeRandomWalk: noise[1],
                                         accelerometerNoiseDensity: noise[2], accelerometerRandomWalk: noise[3])
        return (calibration, yaml.optionalString("rostopic"))
    }

    private static func text(_ url: URL) throws -> String {
        let file = url.lastPathComponent
        if let problem = FileReadability.problem(url) { throw DatasetError(.io, file: file, "cannot read file: \(problem)") }
        do { return try String(contentsOf: url, encoding: .utf8) } catch {
            throw DatasetError(.io, file: file, "cannot read file: \(FileReadability.describe(error, reading: url))")
        }
    }
}

extension CameraCalibration {
    /// This calibration as EuRoC `sensor.yaml` text (`mav0/camN/sensor.yaml`); reading it back
    /// gives the same values.
    public var sensorYAML: String { SensorYAMLWriter.yaml(self) }
}

extension IMUCalibration {
    /// This calibration as EuRoC `sensor.yaml` text (`mav0/imu0/sensor.yaml`).
    public var sensorYAML: String { SensorYAMLWriter.yaml(self) }
}

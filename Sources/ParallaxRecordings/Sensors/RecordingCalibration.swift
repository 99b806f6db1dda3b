import Foundation
import ParallaxDatasets

/// The calibration of a recording that carries none (ROS bags and MCAP files hold no intrinsics):
/// the cameras and IMU, plus the topics the calibration files name (Kalibr's `rostopic`), which
/// serve as defaults for the topic selection.
public struct RecordingCalibration: Sendable, Equatable {
    /// Camera calibrations, cam0 first.
    public var cameras: [CameraCalibration]
    /// The IMU calibration.
    public var imu: IMUCalibration
    /// Each camera's topic as the calibration file states it (Kalibr `rostopic`), nil when unstated.
    public var cameraTopics: [String?]
    /// The IMU topic as Kalibr's `imu.yaml` states it.
    public var imuTopic: String?

    /// Creates a calibration from its parts.
    public init(cameras: [CameraCalibration], imu: IMUCalibration, cameraTopics: [String?] = [], imuTopic: String? = nil) {
        self.cameras = cameras
        self.imu = imu
        self.cameraTopics = cameraTopics
        self.imuTopic = imuTopic
    }

    /// Loads the calibration for a recording.
    ///
    /// - Parameters:
    ///   - cameras: an EuRoC/ASL dataset folder (the folder holding `mav0`, or `mav0`; its
    ///     `camN/sensor.yaml` and `imu0/sensor.yaml` are read), a Kalibr camchain
    ///     (`camchain-imucam.yaml`), or one camera's EuRoC `sensor.yaml`.
    ///   - imu: a Kalibr `imu.yaml` or an EuRoC IMU `sensor.yaml`; required unless `cameras` is a
    ///     dataset folder (whose `imu0/sensor.yaml` is used), and preferred over the folder's.
    ///   - cameraRateHz: the camera rate for a Kalibr camchain, which does not store it.
    /// - Throws: ``DatasetError`` naming the file for a missing or malformed calibration.
    public static func load(cameras: URL, imu: URL?, cameraRateHz: Double = 20) throws -> RecordingCalibration {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: cameras.path, isDirectory: &isFolder) else {
            throw DatasetError(.io, file: cameras.path, "calibration not found")
        }
        var cams: [CameraCalibration] = [], topics: [String?] = []
        var folderIMU: URL?
        if isFolder.boolValue {
            let mav0 = cameras.lastPathComponent == "mav0" ? cameras : cameras.appendingPathComponent("mav0")
            for name in ["cam0", "cam1"] {
                let url = mav0.appendingPathComponent("\(name)/sensor.yaml")
                guard FileManager.default.fileExists(atPath: url.path) else { break }
                cams.append(try CameraCalibration(contentsOf: url, name: name, file: url.path))
            }
            guard !cams.isEmpty else { throw DatasetError(.calibration, file: mav0.path, "holds no cam0/sensor.yaml") }
            folderIMU = mav0.appendingPathComponent("imu0/sensor.yaml")
        } else {
            let text = try readText(cameras)
            if isEuRoCSensorYAML(text) {
                cams = [try CameraCalibration(yamlText: text, name: "cam0", file: cameras.path)]
            } else {
                let kalibr = try KalibrCalibration(camchainText: text, file: cameras.path, rateHz: cameraRateHz)
                cams = kalibr.cameras
                topics = kalibr.cameraTopics
            }
        }
        guard let imuURL = imu ?? folderIMU else {
            throw DatasetError(.calibration, file: cameras.path,
                               "gives no IMU calibration: pass --imu-calibration (Kalibr imu.yaml or EuRoC imu0/sensor.yaml)")
        }
        let text = try readText(imuURL)
        if isEuRoCSensorYAML(text) {
            let imu = try IMUCalibration(yamlText: text, name: "imu0", file: imuURL.path)
            return RecordingCalibration(cameras: cams, imu: imu, cameraTopics: topics)
        }
        let kalibr = try KalibrCalibration.imu(text: text, file: imuURL.path)
        return RecordingCalibration(cameras: cams, imu: kalibr.calibration, cameraTopics: topics, imuTopic: kalibr.topic)
    }

    /// EuRoC's `sensor.yaml` names its `sensor_type`; Kalibr's files do not.
    static func isEuRoCSensorYAML(_ text: String) -> Bool {
        text.split(separator: "\n").contains { $0.hasPrefix("sensor_type:") }
    }

    private static func readText(_ url: URL) throws -> String {
        do { return try String(contentsOf: url, encoding: .utf8) } catch {
            throw DatasetError(.io, file: url.path, "cannot read calibration: \(error.localizedDescription)")
        }
    }
}

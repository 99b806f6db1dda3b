import Foundation
import Testing
@testable import ParallaxDatasets

/// Shared helpers for the dataset tests: where the real snippet lives, and small hand-written
/// datasets in a temporary folder.
enum Fixtures {
    /// `<repo>/../shared/datasets/euroc-v101-micro`.
    static let realSnippetURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/datasets/euroc-v101-micro")

    /// Whether the real snippet is there; tests reading it are skipped (and reported as skipped) without it.
    static let realSnippetPresent = FileManager.default.fileExists(atPath: realSnippetURL.appendingPathComponent("mav0").path)

    /// A fresh empty temporary folder.
    static func temporaryFolder(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("parallax-datasets-\(safe)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let cameraYAML = """
        %YAML:1.0
        # General sensor definitions.
        sensor_type: camera
        comment: test camera

        T_BS:
          cols: 4
          rows: 4
          data: [0.0, -1.0, 0.0, 0.05,
                 1.0, 0.0, 0.0, -0.01,
                 0.0, 0.0, 1.0, 0.002,
                 0.0, 0.0, 0.0, 1.0]
        rate_hz: 20
        resolution: [64, 48]
        camera_model: pinhole
        intrinsics: [40.0, 41.0, 31.5, 23.5] #fu, fv, cu, cv
        distortion_model: radial-tangential
        distortion_coefficients: [-0.28, 0.07, 0.0002, 1.7e-05]
        """

    static let imuYAML = """
        %YAML:1.0
        sensor_type: imu
        T_BS:
          cols: 4
          rows: 4
          data: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        rate_hz: 200
        gyroscope_noise_density: 1.6968e-04
        gyroscope_random_walk: 1.9393e-05
        accelerometer_noise_density: 2.0000e-3
        accelerometer_random_walk: 3.0000e-3
        """

    /// The usual IMU rows: `count` samples at 200 Hz from t = 1 s.
    static func imuRows(_ count: Int = 10) -> [String] {
        (0..<count).map { "\(1_000_000_000 + Int64($0) * 5_000_000),0.01,-0.02,0.03,9.81,0.1,-0.2" }
    }

    /// Camera rows at 20 Hz from t = 1 s.
    static func cameraRows(_ count: Int = 3) -> [String] {
        (0..<count).map { let t = 1_000_000_000 + Int64($0) * 50_000_000; return "\(t),\(t).png" }
    }

    /// `yaml` with cam0's T_BS translation `-0.01` on y moved to `0.10` (a 11 cm baseline), or
    /// unchanged when it holds no such entry.
    static func shifted(_ yaml: String) -> String {
        yaml.replacingOccurrences(of: "1.0, 0.0, 0.0, -0.01,", with: "1.0, 0.0, 0.0, 0.10,")
    }

    /// Writes a small dataset by hand. Image files named in the camera rows are created empty
    /// unless `imageBytes` is given (CSV tests never decode them).
    @discardableResult
    static func writeDataset(at root: URL, cam0: [String] = cameraRows(), cam1: [String]? = nil,
                             imu: [String] = imuRows(), groundTruth: [String]? = nil,
                             cameraYAML: String = cameraYAML, imuYAML: String = imuYAML,
                             imageBytes: Data = Data()) throws -> URL {
        let fm = FileManager.default
        let mav0 = root.appendingPathComponent("mav0")
        func write(_ text: String, _ rel: String) throws {
            let u = mav0.appendingPathComponent(rel)
            try fm.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: u, atomically: true, encoding: .utf8)
        }
        for (name, rows) in [("cam0", cam0), ("cam1", cam1)] {
            guard let rows else { continue }
            // cam1 sits 11 cm along the body y axis from cam0 (a stereo rig needs a baseline).
            try write(name == "cam1" ? Self.shifted(cameraYAML) : cameraYAML, "\(name)/sensor.yaml")
            try write((["#timestamp [ns],filename"] + rows).joined(separator: "\n") + "\n", "\(name)/data.csv")
            try fm.createDirectory(at: mav0.appendingPathComponent("\(name)/data"), withIntermediateDirectories: true)
            for r in rows {
                let parts = r.split(separator: ",")
                if parts.count == 2 {
                    let f = parts[1].trimmingCharacters(in: .whitespaces)
                    _ = fm.createFile(atPath: mav0.appendingPathComponent("\(name)/data/\(f)").path, contents: imageBytes)
                }
            }
        }
        try write(imuYAML, "imu0/sensor.yaml")
        try write((["#timestamp [ns],w_x,w_y,w_z,a_x,a_y,a_z"] + imu).joined(separator: "\n") + "\n", "imu0/data.csv")
        if let groundTruth {
            try write((["#timestamp, p..."] + groundTruth).joined(separator: "\n") + "\n",
                      "state_groundtruth_estimate0/data.csv")
        }
        return root
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the real EuRoC snippet is beside the repository; otherwise it is
    /// reported as skipped, with the reason.
    static var needsRealSnippet: Self {
        .enabled(if: Fixtures.realSnippetPresent, "needs ../shared/datasets/euroc-v101-micro beside the repository")
    }
}

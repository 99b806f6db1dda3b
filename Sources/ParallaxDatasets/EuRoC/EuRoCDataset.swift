import Foundation
import ParallaxMath

/// A recording in the EuRoC/ASL folder layout (also TUM-VI exports), opened for reading.
///
/// Opening reads only the calibration files and checks that the expected files exist; the CSV
/// files are read on demand, row by row (``imuStream()``, ``cameraStream(_:)``, ``replay(from:to:includeGroundTruth:)``),
/// so a long recording costs no more memory than a short one. Images are decoded only when a
/// ``CameraFrame`` is asked to (``CameraFrame/loadImage()``), which also checks the size against
/// `sensor.yaml`; ``validate()`` checks every row and every image header eagerly.
///
/// Layout (see `conventions.md`): `mav0/cam0` (required), `mav0/cam1` (optional, stereo),
/// `mav0/imu0` (required), `mav0/state_groundtruth_estimate0` (optional full state) or, in
/// TUM-VI exports, `mav0/mocap0` (optional pose: position and quaternion, no velocity or biases),
/// `mav0/leica0` or `mav0/gt0` (optional, position only).
public struct EuRoCDataset: Sendable {
    /// The `mav0` folder.
    public let mav0: URL
    /// How bad CSV rows are treated.
    public let policy: ReadPolicy
    /// Camera calibrations in folder order: `cam0`, then `cam1` when present.
    public let cameras: [CameraCalibration]
    /// The IMU calibration (`imu0`).
    public let imu: IMUCalibration
    /// True when `state_groundtruth_estimate0/data.csv` or `mocap0/data.csv` exists.
    public let hasGroundTruth: Bool
    /// The folder name of the ground truth: ``groundTruthName`` or ``mocapName``; nil without one.
    public let groundTruthSensor: String?
    /// The folder name of a position-only ground truth (`leica0` or `gt0`), if any.
    public let positionSensor: String?

    /// The folder names of the position-only sensors looked for, in order of preference.
    public static let positionSensorNames = ["leica0", "gt0"]
    /// The folder name of the full-state ground truth.
    public static let groundTruthName = "state_groundtruth_estimate0"
    /// The folder name of TUM-VI's motion-capture ground truth (pose only), used when there is no
    /// ``groundTruthName`` folder.
    public static let mocapName = "mocap0"

    /// Opens the dataset at `url`, which may be the dataset folder (containing `mav0`) or the
    /// `mav0` folder itself.
    public init(url: URL, policy: ReadPolicy = .strict) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else {
            throw DatasetError(.layout, file: url.path, "no such folder")
        }
        if url.lastPathComponent == "mav0" {
            mav0 = url
        } else if fm.fileExists(atPath: url.appendingPathComponent("mav0").path) {
            mav0 = url.appendingPathComponent("mav0")
        } else {
            throw DatasetError(.layout, file: url.path,
                               "no 'mav0' folder: expected an EuRoC/ASL dataset folder or its 'mav0' folder")
        }
        self.policy = policy
        let mav0 = self.mav0
        func require(_ relative: String) throws -> URL {
            let u = mav0.appendingPathComponent(relative)
            guard fm.fileExists(atPath: u.path) else {
                throw DatasetError(.layout, file: "mav0/\(relative)", "file is missing")
            }
            return u
        }
        var cameras: [CameraCalibration] = []
        for name in ["cam0", "cam1"] {
            let folder = mav0.appendingPathComponent(name)
            if name == "cam1", !fm.fileExists(atPath: folder.path) { break }
            _ = try require("\(name)/data.csv")
            let yaml = try require("\(name)/sensor.yaml")
            cameras.append(try CameraCalibration(contentsOf: yaml, name: name, file: "mav0/\(name)/sensor.yaml"))
        }
        self.cameras = cameras
        _ = try require("imu0/data.csv")
        imu = try IMUCalibration(contentsOf: try require("imu0/sensor.yaml"), name: "imu0", file: "mav0/imu0/sensor.yaml")
        groundTruthSensor = [Self.groundTruthName, Self.mocapName].first {
            fm.fileExists(atPath: mav0.appendingPathComponent("\($0)/data.csv").path)
        }
        hasGroundTruth = groundTruthSensor != nil
        positionSensor = Self.positionSensorNames.first {
            fm.fileExists(atPath: mav0.appendingPathComponent("\($0)/data.csv").path)
        }
        try checkStereoBaseline()
    }

    /// True with two cameras.
    public var isStereo: Bool { cameras.count == 2 }

    /// The stereo baseline ‖t_cam0 − t_cam1‖ in metres, from the two `T_BS`.
    public var stereoBaseline: Double? {
        guard isStereo else { return nil }
        return (cameras[0].T_body_camera.translation - cameras[1].T_body_camera.translation).norm
    }

    /// `T_cam0_cam1`: maps points from cam1 into cam0.
    public var T_cam0_cam1: RigidTransform? {
        guard isStereo else { return nil }
        return cameras[0].T_body_camera.inverse * cameras[1].T_body_camera
    }

    // MARK: Streams (one pass, constant memory)

    /// Streams `camN/data.csv` (`#timestamp [ns],filename`). Each row's image must exist.
    public func cameraStream(_ index: Int) throws -> RecordStream<CameraFrame> {
        guard cameras.indices.contains(index) else {
            throw DatasetError(.layout, file: "mav0/cam\(index)", "the dataset has no camera \(index)")
        }
        let cal = cameras[index]
        let name = cal.name
        let dataFolder = mav0.appendingPathComponent("\(name)/data")
        let file = "mav0/\(name)/data.csv"
        return try RecordStream(url: mav0.appendingPathComponent("\(name)/data.csv"), file: file, policy: policy,
                                timestamp: { $0.timestampNs }) { row in
            try row.requireColumns([2], what: "camera")
            let t = try row.timestamp(0)
            let filename = String(row.fields[1])
            guard !filename.isEmpty else {
                throw DatasetError(.malformedRow, file: file, line: row.line, "column 2 (filename) is empty")
            }
            // Images live in camN/data; a row must not point the reader at any other file.
            guard !filename.hasPrefix("/"), !filename.split(separator: "/").contains("..") else {
                throw DatasetError(.malformedRow, file: file, line: row.line,
                                   "column 2 (filename) '\(filename)' must name a file inside mav0/\(name)/data")
            }
            let url = dataFolder.appendingPathComponent(filename)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw DatasetError(.missingImage, file: file, line: row.line,
                                   "image file 'mav0/\(name)/data/\(filename)' does not exist")
            }
            return CameraFrame(camera: name, timestampNs: t, filename: filename, url: url,
                               expectedWidth: cal.width, expectedHeight: cal.height)
        }
    }

    /// Streams `imu0/data.csv` (`#timestamp [ns],w_x,w_y,w_z,a_x,a_y,a_z`).
    public func imuStream() throws -> RecordStream<IMUSample> {
        let file = "mav0/imu0/data.csv"
        return try RecordStream(url: mav0.appendingPathComponent("imu0/data.csv"), file: file, policy: policy,
                                timestamp: { $0.timestampNs }) { row in
            try row.requireColumns([7], what: "IMU")
            let sample = IMUSample(timestampNs: try row.timestamp(0),
                                   angularVelocity: try row.vector(1, ["w_RS_S_x", "w_RS_S_y", "w_RS_S_z"]),
                                   acceleration: try row.vector(4, ["a_RS_S_x", "a_RS_S_y", "a_RS_S_z"]))
            try Self.checkPlausible(sample, file: file, line: row.line)
            return sample
        }
    }

    /// The largest specific force accepted, in m/s² (about 100 g; MEMS IMUs saturate far below).
    public static let maximumAcceleration = 1000.0
    /// The largest angular rate accepted, in rad/s (about 5700 °/s).
    public static let maximumAngularVelocity = 100.0

    /// Rejects an IMU row whose finite values are still physically absurd (a corrupted file).
    static func checkPlausible(_ s: IMUSample, file: String, line: Int) throws {
        // Scaled so that 1e308 does not overflow to infinity when squared.
        func magnitude(_ v: Vector3) -> Double {
            let m = max(abs(v.x), abs(v.y), abs(v.z))
            return m == 0 ? 0 : m * (v / m).norm
        }
        let accel = magnitude(s.acceleration), gyro = magnitude(s.angularVelocity)
        guard accel <= maximumAcceleration else {
            throw DatasetError(.outOfRange, file: file, line: line,
                               "acceleration magnitude \(accel) m/s² exceeds \(maximumAcceleration) m/s²")
        }
        guard gyro <= maximumAngularVelocity else {
            throw DatasetError(.outOfRange, file: file, line: line,
                               "angular velocity magnitude \(gyro) rad/s exceeds \(maximumAngularVelocity) rad/s")
        }
    }

    /// Streams the ground truth, or nil when the dataset has none.
    ///
    /// `state_groundtruth_estimate0` rows hold the full state. TUM-VI's `mocap0` rows
    /// (`timestamp, p_RS_R xyz, q_RS wxyz`) hold the pose only: their states have zero velocity
    /// and biases, which nothing in Parallax reads from ground truth (poses only).
    public func groundTruthStream() throws -> RecordStream<GroundTruthState>? {
        guard let sensor = groundTruthSensor else { return nil }
        let fullState = sensor == Self.groundTruthName
        let file = "mav0/\(sensor)/data.csv"
        return try RecordStream(url: mav0.appendingPathComponent("\(sensor)/data.csv"), file: file,
                                policy: policy, timestamp: { $0.timestampNs }) { row in
            try row.requireColumns([fullState ? 17 : 8], what: fullState ? "ground-truth state" : "motion-capture pose")
            let q = Quaternion(w: try row.double(4, "q_RS_w"), x: try row.double(5, "q_RS_x"),
                               y: try row.double(6, "q_RS_y"), z: try row.double(7, "q_RS_z"))
            guard abs(q.norm - 1) < 1e-2 else {
                throw DatasetError(.malformedRow, file: file, line: row.line,
                                   "quaternion q_RS has norm \(q.norm), expected 1")
            }
            return GroundTruthState(
                timestampNs: try row.timestamp(0),
                position: try row.vector(1, ["p_RS_R_x", "p_RS_R_y", "p_RS_R_z"]), orientation: q,
                velocity: fullState ? try row.vector(8, ["v_RS_R_x", "v_RS_R_y", "v_RS_R_z"]) : .zero,
                gyroscopeBias: fullState ? try row.vector(11, ["b_w_RS_S_x", "b_w_RS_S_y", "b_w_RS_S_z"]) : .zero,
                accelerometerBias: fullState ? try row.vector(14, ["b_a_RS_S_x", "b_a_RS_S_y", "b_a_RS_S_z"]) : .zero)
        }
    }

    /// Streams the position-only ground truth (`leica0`/`gt0`), or nil when there is none.
    /// Rows have 4 columns; 8-column rows (position + quaternion, as motion-capture exports
    /// write) are accepted and their orientation ignored.
    public func positionStream() throws -> RecordStream<PositionSample>? {
        guard let name = positionSensor else { return nil }
        let file = "mav0/\(name)/data.csv"
        return try RecordStream(url: mav0.appendingPathComponent("\(name)/data.csv"), file: file, policy: policy,
                                timestamp: { $0.timestampNs }) { row in
            try row.requireColumns([4, 8], what: "position")
            return PositionSample(timestampNs: try row.timestamp(0),
                                  position: try row.vector(1, ["p_RS_R_x", "p_RS_R_y", "p_RS_R_z"]))
        }
    }

    // MARK: Whole-file conveniences (memory grows with the file; fine for short recordings)

    /// All frames of camera `index`.
    public func cameraFrames(_ index: Int) throws -> [CameraFrame] { try collect(cameraStream(index)) }
    /// All IMU samples.
    public func imuSamples() throws -> [IMUSample] { try collect(imuStream()) }
    /// All ground-truth states (empty when the dataset has no ground truth). A ground-truth file
    /// that exists but holds fewer than two rows throws: every pose looked up in it would be
    /// missing, and a replay or evaluation on it would pass with nothing measured.
    public func groundTruth() throws -> [GroundTruthState] {
        guard let stream = try groundTruthStream() else { return [] }
        let states = try collect(stream)
        try Self.requireRows(states.count, minimum: 2, file: "mav0/\(Self.groundTruthName)/data.csv", what: "ground-truth")
        return states
    }
    /// All position-only ground-truth samples (empty when there are none).
    public func positions() throws -> [PositionSample] { try positionStream().map(collect) ?? [] }

    private func collect<R>(_ stream: RecordStream<R>) throws -> [R] {
        var out: [R] = []
        while let r = try stream.next() { out.append(r) }
        return out
    }

    /// Throws when a CSV file held fewer than `minimum` usable rows: an empty, header-only or
    /// one-row file is a broken recording, not a successful one.
    static func requireRows(_ count: Int, minimum: Int, file: String, what: String) throws {
        guard count >= minimum else {
            throw DatasetError(.tooFewRows, file: file,
                               "has \(count) usable \(what) rows; at least \(minimum) are needed")
        }
    }

    /// The earliest camera or IMU timestamp (the origin of replay time windows).
    public func startTimestampNs() throws -> Int64? {
        var first: [Int64] = []
        for i in cameras.indices { if let f = try cameraStream(i).next() { first.append(f.timestampNs) } }
        if let s = try imuStream().next() { first.append(s.timestampNs) }
        return first.min()
    }

    /// Reads every row of every CSV file and decodes every image (checksums verified), in
    /// constant memory, then checks that the streams fit together (``checkTimelines(stereo:)``).
    ///
    /// Under ``ReadPolicy/strict`` the first problem throws; under ``ReadPolicy/lenient`` the
    /// skipped rows are returned. Images of the wrong size or that cannot be decoded always throw.
    /// Warnings (images that are not 8-bit grey, frames outside the IMU range, unpaired stereo
    /// frames) are returned in ``ReadDiagnostics/warnings``.
    @discardableResult
    public func validate() throws -> ReadDiagnostics {
        var diagnostics = ReadDiagnostics()
        for i in cameras.indices {
            let s = try cameraStream(i)
            var formats = ImageFormatTally()
            while let f = try s.next() { if let info = try f.validateImage() { formats.add(info) } }
            diagnostics.merge(s.diagnostics)
            try Self.requireRows(s.count, minimum: 2, file: "mav0/\(cameras[i].name)/data.csv", what: "camera frame")
            if let w = formats.warning(camera: cameras[i].name) { diagnostics.warnings.append(w) }
        }
        let imu = try imuStream()
        while try imu.next() != nil {}
        diagnostics.merge(imu.diagnostics)
        try Self.requireRows(imu.count, minimum: 2, file: "mav0/imu0/data.csv", what: "IMU sample")
        if let gt = try groundTruthStream() {
            while try gt.next() != nil {}
            diagnostics.merge(gt.diagnostics)
            try Self.requireRows(gt.count, minimum: 2, file: "mav0/\(Self.groundTruthName)/data.csv", what: "ground-truth")
        }
        if let p = try positionStream() {
            while try p.next() != nil {}
            diagnostics.merge(p.diagnostics)
        }
        diagnostics.warnings += try checkTimelines(stereo: isStereo)
        return diagnostics
    }
}

import Foundation
import ParallaxImaging

/// Writes a recording in the EuRoC/ASL layout, one row at a time.
///
/// The writer creates `<url>/mav0/` with `camN/` (sensor.yaml, data.csv, data/*.png),
/// `imu0/`, and optionally `state_groundtruth_estimate0/` and a position-only sensor. Rows go
/// straight to buffered files, so writing a long recording takes constant memory. Numbers are
/// printed in Swift's shortest round-trip form, so ``EuRoCDataset`` reads back the same values.
/// Each file's timestamps must increase strictly, as the reader demands.
public final class EuRoCWriter {
    /// The `mav0` folder being written.
    public let mav0: URL
    /// The camera calibrations written.
    public let cameras: [CameraCalibration]
    private var cameraCSV: [LineWriter]
    private let imuCSV: LineWriter
    private let groundTruthCSV: LineWriter?
    private let positionCSV: LineWriter?
    private let positionSensor: String?
    private var lastCamera: [Int64?]
    private var lastIMU: Int64? = nil, lastGroundTruth: Int64? = nil, lastPosition: Int64? = nil
    private var finished = false

    /// The header lines EuRoC uses, so that other tools read our files too.
    static let cameraHeader = "#timestamp [ns],filename"
    static let imuHeader = "#timestamp [ns],w_RS_S_x [rad s^-1],w_RS_S_y [rad s^-1],w_RS_S_z [rad s^-1],a_RS_S_x [m s^-2],a_RS_S_y [m s^-2],a_RS_S_z [m s^-2]"
    static let groundTruthHeader = "#timestamp, p_RS_R_x [m], p_RS_R_y [m], p_RS_R_z [m], q_RS_w [], q_RS_x [], q_RS_y [], q_RS_z [], v_RS_R_x [m s^-1], v_RS_R_y [m s^-1], v_RS_R_z [m s^-1], b_w_RS_S_x [rad s^-1], b_w_RS_S_y [rad s^-1], b_w_RS_S_z [rad s^-1], b_a_RS_S_x [m s^-2], b_a_RS_S_y [m s^-2], b_a_RS_S_z [m s^-2]"
    static let positionHeader = "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m]"

    /// Creates the layout under `url` (the dataset folder; `mav0` is created inside it).
    ///
    /// - Parameters:
    ///   - cameras: one (mono) or two (stereo) calibrations; their `name`s are replaced by `cam0`, `cam1`.
    ///   - groundTruth: whether to create `state_groundtruth_estimate0`.
    ///   - positionSensor: `leica0` or `gt0` to create a position-only ground truth.
    ///   - overwrite: replace an existing `mav0` folder instead of failing.
    public init(url: URL, cameras: [CameraCalibration], imu: IMUCalibration, groundTruth: Bool = false,
                positionSensor: String? = nil, overwrite: Bool = false) throws {
        guard (1...2).contains(cameras.count) else {
            throw DatasetError(.invalidArgument, file: url.path, "a dataset needs one or two cameras, got \(cameras.count)")
        }
        if let p = positionSensor, !EuRoCDataset.positionSensorNames.contains(p) {
            throw DatasetError(.invalidArgument, file: url.path,
                               "position sensor must be one of \(EuRoCDataset.positionSensorNames), got '\(p)'")
        }
        let fm = FileManager.default
        let root = url.appendingPathComponent("mav0")
        mav0 = root
        if fm.fileExists(atPath: root.path) {
            guard overwrite else { throw DatasetError(.io, file: root.path, "folder already exists (pass overwrite: true)") }
            try? fm.removeItem(at: root)
        }
        func makeFolder(_ relative: String) throws -> URL {
            let u = root.appendingPathComponent(relative)
            do { try fm.createDirectory(at: u, withIntermediateDirectories: true) } catch {
                throw DatasetError(.io, file: "mav0/\(relative)", "cannot create folder (\(FileReadability.describe(error, writing: u)))")
            }
            return u
        }
        func writeText(_ text: String, _ relative: String) throws {
            do { try text.write(to: root.appendingPathComponent(relative), atomically: true, encoding: .utf8) } catch {
                throw DatasetError(.io, file: "mav0/\(relative)", "cannot write file (\(FileReadability.describe(error, writing: root.appendingPathComponent(relative))))")
            }
        }
        func openCSV(_ relative: String, header: String) throws -> LineWriter {
            let w = try LineWriter(url: root.appendingPathComponent(relative), displayName: "mav0/\(relative)")
            try w.write(line: header)
            return w
        }
        var named: [CameraCalibration] = []
        var csvs: [LineWriter] = []
        for (i, var c) in cameras.enumerated() {
            c.name = "cam\(i)"
            _ = try makeFolder("\(c.name)/data")
            try writeText(SensorYAMLWriter.yaml(c), "\(c.name)/sensor.yaml")
            csvs.append(try openCSV("\(c.name)/data.csv", header: Self.cameraHeader))
            named.append(c)
        }
        self.cameras = named
        cameraCSV = csvs
        lastCamera = Array(repeating: nil, count: named.count)
        _ = try makeFolder("imu0")
        try writeText(SensorYAMLWriter.yaml(imu), "imu0/sensor.yaml")
        imuCSV = try openCSV("imu0/data.csv", header: Self.imuHeader)
        if groundTruth {
            let gt = EuRoCDataset.groundTruthName
            _ = try makeFolder(gt)
            try writeText(SensorYAMLWriter.groundTruthYAML(), "\(gt)/sensor.yaml")
            groundTruthCSV = try openCSV("\(gt)/data.csv", header: Self.groundTruthHeader)
        } else {
            groundTruthCSV = nil
        }
        self.positionSensor = positionSensor
        if let p = positionSensor {
            _ = try makeFolder(p)
            positionCSV = try openCSV("\(p)/data.csv", header: Self.positionHeader)
        } else {
            positionCSV = nil
        }
    }

    private func checkOrder(_ t: Int64, after last: Int64?, file: String) throws {
        guard !finished else { throw DatasetError(.invalidArgument, file: file, "writer already finished") }
        if let last, t <= last {
            throw DatasetError(.invalidArgument, file: file,
                               "timestamp \(t) does not come after the previous row's \(last)")
        }
    }

    private func cameraIndex(_ camera: Int) throws -> Int {
        guard cameraCSV.indices.contains(camera) else {
            throw DatasetError(.invalidArgument, file: "mav0/cam\(camera)", "the writer has no camera \(camera)")
        }
        return camera
    }

    /// Encodes `image` as `camN/data/<filename>` (default `<timestampNs>.png`) and adds its row.
    /// The image must have the calibration's resolution.
    public func appendImage(_ image: AnyImage, camera: Int, timestampNs: Int64, filename: String? = nil) throws {
        let i = try cameraIndex(camera)
        let c = cameras[i]
        let csv = "mav0/\(c.name)/data.csv"
        try checkOrder(timestampNs, after: lastCamera[i], file: csv)
        guard image.width == c.width, image.height == c.height else {
            throw DatasetError(.invalidArgument, file: csv,
                               "image is \(image.width)x\(image.height) but \(c.name) resolution is \(c.width)x\(c.height)")
        }
        let name = filename ?? "\(timestampNs).png"
        do { try PNG.write(image, to: mav0.appendingPathComponent("\(c.name)/data/\(name)")) } catch {
            throw DatasetError(.io, file: "mav0/\(c.name)/data/\(name)", "cannot write image: \(error)")
        }
        try cameraCSV[i].write(line: "\(timestampNs),\(name)")
        lastCamera[i] = timestampNs
    }

    /// Copies an existing image file byte for byte (no re-encoding) and adds its row.
    public func appendImageFile(copying source: URL, camera: Int, timestampNs: Int64, filename: String? = nil) throws {
        let i = try cameraIndex(camera)
        let c = cameras[i]
        try checkOrder(timestampNs, after: lastCamera[i], file: "mav0/\(c.name)/data.csv")
        let name = filename ?? "\(timestampNs).png"
        let target = mav0.appendingPathComponent("\(c.name)/data/\(name)")
        do { try FileManager.default.copyItem(at: source, to: target) } catch {
            let reason = FileReadability.problem(source).map { "cannot read it: \($0)" }
                ?? FileReadability.describe(error, writing: target)
            throw DatasetError(.io, file: "mav0/\(c.name)/data/\(name)", "cannot copy \(source.path): \(reason)")
        }
        try cameraCSV[i].write(line: "\(timestampNs),\(name)")
        lastCamera[i] = timestampNs
    }

    /// Adds an IMU row.
    public func append(_ s: IMUSample) throws {
        try checkOrder(s.timestampNs, after: lastIMU, file: "mav0/imu0/data.csv")
        let v = [s.angularVelocity.x, s.angularVelocity.y, s.angularVelocity.z,
                 s.acceleration.x, s.acceleration.y, s.acceleration.z]
        try imuCSV.write(line: row(s.timestampNs, v))
        lastIMU = s.timestampNs
    }

    /// Adds a ground-truth state row (the writer must have been created with `groundTruth: true`).
    public func append(_ g: GroundTruthState) throws {
        let file = "mav0/\(EuRoCDataset.groundTruthName)/data.csv"
        guard let csv = groundTruthCSV else {
            throw DatasetError(.invalidArgument, file: file, "the writer was created without ground truth")
        }
        try checkOrder(g.timestampNs, after: lastGroundTruth, file: file)
        let q = g.orientation
        let v = [g.position.x, g.position.y, g.position.z, q.w, q.x, q.y, q.z,
                 g.velocity.x, g.velocity.y, g.velocity.z, g.gyroscopeBias.x, g.gyroscopeBias.y, g.gyroscopeBias.z,
                 g.accelerometerBias.x, g.accelerometerBias.y, g.accelerometerBias.z]
        try csv.write(line: row(g.timestampNs, v))
        lastGroundTruth = g.timestampNs
    }

    /// Adds a position-only ground-truth row (the writer must have a `positionSensor`).
    public func append(_ p: PositionSample) throws {
        let file = "mav0/\(positionSensor ?? "leica0")/data.csv"
        guard let csv = positionCSV else {
            throw DatasetError(.invalidArgument, file: file, "the writer was created without a position sensor")
        }
        try checkOrder(p.timestampNs, after: lastPosition, file: file)
        try csv.write(line: row(p.timestampNs, [p.position.x, p.position.y, p.position.z]))
        lastPosition = p.timestampNs
    }

    private func row(_ t: Int64, _ values: [Double]) -> String {
        String(t) + "," + values.map(csvNumber).joined(separator: ",")
    }

    /// Flushes every file. Further appends throw.
    public func finish() throws {
        for w in cameraCSV { try w.flush() }
        try imuCSV.flush()
        try groundTruthCSV?.flush()
        try positionCSV?.flush()
        finished = true
    }
}

import Foundation
import ParallaxMath

/// Lens distortion of a camera, as named by `distortion_model` in `sensor.yaml`.
public enum DistortionModel: Sendable, Equatable {
    /// Brown–Conrady radial-tangential (`radial-tangential`, OpenCV's default model):
    /// radial k1, k2 and tangential p1, p2 (Brown, "Decentering distortion of lenses", 1966).
    case radialTangential(k1: Double, k2: Double, p1: Double, p2: Double)
    /// Kannala–Brandt equidistant fisheye (`equidistant`, used by TUM-VI):
    /// θ_d = θ (1 + k1 θ² + k2 θ⁴ + k3 θ⁶ + k4 θ⁸) (Kannala & Brandt, TPAMI 2006).
    case equidistant(k1: Double, k2: Double, k3: Double, k4: Double)

    /// The name used in `sensor.yaml`.
    public var name: String {
        switch self {
        case .radialTangential: return "radial-tangential"
        case .equidistant: return "equidistant"
        }
    }

    /// The four coefficients in file order.
    public var coefficients: [Double] {
        switch self {
        case let .radialTangential(k1, k2, p1, p2): return [k1, k2, p1, p2]
        case let .equidistant(k1, k2, k3, k4): return [k1, k2, k3, k4]
        }
    }
}

/// Pinhole intrinsics in pixels (`intrinsics: [fu, fv, cu, cv]`).
public struct PinholeIntrinsics: Sendable, Equatable {
    /// Focal lengths in pixels along x and y.
    public var fu: Double, fv: Double
    /// Principal point in pixels (OpenCV convention: pixel centres at integer coordinates).
    public var cu: Double, cv: Double

    /// Creates intrinsics.
    public init(fu: Double, fv: Double, cu: Double, cv: Double) {
        self.fu = fu; self.fv = fv; self.cu = cu; self.cv = cv
    }

    /// The 3×3 camera matrix K.
    public var matrix: Matrix3 { Matrix3(rowMajor: [fu, 0, cu, 0, fv, cv, 0, 0, 1]) }
}

/// The calibration of one camera, read from `mav0/camN/sensor.yaml`.
public struct CameraCalibration: Sendable, Equatable {
    /// The sensor folder name (`cam0`, `cam1`).
    public var name: String
    /// The free-text `comment`, if any.
    public var comment: String?
    /// `T_BS` exactly as stored (row-major in the file): camera → body.
    public var T_BS: Matrix4
    /// Nominal frame rate in Hz (`rate_hz`).
    public var rateHz: Double
    /// Image width and height in pixels (`resolution: [w, h]`).
    public var width: Int, height: Int
    /// `camera_model`, e.g. `pinhole`.
    public var cameraModel: String
    /// `intrinsics: [fu, fv, cu, cv]`.
    public var intrinsics: PinholeIntrinsics
    /// `distortion_model` with `distortion_coefficients`.
    public var distortion: DistortionModel
    /// Kalibr's `timeshift_cam_imu` in seconds, when the file states it: `t_imu = t_cam + timeOffset`.
    public var timeOffset: Double? = nil
    /// Kalibr's rolling-shutter `line_delay`: seconds between consecutive rows, when stated.
    public var lineDelay: Double? = nil

    /// The camera's pose in the body (IMU) frame: `p_body = T_body_camera * p_camera`, with the
    /// camera frame in OpenCV convention (x right, y down, z forward).
    public var T_body_camera: RigidTransform { RigidTransform(matrix: T_BS) }

    /// Creates a calibration; `T_body_camera` is stored as its homogeneous matrix.
    public init(name: String, comment: String? = nil, T_body_camera: RigidTransform, rateHz: Double,
                width: Int, height: Int, cameraModel: String = "pinhole",
                intrinsics: PinholeIntrinsics, distortion: DistortionModel) {
        self.init(name: name, comment: comment, T_BS: T_body_camera.matrix, rateHz: rateHz, width: width,
                  height: height, cameraModel: cameraModel, intrinsics: intrinsics, distortion: distortion)
    }

    /// Creates a calibration from the raw `T_BS` matrix.
    public init(name: String, comment: String? = nil, T_BS: Matrix4, rateHz: Double, width: Int, height: Int,
                cameraModel: String = "pinhole", intrinsics: PinholeIntrinsics, distortion: DistortionModel) {
        self.name = name; self.comment = comment; self.T_BS = T_BS; self.rateHz = rateHz
        self.width = width; self.height = height; self.cameraModel = cameraModel
        self.intrinsics = intrinsics; self.distortion = distortion
    }

    /// Reads `sensor.yaml`; `file` is the name used in errors (e.g. `mav0/cam0/sensor.yaml`).
    public init(contentsOf url: URL, name: String, file: String) throws {
        try self.init(yaml: OpenCVYAML(url: url, file: file), name: name)
    }

    /// Parses the text of a `sensor.yaml`.
    public init(yamlText: String, name: String, file: String) throws {
        try self.init(yaml: OpenCVYAML(text: yamlText, file: file), name: name)
    }

    /// Reads the fields; Kalibr's blocks have no `T_BS` or `rate_hz`, so its reader passes the
    /// pose (from `T_cam_imu`) and a rate to use when `rate_hz` is absent.
    init(yaml: OpenCVYAML, name: String, T_BS pose: Matrix4? = nil, defaultRateHz: Double? = nil) throws {
        let file = yaml.file
        self.name = name
        comment = yaml.optionalString("comment")
        T_BS = try pose ?? readTransform(yaml)
        if let defaultRateHz { rateHz = try yaml.optionalNumber("rate_hz") ?? defaultRateHz } else { rateHz = try yaml.number("rate_hz") }
        guard rateHz > 0, rateHz <= CalibrationLimits.maximumRateHz else {
            throw DatasetError(.calibration, file: file,
                               "field 'rate_hz' must be positive and at most \(CalibrationLimits.maximumRateHz), found \(rateHz)")
        }
        let res = try yaml.numbers(["resolution"], count: 2)
        guard res.allSatisfy({ $0 >= 1 && $0 == $0.rounded() && $0 < 1e6 }) else {
            throw DatasetError(.calibration, file: file, "field 'resolution' must be two positive integers [width, height]")
        }
        width = Int(res[0]); height = Int(res[1])
        cameraModel = try yaml.string("camera_model")
        guard cameraModel == "pinhole" else {
            throw DatasetError(.calibration, file: file, "field 'camera_model' must be 'pinhole', found '\(cameraModel)'")
        }
        let k = try yaml.numbers(["intrinsics"], count: 4)
        intrinsics = PinholeIntrinsics(fu: k[0], fv: k[1], cu: k[2], cv: k[3])
        try CalibrationLimits.checkIntrinsics(intrinsics, width: width, height: height, file: file)
        let model = try yaml.string("distortion_model")
        let d = try yaml.numbers(["distortion_coefficients", "distortion_coeffs"], count: 4)
        try CalibrationLimits.checkDistortion(d, file: file)
        switch model {
        case "radial-tangential", "radtan", "radial_tangential":
            distortion = .radialTangential(k1: d[0], k2: d[1], p1: d[2], p2: d[3])
        case "equidistant", "equi", "fisheye":
            distortion = .equidistant(k1: d[0], k2: d[1], k3: d[2], k4: d[3])
        default:
            throw DatasetError(.calibration, file: file,
                               "field 'distortion_model' must be 'radial-tangential' or 'equidistant', found '\(model)'")
        }
        timeOffset = try yaml.optionalNumber("timeshift_cam_imu")
        lineDelay = try yaml.optionalNumber("line_delay")
        if let lineDelay, lineDelay < 0 { throw DatasetError(.calibration, file: file, "field 'line_delay' must not be negative") }
    }
}

/// Reads `T_BS` (16 numbers, row-major) and checks that it is a rigid transform.
func readTransform(_ yaml: OpenCVYAML) throws -> Matrix4 {
    try checkedRigidTransform(try yaml.numbers(["T_BS"], count: 16), field: "T_BS", file: yaml.file)
}

/// Checks 16 row-major numbers form a rigid transform (also for Kalibr's `T_cam_imu`).
func checkedRigidTransform(_ v: [Double], field: String, file: String) throws -> Matrix4 {
    let m = Matrix4(rowMajor: v)
    guard v[12] == 0, v[13] == 0, v[14] == 0, v[15] == 1 else {
        throw DatasetError(.calibration, file: file, "field '\(field)' must have a last row of [0, 0, 0, 1]")
    }
    // A rotation block that is not orthonormal means a typo in the file; 1e-3 leaves room
    // for the 12 printed digits of real calibrations.
    let r = m.upperLeft3x3
    let rtr = r.transpose * r
    var worst = 0.0
    for i in 0..<3 { for j in 0..<3 { worst = max(worst, abs(rtr[i, j] - (i == j ? 1 : 0))) } }
    guard worst < 1e-3 else {
        throw DatasetError(.calibration, file: file, "field '\(field)' rotation block is not a rotation (RᵀR deviates by \(worst))")
    }
    guard r.determinant > 0 else {
        throw DatasetError(.calibration, file: file, "field '\(field)' rotation has determinant −1 (a reflection)")
    }
    return m
}

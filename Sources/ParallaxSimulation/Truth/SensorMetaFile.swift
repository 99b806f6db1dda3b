import Foundation
import ParallaxDatasets
import ParallaxMath

/// `truth/meta.json`: the sensor profile and the true value of every sensor effect, including
/// the true calibration next to the one written to `sensor.yaml`. Written only when an effect is
/// on, so effect-free datasets are unchanged. Keys are sorted and numbers are printed in their
/// shortest exact form, so the same simulation gives the same bytes.
public struct SensorMetaFile: Codable, Sendable, Equatable {
    /// A camera's intrinsics and extrinsics.
    public struct Calibration: Codable, Sendable, Equatable {
        /// `[fu, fv, cu, cv]` (px).
        public var intrinsics: [Double]
        /// `T_BS` (camera → body), four rows of four.
        public var T_BS: [[Double]]
    }

    /// The calibration error of one camera.
    public struct CalibrationError: Codable, Sendable, Equatable {
        /// Signed relative focal error (written = true · (1 + focalFraction)).
        public var focalFraction: Double
        /// Written minus true principal point (px).
        public var principalPointOffset: [Double]
        /// Its length (px).
        public var principalPointPixels: Double
        /// `R_written = R_true · Exp(rotationVector)` (rad, camera frame).
        public var rotationVector: [Double]
        /// Its angle (degrees).
        public var rotationDegrees: Double
        /// Written minus true `T_BS` translation (m, body frame).
        public var translationOffset: [Double]
        /// Its length (mm).
        public var translationMillimetres: Double
    }

    /// One camera: the truth that rendered the images and what `sensor.yaml` says.
    public struct Camera: Codable, Sendable, Equatable {
        /// `cam0`, `cam1`.
        public var name: String
        /// The camera that rendered the images.
        public var trueCalibration: Calibration
        /// What `sensor.yaml` says.
        public var writtenCalibration: Calibration
        /// The difference.
        public var error: CalibrationError
    }

    /// One frame's exposure.
    public struct Frame: Codable, Sendable, Equatable {
        /// The image's timestamp as written (ns, camera clock).
        public var timestamp: Int64
        /// The true time of the middle row's mid-exposure (ns, IMU / ground-truth clock).
        public var trueTimestamp: Int64
        /// Exposure time (s).
        public var exposureTime: Double
        /// Analogue gain (1 = none).
        public var gain: Double
        /// Grey-level factor relative to the nominal exposure at gain 1 (exposure ratio × gain).
        public var brightness: Double
        /// Renders cam0's image was made from.
        public var renders: Int
    }

    /// `ideal`, `euroc` or `phone` (the profile the effects started from).
    public var profile: String
    /// The conventions, in words.
    public var conventions: [String: String]
    /// Nominal exposure time (s).
    public var exposureTime: Double
    /// Rolling-shutter readout (s), 0 for a global shutter.
    public var rollingShutterReadout: Double
    /// Kalibr's `line_delay`: time between consecutive rows (s).
    public var lineDelay: Double
    /// The row whose time the timestamp refers to (`(height − 1) / 2`).
    public var timestampRow: Double
    /// Kalibr's `timeshift_cam_imu` (s): `t_imu = t_cam + timeshift_cam_imu`.
    public var timeshift_cam_imu: Double
    /// Whether `sensor.yaml` states `timeshift_cam_imu` and `line_delay`.
    public var timingStatedInSensorYAML: Bool
    /// Whether auto-exposure varied exposure and gain.
    public var autoExposure: Bool
    /// Image noise σ (grey levels).
    public var imageNoiseSigma: Double
    /// How blur and rolling shutter were rendered: `reprojection` or `renders` (``ShutterMethod``).
    public var shutterMethod: String
    /// The configured sizes of the calibration error.
    public var calibrationErrorSizes: [String: Double]
    /// Per camera.
    public var cameras: [Camera]
    /// Per frame.
    public var frames: [Frame]

    /// The file for a simulation with `effects`, its cameras' calibration errors and frames.
    public init(effects: SensorEffects, cameras: [CalibrationPerturbation], imageNoiseSigma: Double, frames: [Frame]) {
        let sizes = effects.calibrationError
        let height = cameras.first?.truth.height ?? 1
        profile = effects.profile.rawValue
        conventions = Self.conventionText
        exposureTime = effects.exposureTime
        rollingShutterReadout = effects.rollingShutterReadout
        lineDelay = effects.rollingShutterReadout / Double(height)
        timestampRow = Double(height - 1) / 2
        timeshift_cam_imu = effects.timeshiftCamIMU
        timingStatedInSensorYAML = effects.statesTimingInCalibration
        autoExposure = effects.autoExposure
        self.imageNoiseSigma = imageNoiseSigma
        shutterMethod = effects.shutterMethod.rawValue
        calibrationErrorSizes = ["focalFraction": sizes.focalFraction, "principalPointPixels": sizes.principalPointPixels,
                                 "rotationDegrees": sizes.rotationDegrees, "translationMillimetres": sizes.translationMillimetres]
        self.cameras = cameras.map(Camera.init)
        self.frames = frames
    }

    /// The JSON text (pretty-printed, sorted keys).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    static let conventionText: [String: String] = [
        "clocks": "IMU and ground truth are on the IMU clock; image stamps are on the camera clock: t_imu = t_cam + timeshift_cam_imu (Kalibr)",
        "trueTimestamp": "middle of the exposure of row timestampRow = (height - 1) / 2, IMU clock",
        "rollingShutter": "row v is read at trueTime + (v - (height - 1) / 2) * lineDelay, lineDelay = readout / height, top row first",
        "exposure": "each row integrates light over [t_v - exposureTime / 2, t_v + exposureTime / 2]",
        "calibration": "trueCalibration rendered the images; writtenCalibration is in mav0/camN/sensor.yaml",
    ]
}

extension SensorMetaFile.Calibration {
    init(_ c: CameraCalibration) {
        let k = c.intrinsics
        intrinsics = [k.fu, k.fv, k.cu, k.cv]
        T_BS = (0..<4).map { r in (0..<4).map { c.T_BS[r, $0] } }
    }
}

extension SensorMetaFile.Camera {
    init(_ p: CalibrationPerturbation) {
        name = p.truth.name
        trueCalibration = .init(p.truth)
        writtenCalibration = .init(p.written)
        error = .init(
            focalFraction: p.focalFraction,
            principalPointOffset: [p.principalPointOffset.x, p.principalPointOffset.y],
            principalPointPixels: p.principalPointOffset.norm,
            rotationVector: [p.rotationVector.x, p.rotationVector.y, p.rotationVector.z],
            rotationDegrees: p.rotationVector.norm * 180 / .pi,
            translationOffset: [p.translationOffset.x, p.translationOffset.y, p.translationOffset.z],
            translationMillimetres: p.translationOffset.norm * 1000)
    }
}

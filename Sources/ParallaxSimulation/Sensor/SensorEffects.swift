import Foundation
import ParallaxDatasets

/// A named set of camera imperfections for `parallax simulate --sensor`.
public enum SensorProfile: String, Sendable, CaseIterable {
    /// No effects: exactly the simulator's original output (instantaneous global-shutter
    /// exposure, synchronised clocks, the written calibration is the true one, fixed exposure).
    case ideal
    /// A machine-vision stereo rig like EuRoC's VI-Sensor: global shutter, 2 ms exposure, a 0.5 ms
    /// camera–IMU time shift and a Kalibr-quality calibration error.
    case euroc
    /// A phone camera: mono, 20 ms rolling-shutter readout, 5 ms exposure, a 10 ms camera–IMU time
    /// shift, the same calibration error and auto-exposure.
    case phone

    /// The effects this profile stands for.
    public var effects: SensorEffects {
        var e = SensorEffects()
        e.profile = self
        switch self {
        case .ideal:
            break
        case .euroc:
            e.exposureTime = 0.002
            e.timeshiftCamIMU = 0.0005
            e.calibrationError = .kalibrQuality
        case .phone:
            e.exposureTime = 0.005
            e.rollingShutterReadout = 0.020
            e.timeshiftCamIMU = 0.010
            e.calibrationError = .kalibrQuality
            e.autoExposure = true
        }
        return e
    }

    /// Whether the profile describes a single camera (a stereo simulation is refused).
    public var isMono: Bool { self == .phone }
}

/// How the simulator renders a frame whose rows see different instants (rolling shutter) or
/// integrate a span of time (exposure).
public enum ShutterMethod: String, Sendable, CaseIterable {
    /// A few renders with depth per frame; each pixel's ray is carried into the nearest render at
    /// every instant of its row's exposure (``ReprojectionPlan``). Rotation is exact; translation
    /// is exact except in strips a near edge uncovers, kept under a few pixels wide. About 1.5× an
    /// effect-free frame's cost.
    case reprojection
    /// Up to ``SensorEffects/maxRendersPerFrame`` renders about a pixel of motion apart, blended
    /// per row (``ShutterSampling``): every instant drawn, but a hand's fast turn costs ~30 renders.
    case renders
}

/// How far the written `sensor.yaml` is from the camera that rendered the images. Each camera
/// gets its own error of exactly these sizes in directions drawn from the seed.
public struct CalibrationErrorSizes: Sendable, Equatable {
    /// Relative focal-length error (0.0015 = 0.15 %), applied to `fu` and `fv` with one sign.
    public var focalFraction: Double = 0
    /// Principal-point error in pixels (length of the 2-D offset).
    public var principalPointPixels: Double = 0
    /// Rotation error of `T_BS` in degrees (angle about a random axis).
    public var rotationDegrees: Double = 0
    /// Translation error of `T_BS` in millimetres (length of a random offset).
    public var translationMillimetres: Double = 0

    /// Creates error sizes (all zero by default).
    public init(focalFraction: Double = 0, principalPointPixels: Double = 0, rotationDegrees: Double = 0,
                translationMillimetres: Double = 0) {
        self.focalFraction = focalFraction
        self.principalPointPixels = principalPointPixels
        self.rotationDegrees = rotationDegrees
        self.translationMillimetres = translationMillimetres
    }

    /// No error.
    public static let none = CalibrationErrorSizes()

    /// A good Kalibr calibration's residual error (issue 12): focal 0.15 %, principal point
    /// 0.75 px, extrinsic rotation 0.15° and translation 2.5 mm.
    public static let kalibrQuality = CalibrationErrorSizes(
        focalFraction: 0.0015, principalPointPixels: 0.75, rotationDegrees: 0.15, translationMillimetres: 2.5)

    /// These sizes multiplied by `factor`.
    public func scaled(by factor: Double) -> CalibrationErrorSizes {
        CalibrationErrorSizes(focalFraction: focalFraction * factor, principalPointPixels: principalPointPixels * factor,
                              rotationDegrees: rotationDegrees * factor, translationMillimetres: translationMillimetres * factor)
    }

    /// True when every size is zero.
    public var isZero: Bool { self == .none }
}

/// Camera imperfections the simulator can add, each off by default.
///
/// Time conventions (also in `Datasets/README.md`):
/// - A frame's *true time* is on the IMU/ground-truth clock and lies on the camera-rate grid
///   (the same instants as without effects). It is the middle of the exposure of the image's
///   middle row, row `(height − 1) / 2`.
/// - With exposure time `e`, row `v` integrates light over `[t_v − e/2, t_v + e/2]`.
/// - With a rolling shutter of total readout `R`, row `v` is seen at
///   `t_v = t + (v − (height − 1)/2) · lineDelay` with `lineDelay = R / height` (top row first).
/// - The written image stamp is on the camera clock, with Kalibr's convention
///   `t_imu = t_cam + timeshift_cam_imu`: stamp = true time − `timeshiftCamIMU`.
public struct SensorEffects: Sendable, Equatable {
    /// The profile these effects started from (recorded in `truth/meta.json`).
    public var profile: SensorProfile = .ideal
    /// Exposure time in seconds (0: instantaneous, no motion blur).
    public var exposureTime: Double = 0
    /// Rolling-shutter readout time in seconds, first row to past the last (0: global shutter).
    public var rollingShutterReadout: Double = 0
    /// Kalibr's `timeshift_cam_imu` in seconds: `t_imu = t_cam + timeshiftCamIMU`.
    public var timeshiftCamIMU: Double = 0
    /// Error of the written calibration.
    public var calibrationError: CalibrationErrorSizes = .none
    /// Gain and exposure time follow a smooth random walk towards a target brightness
    /// (``AutoExposure``); `exposureTime` is then the nominal exposure.
    public var autoExposure = false
    /// Whether `sensor.yaml` states the true time shift and line delay (Kalibr's
    /// `timeshift_cam_imu` and `line_delay`), as a calibrated rig would; false hides them.
    public var statesTimingInCalibration = true
    /// Most renders per frame and camera for blur and rolling shutter (bounds the cost). Rows
    /// between two renders blend them, which is the per-row image only while the renders are
    /// about a pixel apart: with 8, a 200 °/s turn put them ~5 px apart, the rows showed two
    /// faint copies of each corner, and KLT tracks on those fitted the documented row times
    /// only with a ~4 % longer readout (TUM-VI room3, 20 ms readout: front-end rms 0.45 px vs
    /// 0.41 px with 64, mono ATE 2.2 vs 1.1 cm). Bands keep 64 renders near the cost of 8
    /// (each render draws only the rows that use it).
    public var maxRendersPerFrame = 64
    /// Image motion allowed between two consecutive renders, in pixels (``ShutterMethod/renders``).
    public var pixelsPerRender = 1.0
    /// How frames with exposure or a rolling shutter are rendered.
    public var shutterMethod = ShutterMethod.reprojection
    /// Image motion from translation alone allowed between a row's instants and its render, in
    /// pixels (``ShutterMethod/reprojection``): the widest strip a near edge can uncover.
    public var parallaxPerRender = 2.0

    /// No effects.
    public init() {}

    /// True when the output is the simulator's original (no effect is on).
    public var isIdeal: Bool {
        exposureTime == 0 && rollingShutterReadout == 0 && timeshiftCamIMU == 0 && calibrationError.isZero && !autoExposure
    }

    /// `calibration` with the timing this dataset states in `sensor.yaml`: Kalibr's
    /// `timeshift_cam_imu` whenever an effect is on, `line_delay` for a rolling shutter (both
    /// omitted when `statesTimingInCalibration` is false or no effect is on).
    public func statedCalibration(_ calibration: CameraCalibration) -> CameraCalibration {
        var c = calibration
        // Timing read from a --calibration dataset does not describe these images.
        c.timeOffset = nil
        c.lineDelay = nil
        guard statesTimingInCalibration, !isIdeal else { return c }
        c.timeOffset = timeshiftCamIMU
        if rollingShutterReadout > 0 { c.lineDelay = rollingShutterReadout / Double(c.height) }
        return c
    }

    /// Checks every number for `period` seconds between frames; the message names the setting.
    public func validate(framePeriod period: Double) throws {
        func check(_ value: Double, _ name: String, _ range: ClosedRange<Double>) throws {
            guard value.isFinite, range.contains(value) else {
                throw SimulationError.invalidArgument("\(name) must be finite and in \(range.lowerBound)...\(range.upperBound), got \(value)")
            }
        }
        try check(exposureTime, "exposure time (s)", 0...min(period, 0.1))
        try check(rollingShutterReadout, "rolling-shutter readout (s)", 0...min(period, 0.1))
        try check(timeshiftCamIMU, "camera–IMU time shift (s)", -0.1...0.1)
        try check(calibrationError.focalFraction, "focal-length error (fraction)", 0...0.1)
        try check(calibrationError.principalPointPixels, "principal-point error (px)", 0...50)
        try check(calibrationError.rotationDegrees, "extrinsic rotation error (°)", 0...10)
        try check(calibrationError.translationMillimetres, "extrinsic translation error (mm)", 0...200)
        try check(pixelsPerRender, "pixels per render", 0.05...100)
        try check(parallaxPerRender, "parallax per render (px)", 0.05...100)
        guard (1...64).contains(maxRendersPerFrame) else {
            throw SimulationError.invalidArgument("renders per frame must be in 1...64, got \(maxRendersPerFrame)")
        }
    }
}

import ArgumentParser
import ParallaxSimulation

extension SensorProfile: ExpressibleByArgument {}
extension ShutterMethod: ExpressibleByArgument {}

/// `parallax simulate`'s camera-imperfection options: a named profile and per-effect overrides.
struct SensorEffectOptions: ParsableArguments {
    @Option(help: """
        Sensor profile: ideal (no effects: the original output), euroc (global shutter, 2 ms exposure, \
        0.5 ms time shift, calibration error), phone (mono, 20 ms rolling shutter, 5 ms exposure, 10 ms \
        time shift, calibration error, auto-exposure). The flags below override the profile.
        """)
    var sensor: SensorProfile = .ideal

    @Option(name: .customLong("exposure-ms"),
            help: "Exposure time in ms (motion blur; the timestamp is mid-exposure). 0 to 100, at most the frame period.")
    var exposureMs: Double?

    @Option(name: .customLong("rolling-shutter-ms"),
            help: "Rolling-shutter readout in ms, top row to bottom (the timestamp is the middle row's). 0 to 100.")
    var rollingShutterMs: Double?

    // Unconditional: a negative shift (`--time-offset-ms -30`) is a value, not an option.
    @Option(name: .customLong("time-offset-ms"), parsing: .unconditional,
            help: "Camera–IMU time shift in ms, Kalibr's timeshift_cam_imu: t_imu = t_cam + shift. −100 to 100.")
    var timeOffsetMs: Double?

    @Option(name: .customLong("calibration-error"), help: """
        Scale of the written calibration's error: 1 = focal 0.15 %, principal point 0.75 px, \
        extrinsic rotation 0.15° and translation 2.5 mm (per camera, random directions). 0 to 20.
        """)
    var calibrationError: Double?

    @Flag(name: .customLong("auto-exposure"), inversion: .prefixedNo,
          help: "Vary gain and exposure time frame to frame (a smooth random walk towards a target brightness).")
    var autoExposure: Bool?

    @Option(name: .customLong("shutter-method"), help: """
        How blur and rolling shutter are rendered: reprojection (a few renders with depth per frame, \
        each row's exposure reprojected from them; about 1.5x an ideal frame's cost) or renders (up to \
        --max-renders renders a pixel of motion apart, blended per row; exact at edges, ~30x the cost \
        on a hand's fast turns).
        """)
    var shutterMethod: ShutterMethod = .reprojection

    @Option(name: .customLong("max-renders"), help: """
        Most renders per frame for blur and rolling shutter (with --shutter-method renders, rows \
        between two renders blend them linearly; more renders follow fast motion more faithfully, \
        at more cost). 1 to 64, default 64.
        """)
    var maxRenders: Int?

    @Flag(name: .customLong("hide-timing"),
          help: "Leave timeshift_cam_imu and line_delay out of sensor.yaml (truth/meta.json still has them).")
    var hideTiming = false

    func validate() throws {
        func check(_ value: Double?, _ flag: String, _ range: ClosedRange<Double>) throws {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw ValidationError("--\(flag) must be a finite number in \(range.lowerBound)...\(range.upperBound), got \(value)")
            }
        }
        try check(exposureMs, "exposure-ms", 0...100)
        try check(rollingShutterMs, "rolling-shutter-ms", 0...100)
        try check(timeOffsetMs, "time-offset-ms", -100...100)
        try check(calibrationError, "calibration-error", 0...20)
        if let maxRenders, !(1...64).contains(maxRenders) {
            throw ValidationError("--max-renders must be a whole number in 1...64, got \(maxRenders)")
        }
    }

    /// The effects: the profile's, with each given flag replacing its value.
    func effects(stereo: Bool) throws -> SensorEffects {
        if sensor.isMono, stereo { throw ValidationError("--sensor \(sensor.rawValue) is a single camera; drop --stereo") }
        var e = sensor.effects
        if let exposureMs { e.exposureTime = exposureMs / 1000 }
        if let rollingShutterMs { e.rollingShutterReadout = rollingShutterMs / 1000 }
        if let timeOffsetMs { e.timeshiftCamIMU = timeOffsetMs / 1000 }
        if let calibrationError { e.calibrationError = CalibrationErrorSizes.kalibrQuality.scaled(by: calibrationError) }
        if let autoExposure { e.autoExposure = autoExposure }
        e.statesTimingInCalibration = !hideTiming
        if let maxRenders { e.maxRendersPerFrame = maxRenders }
        e.shutterMethod = shutterMethod
        return e
    }
}

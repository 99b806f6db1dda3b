import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// Errors the estimator reports for unusable input.
public enum TrackingError: Error, CustomStringConvertible, Equatable {
    /// A camera calibration the front-end cannot model.
    case unsupportedCamera(String)
    /// An image whose size differs from its calibration.
    case imageSize(camera: String, expected: String, got: String)

    public var description: String {
        switch self {
        case .unsupportedCamera(let s): return "unsupported camera: \(s)"
        case let .imageSize(camera, expected, got): return "\(camera): image is \(got), calibration says \(expected)"
        }
    }
}

/// Visual-inertial odometry: the KLT front-end of `ParallaxVision` feeding a multi-state
/// constraint Kalman filter with first-estimate Jacobians (see `docs/tracking-design.md`).
///
/// Feed every IMU sample with ``process(imu:)`` and every camera frame with
/// ``process(frame:)`` (or ``process(timestamp:timestampNs:image0:image1:)``), in time order.
/// Poses are in the z-up estimator world `W` (gravity (0, 0, −9.81)); the AR layer maps them to
/// ARKit's y-up world. Deterministic: the same inputs give bit-identical outputs.
public final class VisualInertialOdometry {
    /// The configuration in use.
    public let configuration: TrackerConfiguration
    /// cam0 calibration.
    public let camera0: CameraCalibration
    /// cam1 calibration (used in stereo mode).
    public let camera1: CameraCalibration?
    /// IMU calibration (noise densities).
    public let imu: IMUCalibration

    var core: EstimatorCore

    /// Creates an estimator for the given sensors.
    /// - Throws: ``TrackingError/unsupportedCamera(_:)`` when a calibration cannot be modelled.
    public init(configuration: TrackerConfiguration, camera0: CameraCalibration, camera1: CameraCalibration?,
                imu: IMUCalibration) throws {
        self.configuration = configuration
        self.camera0 = camera0
        self.camera1 = configuration.mode == .stereo ? camera1 : nil
        self.imu = imu
        core = try EstimatorCore(configuration: configuration, camera0: camera0,
                                 camera1: configuration.mode == .stereo ? camera1 : nil, imu: imu)
    }

    /// Creates an estimator for a dataset's sensors; stereo needs two cameras (else mono is used).
    public convenience init(dataset: EuRoCDataset, mode: TrackerConfiguration.Mode) throws {
        var c = TrackerConfiguration()
        c.mode = dataset.isStereo ? mode : .mono
        try self.init(configuration: c, camera0: dataset.cameras[0],
                      camera1: dataset.cameras.count > 1 ? dataset.cameras[1] : nil, imu: dataset.imu)
    }

    /// Adds one IMU sample (must not be older than the last processed frame to be used).
    public func process(imu sample: IMUSample) {
        core.addIMU(IMUMeasurement(timestamp: sample.timestamp, gyro: sample.angularVelocity,
                                   accel: sample.acceleration))
    }

    /// Decodes a dataset frame's images and processes them.
    /// - Throws: image decoding errors (naming the file) or ``TrackingError/imageSize(camera:expected:got:)``.
    public func process(frame: FrameEvent) throws -> TrackingResult {
        let start = ThreadClock.milliseconds()
        let left = try frame.loadGray8(0)
        let right = core.isStereo ? try frame.loadGray8(1) : nil
        let decode = ThreadClock.milliseconds() - start
        var result = try process(timestamp: frame.timestamp, timestampNs: frame.timestampNs, image0: left, image1: right)
        result.timings.decode = decode
        return result
    }

    /// Processes one frame given as decoded grey images. A missing `image0` (dropped frame) only
    /// propagates the state; a missing `image1` in stereo mode processes the frame as mono.
    public func process(timestamp: Double, timestampNs: Int64, image0: GrayImage?, image1: GrayImage?) throws
        -> TrackingResult {
        if let image0, image0.width != camera0.width || image0.height != camera0.height {
            throw TrackingError.imageSize(camera: camera0.name, expected: "\(camera0.width)x\(camera0.height)",
                                          got: "\(image0.width)x\(image0.height)")
        }
        var right = image1
        if let r = image1, let c1 = camera1, r.width != c1.width || r.height != c1.height { right = nil }
        return core.processFrame(timestamp: timestamp, timestampNs: timestampNs, left: image0, right: right)
    }

    /// Forgets everything (state, window, features); the next frames initialise again.
    public func reset() { core.reset() }
}

import ParallaxDatasets
import ParallaxMath

/// Bridges the datasets helper's `sensor.yaml` calibration to the front-end camera models.
/// Kept in its own file so a change of `CameraCalibration` touches only this adapter.
/// Why a calibration cannot become a camera model (the front-end's counterpart of the
/// tracker's `TrackingError.unsupportedCamera`).
public struct CameraModelError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The camera (`cam0`, `cam1`).
    public var camera: String
    /// What is wrong with its calibration.
    public var reason: String

    /// "camera cam0: …".
    public var description: String { "camera \(camera): \(reason)" }
}

extension CameraCalibration {
    /// The camera model described by this calibration: ``PinholeRadTanCamera`` for
    /// `radial-tangential`, ``EquidistantCamera`` for `equidistant`.
    ///
    /// `sensor.yaml` readers already reject these, but calibrations built in code are checked here
    /// so that no model divides by a zero focal length or carries NaNs into the tracker.
    /// - Throws: ``CameraModelError`` when the image size or the focal lengths are not positive,
    ///   or an intrinsic or distortion coefficient is not finite.
    public func makeCameraModel() throws(CameraModelError) -> any CameraModel {
        let i = intrinsics
        guard width > 0, height > 0 else {
            throw CameraModelError(camera: name, reason: "resolution \(width)×\(height) must be positive")
        }
        guard [i.fu, i.fv, i.cu, i.cv].allSatisfy(\.isFinite), i.fu > 0, i.fv > 0 else {
            throw CameraModelError(camera: name, reason: "intrinsics [\(i.fu), \(i.fv), \(i.cu), \(i.cv)] need finite values and positive focal lengths")
        }
        guard distortion.coefficients.allSatisfy(\.isFinite) else {
            throw CameraModelError(camera: name, reason: "\(distortion.name) distortion coefficients must be finite")
        }
        switch distortion {
        case let .radialTangential(k1, k2, p1, p2):
            return PinholeRadTanCamera(width: width, height: height, fx: i.fu, fy: i.fv, cx: i.cu, cy: i.cv,
                                       k1: k1, k2: k2, p1: p1, p2: p2)
        case let .equidistant(k1, k2, k3, k4):
            return EquidistantCamera(width: width, height: height, fx: i.fu, fy: i.fv, cx: i.cu, cy: i.cv,
                                     k1: k1, k2: k2, k3: k3, k4: k4)
        }
    }
}

extension EuRoCDataset {
    /// A stereo ``FeatureTracker`` for cam0/cam1 (monocular when the dataset has one camera).
    /// - Throws: ``CameraModelError`` when a calibration cannot be modelled.
    public func makeFeatureTracker(configuration: FeatureTrackerConfiguration = .init()) throws(CameraModelError) -> FeatureTracker {
        let left = try cameras[0].makeCameraModel()
        if isStereo, let T_cam0_cam1 {
            return FeatureTracker(camera: left, rightCamera: try cameras[1].makeCameraModel(),
                                  T_right_left: T_cam0_cam1.inverse, configuration: configuration)
        }
        return FeatureTracker(camera: left, configuration: configuration)
    }
}

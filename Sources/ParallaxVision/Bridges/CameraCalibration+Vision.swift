import ParallaxDatasets
import ParallaxMath

/// Bridges the datasets helper's `sensor.yaml` calibration to the front-end camera models.
/// Kept in its own file so a change of `CameraCalibration` touches only this adapter.
extension CameraCalibration {
    /// The camera model described by this calibration: ``PinholeRadTanCamera`` for
    /// `radial-tangential`, ``EquidistantCamera`` for `equidistant`.
    public func makeCameraModel() -> any CameraModel {
        let i = intrinsics
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
    public func makeFeatureTracker(configuration: FeatureTrackerConfiguration = .init()) -> FeatureTracker {
        let left = cameras[0].makeCameraModel()
        if isStereo, let T_cam0_cam1 {
            return FeatureTracker(camera: left, rightCamera: cameras[1].makeCameraModel(),
                                  T_right_left: T_cam0_cam1.inverse, configuration: configuration)
        }
        return FeatureTracker(camera: left, configuration: configuration)
    }
}

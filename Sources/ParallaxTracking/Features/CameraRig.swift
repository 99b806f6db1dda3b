import ParallaxDatasets
import ParallaxMath

/// The camera rig: each camera's extrinsics in the body (IMU) frame, `x_body = R_body_cam x_cam + p_body_cam`.
///
/// Each camera is held on its own (not cam1 relative to cam0) because each is a filter state of its
/// own when the extrinsics are estimated online (OpenVINS's per-camera `calib_IMUtoCAM`): a stereo
/// pair whose written calibration is off has both cameras off independently.
struct CameraRig {
    var R_body_cam0: Matrix3
    var p_body_cam0: Vector3
    /// cam1's extrinsics (equal to cam0's in a mono rig, never used there).
    var R_body_cam1: Matrix3
    var p_body_cam1: Vector3
    var hasRight: Bool

    /// A mono rig with the camera at the body origin, axes aligned (tests and placeholders).
    static let identity = CameraRig(R_body_cam0: .identity, p_body_cam0: .zero, R_body_cam1: .identity,
                                    p_body_cam1: .zero, hasRight: false)

    /// Number of cameras (1 or 2).
    var cameraCount: Int { hasRight ? 2 : 1 }

    /// Extrinsics of camera `index` (0 or 1).
    func extrinsics(_ index: Int) -> (rotation: Matrix3, position: Vector3) {
        index == 0 ? (R_body_cam0, p_body_cam0) : (R_body_cam1, p_body_cam1)
    }

    /// Replaces the extrinsics of camera `index`.
    mutating func setExtrinsics(_ index: Int, rotation: Matrix3, position: Vector3) {
        if index == 0 {
            R_body_cam0 = rotation
            p_body_cam0 = position
        } else {
            R_body_cam1 = rotation
            p_body_cam1 = position
        }
    }

    /// cam1 relative to cam0: p_c1 = R_c1_c0 p_c0 + t_c1_c0.
    var R_c1_c0: Matrix3 { R_body_cam1.transpose * R_body_cam0 }
    /// See ``R_c1_c0``.
    var t_c1_c0: Vector3 { R_body_cam1.transpose * (p_body_cam0 - p_body_cam1) }

    /// World pose (R_world_cam, p_world_cam) of camera `index` for body pose (R, p).
    func cameraPose(_ index: Int, bodyRotation r: Matrix3, bodyPosition p: Vector3) -> (Matrix3, Vector3) {
        let (rbc, pbc) = extrinsics(index)
        return (r * rbc, p + r * pbc)
    }
}

extension CameraRig {
    /// A rig from cam0's extrinsics and cam1 relative to cam0 (`p_c1 = R_c1_c0 p_c0 + t_c1_c0`).
    init(R_body_cam0: Matrix3, p_body_cam0: Vector3, R_c1_c0: Matrix3, t_c1_c0: Vector3, hasRight: Bool) {
        // x_body = R_b0 p_c0 + p_b0 with p_c0 = R_c1_c0ᵀ (p_c1 − t) ⇒ R_b1 = R_b0 R_c1_c0ᵀ, p_b1 = p_b0 − R_b1 t.
        let rb1 = R_body_cam0 * R_c1_c0.transpose
        self.init(R_body_cam0: R_body_cam0, p_body_cam0: p_body_cam0, R_body_cam1: rb1,
                  p_body_cam1: p_body_cam0 - rb1 * t_c1_c0, hasRight: hasRight)
    }

    /// The rig of a calibration: each camera's `T_BS`.
    init(camera0: CameraCalibration, camera1: CameraCalibration?) {
        let T_b_c0 = camera0.T_body_camera
        let T_b_c1 = camera1?.T_body_camera ?? T_b_c0
        self.init(R_body_cam0: T_b_c0.rotationMatrix, p_body_cam0: T_b_c0.translation,
                  R_body_cam1: T_b_c1.rotationMatrix, p_body_cam1: T_b_c1.translation, hasRight: camera1 != nil)
    }
}

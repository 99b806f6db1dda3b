import ParallaxDatasets
import ParallaxMath

/// The camera rig: extrinsics of cam0 and (optionally) cam1 in the body frame.
struct CameraRig {
    var R_body_cam0: Matrix3
    var p_body_cam0: Vector3
    /// cam1 relative to cam0: p_c1 = R_c1_c0 p_c0 + t_c1_c0.
    var R_c1_c0: Matrix3
    var t_c1_c0: Vector3
    var hasRight: Bool

    /// World pose (R_world_cam, p_world_cam) of camera `index` for body pose (R, p).
    func cameraPose(_ index: Int, bodyRotation r: Matrix3, bodyPosition p: Vector3) -> (Matrix3, Vector3) {
        let rc0 = r * R_body_cam0
        let pc0 = p + r * p_body_cam0
        if index == 0 { return (rc0, pc0) }
        // p_c0 = R_c1_c0ᵀ (p_c1 − t) ⇒ cam1 in world: R_w_c1 = R_w_c0 R_c1_c0ᵀ, origin = pc0 − R_w_c1 t.
        let rc1 = rc0 * R_c1_c0.transpose
        return (rc1, pc0 - rc1 * t_c1_c0)
    }
}

extension CameraRig {
    /// The rig of a calibration: cam0's extrinsics, and cam1 relative to cam0 when `camera1` is given.
    init(camera0: CameraCalibration, camera1: CameraCalibration?) {
        let T_b_c0 = camera0.T_body_camera
        if let camera1 {
            let T_c1_c0 = camera1.T_body_camera.inverse * T_b_c0
            self.init(R_body_cam0: T_b_c0.rotationMatrix, p_body_cam0: T_b_c0.translation,
                      R_c1_c0: T_c1_c0.rotationMatrix, t_c1_c0: T_c1_c0.translation, hasRight: true)
        } else {
            self.init(R_body_cam0: T_b_c0.rotationMatrix, p_body_cam0: T_b_c0.translation,
                      R_c1_c0: .identity, t_c1_c0: .zero, hasRight: false)
        }
    }
}

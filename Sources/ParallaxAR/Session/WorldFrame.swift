import Foundation
import ParallaxMath

/// Placement of the AR world `A` (y up) relative to the estimator world `W` (z up).
enum WorldFrame {
    /// `T_A_W` for the first camera pose `T_W_Ccv` (OpenCV camera) and an alignment.
    ///
    /// `.gravity`: `y_A = z_W`; `−z_A` is the camera's optical axis projected onto the horizontal
    /// plane (the image's "up" direction when the camera looks straight down or up); origin at the
    /// camera centre. `.camera`: `A` is the first AR camera frame, `T_W_Ccv · diag(1, −1, −1)`.
    static func T_A_W(firstCamera T_W_C: RigidTransform, alignment: WorldAlignment) -> RigidTransform {
        switch alignment {
        case .camera:
            return (T_W_C * RigidTransform(rotationMatrix: Camera.R_cv_ar, translation: .zero)).inverse
        case .gravity:
            let up = Vector3(0, 0, 1)
            var forward = T_W_C.rotate(Vector3(0, 0, 1))
            forward.z = 0
            if forward.norm < 1e-6 {  // looking straight down/up: use the image's up direction
                forward = T_W_C.rotate(Vector3(0, -1, 0))
                forward.z = 0
            }
            let zA = -forward.normalized
            let xA = up.cross(zA).normalized
            let R_W_A = Matrix3(columns: xA, up, zA)
            return RigidTransform(rotationMatrix: R_W_A, translation: T_W_C.translation).inverse
        }
    }
}

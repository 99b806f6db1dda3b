import Foundation
import ParallaxMath

/// What the compositor needs to know about the AR camera of one frame: its pose
/// (`Camera.transform` = `T_A_Car`, AR world y up, camera looking down −z) and the pinhole
/// intrinsics of the *undistorted* captured image (as ARKit reports `Camera.intrinsics`).
public struct ARCameraGeometry: Sendable, Equatable {
    /// `T_A_Car`: AR camera (x right, y up, z backward) into the AR world.
    public var transform: RigidTransform
    /// Focal lengths and principal point in pixels of the undistorted image (OpenCV pixel
    /// centres at integers).
    public var fx: Double, fy: Double, cx: Double, cy: Double
    /// Size of the undistorted captured image.
    public var width: Int, height: Int

    /// Creates the geometry.
    public init(transform: RigidTransform, fx: Double, fy: Double, cx: Double, cy: Double, width: Int, height: Int) {
        self.transform = transform; self.fx = fx; self.fy = fy; self.cx = cx; self.cy = cy
        self.width = width; self.height = height
    }

    /// `R_Ccv_Car = diag(1, −1, −1)` (conventions.md).
    static let flip = Matrix3(diagonal: Vector3(1, -1, -1))

    /// Builds `T_A_Car` from the OpenCV camera pose in the AR world (`T_A_Ccv`).
    public static func transform(fromOpenCV T_A_Ccv: RigidTransform) -> RigidTransform {
        RigidTransform(matrix: Matrix4(rotation: T_A_Ccv.rotation.rotationMatrix * flip, translation: T_A_Ccv.translation))
    }

    /// The OpenCV camera pose `T_A_Ccv`.
    public var openCVPose: RigidTransform {
        RigidTransform(matrix: Matrix4(rotation: transform.rotation.rotationMatrix * Self.flip, translation: transform.translation))
    }

    /// Pixel (OpenCV centres) of the AR-world point `p`, nil behind the camera.
    public func project(_ p: Vector3) -> Vector2? {
        let q = openCVPose.inverse * p
        guard q.z > 1e-6 else { return nil }
        return Vector2(fx * q.x / q.z + cx, fy * q.y / q.z + cy)
    }

    /// OpenGL projection (column-major, right-handed, NDC z in [−1, 1]) consistent with the
    /// intrinsics, for a viewport of `viewportWidth × viewportHeight` showing the image
    /// aspect-filled (scaled to cover, centred, the overflow cropped — ARKit's `displayTransform`
    /// behaviour). With u = fx·x/z + cx: NDC_x = 2(u + ½)/W − 1 and NDC_y = 1 − 2(v + ½)/H for the
    /// full image; the crop scales NDC by (sW/W_v, sH/H_v) with s = max(W_v/W, H_v/H).
    public func projectionMatrix(viewportWidth: Int, viewportHeight: Int, zNear: Double, zFar: Double) -> Matrix4f {
        let W = Double(width), H = Double(height)
        let s = max(Double(viewportWidth) / W, Double(viewportHeight) / H)
        let kx = s * W / Double(viewportWidth), ky = s * H / Double(viewportHeight)
        let n = zNear, f = zFar
        return Matrix4f(
            columns: Vector4f(Float(kx * 2 * fx / W), 0, 0, 0),
            Vector4f(0, Float(ky * 2 * fy / H), 0, 0),
            Vector4f(Float(kx * (1 - 2 * (cx + 0.5) / W)), Float(ky * (2 * (cy + 0.5) / H - 1)),
                     Float(-(f + n) / (f - n)), -1),
            Vector4f(0, 0, Float(-2 * f * n / (f - n)), 0))
    }

    /// The view matrix (inverse of `transform`), single precision.
    public var viewMatrix: Matrix4f { transform.inverse.matrix.float }
}

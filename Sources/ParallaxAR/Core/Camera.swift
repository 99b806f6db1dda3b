import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxTracking

/// Pixel size of the captured image.
public struct ImageResolution: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Creates a resolution.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The camera of one frame (`ARCamera`).
///
/// **Numbers**: all matrices are `Double` (``Matrix4``, ``Matrix3``) to keep sub-millimetre
/// precision in plane fitting and hit tests; use `.float` for rendering (``Matrix4f``).
///
/// **Frames** (conventions.md): ``transform`` is `T_A_Car`, the AR camera (x right, y up, looks
/// down −z) in the AR world (y up): `T_A_W · T_W_B · T_B_Ccv · diag(1, −1, −1, 1)`.
///
/// **Image**: ``intrinsics`` is the pinhole part of the dataset calibration (fx, fy, cx, cy,
/// OpenCV pixel centres at integers). ``Frame/capturedImage`` is undistorted to exactly these
/// intrinsics unless ``WorldTrackingConfiguration/undistortsCapturedImage`` is false; then the raw
/// image relates to them through ``distortion``.
///
/// **Orientation**: Linux has no `UIInterfaceOrientation`; every method works in the captured
/// image's own (landscape, sensor) orientation.
public struct Camera: Sendable {
    /// `T_A_Car`: camera pose in the AR world.
    public var transform: Matrix4
    /// Tracking quality when the frame was captured.
    public var trackingState: TrackingState
    /// Pinhole intrinsics `[fx 0 cx; 0 fy cy; 0 0 1]` of the (undistorted) captured image, pixels.
    public var intrinsics: Matrix3
    /// Size of the captured image.
    public var imageResolution: ImageResolution
    /// The lens distortion of the raw dataset image (informational once the image is undistorted).
    public var distortion: DistortionModel

    /// Creates a camera.
    public init(transform: Matrix4, trackingState: TrackingState, intrinsics: Matrix3,
                imageResolution: ImageResolution, distortion: DistortionModel) {
        self.transform = transform
        self.trackingState = trackingState
        self.intrinsics = intrinsics
        self.imageResolution = imageResolution
        self.distortion = distortion
    }

    /// The flip between the OpenCV camera (y down, z forward) and the AR camera (y up, z back).
    public static let R_cv_ar = Matrix3(diagonal: Vector3(1, -1, -1))

    /// Focal lengths and principal point.
    public var fx: Double { intrinsics[0, 0] }
    /// Focal length along y (pixels).
    public var fy: Double { intrinsics[1, 1] }
    /// Principal point x (pixels).
    public var cx: Double { intrinsics[0, 2] }
    /// Principal point y (pixels).
    public var cy: Double { intrinsics[1, 2] }

    /// Camera position in the AR world.
    public var position: Vector3 { transform.column(3).xyz }
    /// `T_A_Car` as a rigid transform.
    public var pose: RigidTransform { RigidTransform(matrix: transform) }
    /// `T_A_Ccv`: the OpenCV camera in the AR world.
    public var poseOpenCV: RigidTransform {
        RigidTransform(matrix: transform) * RigidTransform(rotationMatrix: Self.R_cv_ar, translation: .zero)
    }

    /// `viewMatrix` = `transform⁻¹` (AR world → AR camera), as ARKit's `viewMatrix(for:)`.
    public var viewMatrix: Matrix4 { RigidTransform(matrix: transform).inverse.matrix }

    /// Euler angles (pitch, yaw, roll) of ``transform``'s rotation, ARKit's order
    /// (`R = Ry(yaw) · Rx(pitch) · Rz(roll)`), as a vector `(pitch, yaw, roll)`.
    public var eulerAngles: Vector3 {
        let e = Quaternion(rotationMatrix: transform.upperLeft3x3).eulerAnglesARKit
        return Vector3(e.pitch, e.yaw, e.roll)
    }

    /// OpenGL clip-space projection (column-major semantics, right-handed, NDC z ∈ [−1, 1])
    /// consistent with ``intrinsics``, for a viewport of `viewportSize` (width, height) that shows
    /// the captured image **aspect-filled** (scaled to cover, centred, the excess cropped), as
    /// ARKit does. With `viewportSize` equal to the image size the mapping is exact:
    /// pixel `u` ↦ NDC `2(u + 0.5)/width − 1`, `v` ↦ `1 − 2(v + 0.5)/height`.
    public func projectionMatrix(viewportSize: Vector2, zNear: Double, zFar: Double) -> Matrix4 {
        let w = Double(imageResolution.width), h = Double(imageResolution.height)
        let s = max(viewportSize.x / w, viewportSize.y / h)
        let sx = s * w / viewportSize.x, sy = s * h / viewportSize.y
        // From u = fx·x/(−z) + cx and v = fy·y/z + cy (AR camera coordinates) — see the docs above.
        return Matrix4(rowMajor: [
            2 * sx * fx / w, 0, -sx * (2 * (cx + 0.5) / w - 1), 0,
            0, 2 * sy * fy / h, sy * (2 * (cy + 0.5) / h - 1), 0,
            0, 0, -(zFar + zNear) / (zFar - zNear), -2 * zFar * zNear / (zFar - zNear),
            0, 0, -1, 0,
        ])
    }

    /// Projection for a viewport the size of the captured image.
    public func projectionMatrix(zNear: Double = 0.001, zFar: Double = 1000) -> Matrix4 {
        projectionMatrix(viewportSize: Vector2(Double(imageResolution.width), Double(imageResolution.height)),
                         zNear: zNear, zFar: zFar)
    }

    /// Projects an AR-world point to pixel coordinates of the (undistorted) captured image
    /// (OpenCV centres); nil when the point is behind the camera.
    public func projectPoint(_ p: Vector3) -> Vector2? {
        let c = poseOpenCV.inverse * p
        guard c.z > 1e-9 else { return nil }
        return Vector2(fx * c.x / c.z + cx, fy * c.y / c.z + cy)
    }

    /// Projects an AR-world point to a normalised image point ((0,0) top-left, (1,1) bottom-right).
    public func projectNormalized(_ p: Vector3) -> Vector2? {
        projectPoint(p).map(normalizedPoint(pixel:))
    }

    /// Pixel (OpenCV centres) → normalised image point: `x = (u + 0.5)/width`.
    public func normalizedPoint(pixel: Vector2) -> Vector2 {
        Vector2((pixel.x + 0.5) / Double(imageResolution.width), (pixel.y + 0.5) / Double(imageResolution.height))
    }

    /// Normalised image point → pixel: `u = x·width − 0.5`.
    public func pixel(normalized p: Vector2) -> Vector2 {
        Vector2(p.x * Double(imageResolution.width) - 0.5, p.y * Double(imageResolution.height) - 0.5)
    }

    /// The viewing ray through a normalised image point: origin (camera centre) and unit direction,
    /// both in the AR world.
    public func ray(throughNormalized point: Vector2) -> (origin: Vector3, direction: Vector3) {
        let uv = pixel(normalized: point)
        let dCv = Vector3((uv.x - cx) / fx, (uv.y - cy) / fy, 1).normalized
        let T = poseOpenCV
        return (T.translation, T.rotate(dCv))
    }

    /// Intersects the ray through a normalised image point with the x–z plane of
    /// `planeTransform` (an anchor's `T_A_plane`, y = normal) and returns the AR-world point, or
    /// nil when the ray is parallel to the plane or the plane is behind the camera
    /// (`ARCamera.unprojectPoint(_:ontoPlane:orientation:viewportSize:)`, in image coordinates).
    public func unprojectPoint(_ point: Vector2, ontoPlane planeTransform: Matrix4) -> Vector3? {
        let (o, d) = ray(throughNormalized: point)
        let n = planeTransform.column(1).xyz.normalized, p0 = planeTransform.column(3).xyz
        let denom = d.dot(n)
        guard abs(denom) > 1e-12 else { return nil }
        let t = (p0 - o).dot(n) / denom
        guard t > 0 else { return nil }
        return o + d * t
    }
}

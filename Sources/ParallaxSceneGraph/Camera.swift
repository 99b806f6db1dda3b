import Foundation
import ParallaxMath

/// A camera attached to a node (SceneKit's `SCNCamera`). It looks down the node's -z axis with
/// +y up; the view matrix is the inverse of the node's world transform.
public struct Camera: Sendable {
    /// Optional name.
    public var name: String?
    /// Vertical field of view in degrees (perspective).
    public var fieldOfView: Float = 60
    /// Near clipping distance, metres.
    public var zNear: Float = 0.05
    /// Far clipping distance, metres.
    public var zFar: Float = 100
    /// Use an orthographic projection instead of a perspective one.
    public var usesOrthographicProjection = false
    /// Orthographic: half of the visible height, metres.
    public var orthographicScale: Float = 1
    /// An explicit projection (e.g. the AR compositor's, from camera intrinsics); overrides
    /// every other setting when set.
    public var projectionTransform: Matrix4f?

    /// Creates a perspective camera.
    public init(fieldOfView: Float = 60, zNear: Float = 0.05, zFar: Float = 100) {
        self.fieldOfView = fieldOfView; self.zNear = zNear; self.zFar = zFar
    }

    /// The OpenGL clip-space projection for a viewport of `aspect` = width / height.
    public func projectionMatrix(aspect: Float) -> Matrix4f {
        if let projectionTransform { return projectionTransform }
        if usesOrthographicProjection {
            let h = orthographicScale, w = h * aspect
            return .orthographic(left: -w, right: w, bottom: -h, top: h, near: zNear, far: zFar)
        }
        return .perspective(fovY: fieldOfView * .pi / 180, aspect: aspect, near: zNear, far: zFar)
    }

    /// The view matrix (world → camera) for a camera node with world transform `T_world_camera`.
    public static func viewMatrix(cameraWorldTransform t: Matrix4f) -> Matrix4f { t.inverse ?? .identity }
}

extension Node {
    /// The view matrix of this node seen as a camera: the inverse of its world transform.
    public var viewMatrix: Matrix4f { Camera.viewMatrix(cameraWorldTransform: worldTransform) }
}

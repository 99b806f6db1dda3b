import Foundation
import ParallaxAR
import ParallaxImaging
import ParallaxMath
import ParallaxVision

extension ARRenderAnchor {
    /// The compositor's view of a session anchor (plane anchors keep their boundary polygon).
    public init(_ anchor: any Anchor) {
        let polygon = (anchor as? PlaneAnchor)?.geometry.boundaryVertices
        self.init(identifier: anchor.identifier, name: anchor.name, transform: anchor.transform, planePolygon: polygon)
    }
}

extension ARRenderLight {
    /// The compositor's light from a session light estimate.
    public init(_ e: LightEstimate) {
        self.init(ambientIntensity: e.ambientIntensity, ambientColorTemperature: e.ambientColorTemperature,
                  primaryLightDirection: e.primaryLightDirection, primaryLightIntensity: e.primaryLightIntensity)
    }
}

extension ARCameraGeometry {
    /// Pose and intrinsics of a session camera (`Camera.transform`, `Camera.intrinsics`).
    public init(_ camera: ParallaxAR.Camera) {
        self.init(transform: camera.pose, fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy,
                  width: camera.imageResolution.width, height: camera.imageResolution.height)
    }
}

extension ARRenderFrame {
    /// The compositor's frame from a session frame. Pass the calibration's `lens` when the
    /// session was configured *not* to undistort captured images (`undistortsCapturedImage =
    /// false`); by default frames are already undistorted and `Camera.intrinsics` describe them.
    public init(_ frame: Frame, lens: (any CameraModel)? = nil) {
        self.init(capturedImage: frame.capturedImage, lens: lens, camera: ARCameraGeometry(frame.camera),
                  anchors: frame.anchors.map { ARRenderAnchor($0) }, light: frame.lightEstimate.map { ARRenderLight($0) },
                  featurePoints: frame.rawFeaturePoints?.points ?? [])
    }
}

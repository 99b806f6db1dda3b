import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

extension CameraRenderer {
    /// Warps several wide renders of one frame (``ShutterSampling/renderTimes`` order) into the
    /// distorted image, each row blending the renders with its ``ShutterSampling/rowWeights``;
    /// then gain, noise and 8-bit rounding as in ``warp(wide:gain:noiseSigma:random:)``.
    public func warp(wides: [[Float]], sampling: ShutterSampling, gain: Float, noiseSigma: Float,
                     random: inout SeededRandom) -> GrayImage {
        let w = lens.calibration.width, h = lens.calibration.height
        precondition(sampling.rowWeights.count == h && wides.count == sampling.renderTimes.count,
                     "sampling made for \(sampling.rowWeights.count) rows and \(sampling.renderTimes.count) renders")
        var out = GrayImage(width: w, height: h, fill: 0)
        for v in 0..<h {
            let weights = sampling.rowWeights[v]
            for u in 0..<w {
                let i = v * w + u
                var value: Float = 0
                for share in weights { value += share.weight * sample(wides[share.render], pixel: i) }
                out.pixels[i] = Self.quantise(value, gain: gain, noiseSigma: noiseSigma, random: &random)
            }
        }
        return out
    }

    /// Renders and warps one frame seen along `pose(t)` (the camera's pose in the z-up world at
    /// IMU-clock time `t`) with the exposure and readout of `sampling`. One render takes the
    /// original single-render path, so effect-free frames are unchanged bit for bit.
    func renderFrame(
        sampling: ShutterSampling, pose: (Double) -> RigidTransform, scene: Scene, cameraNode: Node,
        renderer: OffscreenRenderer, alignment: SceneAlignment, gain: Float, noiseSigma: Float, random: inout SeededRandom
    ) throws -> GrayImage {
        let wides = try sampling.renderTimes.map {
            try renderWide(scene: scene, cameraNode: cameraNode, renderer: renderer, alignment: alignment, T_world_camera: pose($0))
        }
        if wides.count == 1 { return warp(wide: wides[0], gain: gain, noiseSigma: noiseSigma, random: &random) }
        return warp(wides: wides, sampling: sampling, gain: gain, noiseSigma: noiseSigma, random: &random)
    }

    /// An upper estimate of image motion (px/s) for a camera turning at `angularSpeed` (rad/s)
    /// and moving at `speed` (m/s), taking scene points no nearer than `nearestDepth` metres
    /// and allowing for the lens's largest magnification (wide render focal length × 1.5).
    func pixelSpeed(angularSpeed: Double, speed: Double, nearestDepth: Double = 0.5) -> Double {
        1.5 * wideFocal * (angularSpeed + speed / nearestDepth)
    }
}

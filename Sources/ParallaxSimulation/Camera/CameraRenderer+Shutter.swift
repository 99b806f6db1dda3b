import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

extension CameraRenderer {
    /// Rows `top ..< top + rows` of a wide render: a band of the wide image.
    public struct WideBand: Sendable {
        /// First wide-image row.
        public var top: Int
        /// Grey levels, row-major, `wideSize.width` per row.
        public var pixels: [Float]
    }

    /// The band of wide-image rows that the output rows `rows` sample, with its top rounded
    /// down to a multiple of 8 and its height up to a multiple of 32 (fewer distinct render-target
    /// sizes), or nil when those rows see nothing.
    func wideBand(forOutputRows rows: ClosedRange<Int>) -> (top: Int, height: Int)? {
        guard let (lo, hi) = wideRowSpan(of: rows) else { return nil }
        let top = lo / 8 * 8
        let height = min((hi - top + 1 + 31) / 32 * 32, wideSize.height - top)
        return (top, height)
    }

    /// The first and last wide-image row that output rows `rows` sample, nil when they see nothing.
    func wideRowSpan<R: RangeExpression<Int>>(of rows: R) -> (first: Int, last: Int)? {
        let spans = wideRowsOfRow[rows].compactMap { $0 }
        guard let lo = spans.map(\.lowerBound).min(), let hi = spans.map(\.upperBound).max() else { return nil }
        return (lo, hi)
    }

    /// Warps several wide renders of one frame (``ShutterSampling/renderTimes`` order, each a
    /// band holding the rows that use it) into the distorted image, each row blending the renders
    /// with its ``ShutterSampling/rowWeights``; then gain, noise and 8-bit rounding as in
    /// ``warp(wide:gain:noiseSigma:random:)``.
    public func warp(bands: [WideBand], sampling: ShutterSampling, gain: Float, noiseSigma: Float,
                     random: inout SeededRandom) -> GrayImage {
        let w = lens.calibration.width, h = lens.calibration.height
        precondition(sampling.rowWeights.count == h && bands.count == sampling.renderTimes.count,
                     "sampling made for \(sampling.rowWeights.count) rows and \(sampling.renderTimes.count) renders")
        var out = GrayImage(width: w, height: h, fill: 0)
        for v in 0..<h {
            let weights = sampling.rowWeights[v]
            for u in 0..<w {
                let i = v * w + u
                var value: Float = 0
                for share in weights {
                    let band = bands[share.render]
                    value += share.weight * sample(band.pixels, top: band.top, pixel: i)
                }
                out.pixels[i] = Self.quantise(value, gain: gain, noiseSigma: noiseSigma, random: &random)
            }
        }
        return out
    }

    /// Renders and warps one frame seen along `pose(t)` (the camera's pose in the z-up world at
    /// IMU-clock time `t`) with the exposure and readout of `sampling`. One render takes the
    /// original single-render path, so effect-free frames are unchanged bit for bit. With several,
    /// each render covers only the band of rows that use it (a rolling shutter's renders are
    /// strips), which keeps the cost near one full render per readout-and-exposure span.
    func renderFrame(
        sampling: ShutterSampling, pose: (Double) -> RigidTransform, scene: Scene, cameraNode: Node,
        renderer: OffscreenRenderer, alignment: SceneAlignment, gain: Float, noiseSigma: Float, random: inout SeededRandom
    ) throws -> GrayImage {
        if sampling.renderTimes.count == 1 {
            let wide = try renderWide(scene: scene, cameraNode: cameraNode, renderer: renderer, alignment: alignment,
                                      T_world_camera: pose(sampling.renderTimes[0]))
            return warp(wide: wide, gain: gain, noiseSigma: noiseSigma, random: &random)
        }
        let bands = try sampling.renderTimes.indices.map { j -> WideBand in
            guard let rows = sampling.rowsUsing(render: j), let band = wideBand(forOutputRows: rows) else {
                return WideBand(top: 0, pixels: [])
            }
            let pixels = try renderWide(scene: scene, cameraNode: cameraNode, renderer: renderer, alignment: alignment,
                                        T_world_camera: pose(sampling.renderTimes[j]), top: band.top, height: band.height)
            return WideBand(top: band.top, pixels: pixels)
        }
        return warp(bands: bands, sampling: sampling, gain: gain, noiseSigma: noiseSigma, random: &random)
    }

    /// Renders one frame whose middle row's exposure is centred on `time` with `effects`' readout
    /// and shutter method, and `exposure` (auto-exposure may change it frame to frame); the body
    /// turns at `angularSpeed` (rad/s) and moves at `speed` (m/s). Returns the image and the
    /// number of renders it took.
    func renderFrame(
        time: Double, exposure: Double, effects: SensorEffects, angularSpeed: Double, speed: Double,
        pose: (Double) -> RigidTransform, scene: Scene, cameraNode: Node, renderer: OffscreenRenderer,
        alignment: SceneAlignment, gain: Float, noiseSigma: Float, random: inout SeededRandom
    ) throws -> (image: GrayImage, renders: Int) {
        let rows = lens.calibration.height, readout = effects.rollingShutterReadout
        let speedBound = pixelSpeed(angularSpeed: angularSpeed, speed: speed)
        if effects.shutterMethod == .reprojection, exposure > 0 || readout > 0 {
            let plan = ReprojectionPlan(
                time: time, exposure: exposure, readout: readout, rows: rows, pixelSpeed: speedBound,
                translationPixelSpeed: pixelSpeed(angularSpeed: 0, speed: speed), parallaxPerRender: effects.parallaxPerRender,
                maxRenders: effects.maxRendersPerFrame)
            let image = try renderFrameReprojected(plan: plan, pose: pose, scene: scene, cameraNode: cameraNode, renderer: renderer,
                                                   alignment: alignment, gain: gain, noiseSigma: noiseSigma, random: &random)
            return (image, plan.groups.count)
        }
        let sampling = ShutterSampling(time: time, exposure: exposure, readout: readout, rows: rows, pixelSpeed: speedBound,
                                       pixelsPerRender: effects.pixelsPerRender, maxRenders: effects.maxRendersPerFrame)
        let image = try renderFrame(sampling: sampling, pose: pose, scene: scene, cameraNode: cameraNode, renderer: renderer,
                                    alignment: alignment, gain: gain, noiseSigma: noiseSigma, random: &random)
        return (image, sampling.renderTimes.count)
    }

    /// An upper estimate of image motion (px/s) for a camera turning at `angularSpeed` (rad/s)
    /// and moving at `speed` (m/s), taking scene points no nearer than `nearestDepth` metres
    /// and allowing for the lens's largest magnification (wide render focal length × 1.5).
    func pixelSpeed(angularSpeed: Double, speed: Double, nearestDepth: Double = 1) -> Double {
        1.5 * wideFocal * (angularSpeed + speed / nearestDepth)
    }
}

import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

/// Renders distorted 8-bit grey camera images of a scene, as a real camera with the given
/// calibration would see it.
///
/// The renderer only knows ideal pinhole cameras, so each frame is rendered with a *wider*
/// undistorted pinhole camera (same focal length, enlarged to cover every ray of the distorted
/// image), then warped: for each output pixel the ray is undistorted, projected into the wide
/// image and sampled bilinearly. The per-pixel lookup is computed once.
public final class CameraRenderer {
    /// The camera being simulated.
    public let lens: LensModel
    /// The wide pinhole camera that is actually rendered: focal length and principal point (px).
    public let wideFocal: Double, wideCentre: Vector2
    /// Size of the wide rendering.
    public let wideSize: RenderSize
    /// Near and far clipping distances (m).
    public let zNear: Double = 0.05, zFar: Double = 100
    /// Per output pixel: where to sample the wide image (x, y interleaved), NaN when outside.
    let lookup: [Float]
    /// Per output row: the first and last row of the wide image its pixels sample (bilinear
    /// neighbours included), or nil when the row sees nothing.
    let wideRowsOfRow: [ClosedRange<Int>?]

    /// Prepares the warp for `calibration`. Normalised coordinates are clamped to ±3 (72°), so
    /// wide-angle fisheye lenses render their central field only.
    public init(calibration: CameraCalibration) throws {
        let model = LensModel(calibration)
        lens = model
        let w = calibration.width, h = calibration.height
        var lo = Vector2(Double.infinity, .infinity), hi = -lo
        func include(_ u: Double, _ v: Double) {
            let n = model.normalisedRay(u: u, v: v)
            lo = Vector2(min(lo.x, n.x), min(lo.y, n.y))
            hi = Vector2(max(hi.x, n.x), max(hi.y, n.y))
        }
        // The border of the image (plus half a pixel) bounds the undistorted field for the
        // monotonic lenses we model; sample it densely.
        for u in stride(from: -0.5, through: Double(w) - 0.5, by: 2) { include(u, -0.5); include(u, Double(h) - 0.5) }
        for v in stride(from: -0.5, through: Double(h) - 0.5, by: 2) { include(-0.5, v); include(Double(w) - 0.5, v) }
        lo = Vector2(max(lo.x, -3), max(lo.y, -3))
        hi = Vector2(min(hi.x, 3), min(hi.y, 3))
        let f = min(calibration.intrinsics.fu, calibration.intrinsics.fv)
        let margin = 3.0
        wideFocal = f
        wideCentre = Vector2(-lo.x * f + margin, -lo.y * f + margin)
        wideSize = try RenderSize(width: Int(((hi.x - lo.x) * f + 2 * margin).rounded(.up)),
                                  height: Int(((hi.y - lo.y) * f + 2 * margin).rounded(.up)))
        var table = [Float](repeating: .nan, count: w * h * 2)
        for v in 0..<h {
            for u in 0..<w {
                let n = model.normalisedRay(u: Double(u), v: Double(v))
                let x = f * n.x + wideCentre.x, y = f * n.y + wideCentre.y
                if x >= 0, y >= 0, x <= Double(wideSize.width - 1), y <= Double(wideSize.height - 1) {
                    table[2 * (v * w + u)] = Float(x)
                    table[2 * (v * w + u) + 1] = Float(y)
                }
            }
        }
        lookup = table
        let wideHeight = wideSize.height
        wideRowsOfRow = (0..<h).map { v in
            let ys = (0..<w).map { table[2 * (v * w + $0) + 1] }.filter { !$0.isNaN }
            guard let lo = ys.min(), let hi = ys.max() else { return nil }
            return min(Int(lo), wideHeight - 2)...min(Int(hi) + 1, wideHeight - 1)
        }
    }

    /// The OpenGL projection matrix of the wide pinhole camera (column-major, NDC z in [−1, 1]).
    /// With OpenCV pixel centres at integers, NDC x = 2(u + ½)/W − 1 and NDC y = 1 − 2(v + ½)/H
    /// for u = f·x/z + c_x, v = f·y/z + c_y, and the GL camera looking down −z with y up.
    public var projectionMatrix: Matrix4f { projectionMatrix(top: 0, height: wideSize.height) }

    /// The projection of the band of `height` wide-image rows starting at row `top` (same
    /// camera, principal point moved up by `top`), for rendering part of the wide image.
    func projectionMatrix(top: Int, height: Int) -> Matrix4f {
        projectionMatrix(left: 0, top: top, width: wideSize.width, height: height)
    }

    /// The projection of the `width` × `height` window of the wide image whose top-left pixel is
    /// (`left`, `top`); the window may reach past the wide image (negative `left` or `top`).
    func projectionMatrix(left: Int, top: Int, width: Int, height: Int) -> Matrix4f {
        let W = Double(width), H = Double(height)
        let f = wideFocal
        let n = zNear, fa = zFar
        let cx = wideCentre.x - Double(left), cy = wideCentre.y - Double(top)
        return Matrix4f(
            columns: Vector4f(Float(2 * f / W), 0, 0, 0),
            Vector4f(0, Float(2 * f / H), 0, 0),
            Vector4f(Float(1 - 2 * (cx + 0.5) / W), Float(2 * (cy + 0.5) / H - 1),
                     Float(-(fa + n) / (fa - n)), -1),
            Vector4f(0, 0, Float(-2 * fa * n / (fa - n)), 0))
    }

    /// Converts a rendered RGBA (sRGB) wide image to grey (Rec. 601 luma) in 0…255.
    public static func luma(_ image: RGBAImage) -> [Float] {
        image.pixels.map { 0.299 * Float($0.r) + 0.587 * Float($0.g) + 0.114 * Float($0.b) }
    }

    /// Warps a wide grey image (``luma(_:)``) into the distorted camera image, applying
    /// `gain` (exposure) and Gaussian noise of `noiseSigma` grey levels, then rounding to 8 bits.
    public func warp(wide: [Float], gain: Float, noiseSigma: Float, random: inout SeededRandom) -> GrayImage {
        let w = lens.calibration.width, h = lens.calibration.height
        var out = GrayImage(width: w, height: h, fill: 0)
        for i in 0..<(w * h) {
            let value = sample(wide, pixel: i)
            out.pixels[i] = Self.quantise(value, gain: gain, noiseSigma: noiseSigma, random: &random)
        }
        return out
    }

    /// Mean grey level of `image` over the pixels the lens sees, as an auto-exposure meters it: a
    /// fisheye's corners beyond the rendered field stay black and are left out (counted, they made
    /// the loop aim a TUM-VI-like 512 × 512 image 28 % brighter, and a bright turn saturated 70 % of
    /// it for a second). Every pixel of a pinhole or radial–tangential image counts.
    public func meteredMean(_ image: GrayImage) -> Double {
        var sum = 0.0, count = 0
        for i in image.pixels.indices where i < lookup.count / 2 && !lookup[2 * i].isNaN {
            sum += Double(image.pixels[i])
            count += 1
        }
        return sum / Double(max(count, 1))
    }

    /// The wide image bilinearly sampled where output pixel `i` (row-major) looks; 0 outside.
    /// `wide` may be a band of the wide image starting at row `top`.
    @inline(__always)
    func sample(_ wide: [Float], top: Int = 0, pixel i: Int) -> Float {
        let x = lookup[2 * i], y = lookup[2 * i + 1]
        guard !x.isNaN else { return 0 }
        let ww = wideSize.width
        let x0 = min(Int(x), wideSize.width - 2), y0 = min(Int(y), wideSize.height - 2)
        let fx = x - Float(x0), fy = y - Float(y0)
        let r0 = (y0 - top) * ww, r1 = r0 + ww
        let a = wide[r0 + x0], b = wide[r0 + x0 + 1]
        let c = wide[r1 + x0], d = wide[r1 + x0 + 1]
        return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
    }

    /// Applies the gain, adds noise (one Gaussian draw per pixel when `noiseSigma > 0`) and
    /// rounds to 8 bits.
    @inline(__always)
    static func quantise(_ value: Float, gain: Float, noiseSigma: Float, random: inout SeededRandom) -> UInt8 {
        var value = value
        if noiseSigma > 0 { value = value * gain + noiseSigma * Float(random.gaussian()) } else { value *= gain }
        return UInt8(max(0, min(255, value.rounded())))
    }

    /// Renders the scene seen from `T_world_camera` (OpenCV camera in the z-up world) and returns
    /// the wide grey image (for ``warp(wide:gain:noiseSigma:random:)``).
    public func renderWide(
        scene: Scene, cameraNode: Node, renderer: OffscreenRenderer, alignment: SceneAlignment, T_world_camera: RigidTransform
    ) throws -> [Float] {
        try renderWide(scene: scene, cameraNode: cameraNode, renderer: renderer, alignment: alignment,
                       T_world_camera: T_world_camera, top: 0, height: wideSize.height)
    }

    /// Renders rows `top ..< top + height` of the wide image only (see ``renderWide(scene:cameraNode:renderer:alignment:T_world_camera:)``).
    func renderWide(
        scene: Scene, cameraNode: Node, renderer: OffscreenRenderer, alignment: SceneAlignment, T_world_camera: RigidTransform,
        top: Int, height: Int
    ) throws -> [Float] {
        place(cameraNode, alignment: alignment, T_world_camera: T_world_camera,
              projection: projectionMatrix(top: top, height: height))
        let size = try RenderSize(width: wideSize.width, height: height)
        return Self.luma(try renderer.render(scene: scene, camera: cameraNode, size: size))
    }

    /// Puts `cameraNode` at `T_world_camera` (OpenCV camera in the z-up world) with `projection`.
    func place(_ cameraNode: Node, alignment: SceneAlignment, T_world_camera: RigidTransform, projection: Matrix4f) {
        let pose = alignment.glCameraPose(T_world_camera: T_world_camera)
        cameraNode.position = pose.translation.float
        cameraNode.orientation = Quaternionf(pose.rotation)
        var camera = cameraNode.camera ?? ParallaxSceneGraph.Camera()
        camera.zNear = Float(zNear)
        camera.zFar = Float(zFar)
        camera.projectionTransform = projection
        cameraNode.camera = camera
    }
}

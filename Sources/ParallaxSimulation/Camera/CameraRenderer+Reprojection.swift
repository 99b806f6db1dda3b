import Dispatch
import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxRendering
import ParallaxSceneGraph

extension CameraRenderer {
    /// One group's render: grey levels and the distance along the view axis (m) per pixel, over a
    /// window of the wide image that may reach past it.
    struct DepthRender {
        /// Wide-image coordinates of the window's top-left pixel.
        var left: Int, top: Int
        /// Window size.
        var width: Int, height: Int
        /// Grey levels, row-major.
        var luma: [Float]
        /// View-axis distance (m), row-major.
        var depth: [Float]
    }

    /// The wide-image window that `group`'s rows sample, widened by its margin on every side
    /// (margins rounded up to 16 px and the height to 32 rows: fewer distinct render-target
    /// sizes), or nil when those rows see nothing.
    func window(for group: ReprojectionPlan.Group) -> (left: Int, top: Int, width: Int, height: Int)? {
        guard let (lo, hi) = wideRowSpan(of: group.rows) else { return nil }
        let margin = (group.margin + 15) / 16 * 16
        let top = lo - margin
        let height = (hi + margin - top + 1 + 31) / 32 * 32
        return (-margin, top, wideSize.width + 2 * margin, height)
    }

    /// Renders `window` seen from `T_world_camera`, with depth.
    func renderWithDepth(
        scene: Scene, cameraNode: Node, renderer: OffscreenRenderer, alignment: SceneAlignment, T_world_camera: RigidTransform,
        window: (left: Int, top: Int, width: Int, height: Int)
    ) throws -> DepthRender {
        place(cameraNode, alignment: alignment, T_world_camera: T_world_camera,
              projection: projectionMatrix(left: window.left, top: window.top, width: window.width, height: window.height))
        let rendered = try renderer.renderWithDepth(scene: scene, camera: cameraNode,
                                                    size: try RenderSize(width: window.width, height: window.height))
        // Window depth d to view-axis distance: 2fn / ((f + n) − (2d − 1)(f − n)).
        let n = Float(zNear), f = Float(zFar)
        let depth = rendered.depth.map { 2 * f * n / ((f + n) - (2 * $0 - 1) * (f - n)) }
        return DepthRender(left: window.left, top: window.top, width: window.width, height: window.height,
                           luma: Self.luma(rendered.image), depth: depth)
    }

    /// Renders one frame with ``ShutterMethod/reprojection``: one render with depth per group of
    /// `plan`, then each pixel's exposure gathered from its group's render (see
    /// ``ReprojectionPlan``). Gain, noise and 8-bit rounding as in ``warp(wide:gain:noiseSigma:random:)``.
    func renderFrameReprojected(
        plan: ReprojectionPlan, pose: (Double) -> RigidTransform, scene: Scene, cameraNode: Node,
        renderer: OffscreenRenderer, alignment: SceneAlignment, gain: Float, noiseSigma: Float, random: inout SeededRandom
    ) throws -> GrayImage {
        let w = lens.calibration.width, h = lens.calibration.height
        precondition(plan.rowTimes.count == h, "plan made for \(plan.rowTimes.count) rows, image has \(h)")
        var values = [Float](repeating: 0, count: w * h)
        let instants = plan.pathPieces + 1
        for group in plan.groups {
            guard let window = window(for: group) else { continue }
            let T_world_render = pose(group.time)
            let render = try renderWithDepth(scene: scene, cameraNode: cameraNode, renderer: renderer, alignment: alignment,
                                             T_world_camera: T_world_render, window: window)
            // Per row and path instant: the row's camera in the render's camera frame.
            let inverse = T_world_render.inverse
            let motions = group.rows.flatMap { v in
                (0..<instants).map { RowMotion(inverse * pose(plan.instant(row: v, piece: $0))) }
            }
            gather(rows: group.rows, instants: instants, motions: motions, render: render, into: &values)
        }
        var out = GrayImage(width: w, height: h, fill: 0)
        for i in 0..<(w * h) {
            out.pixels[i] = Self.quantise(values[i], gain: gain, noiseSigma: noiseSigma, random: &random)
        }
        return out
    }

    /// A row camera's pose in the render camera's frame, in single precision for the pixel loop.
    struct RowMotion {
        var r: SIMD16<Float>  // rotation, row-major in the first nine lanes
        var t: SIMD3<Float>
        var translates: Bool

        init(_ relative: RigidTransform) {
            // A non-finite pose (never from a validated trajectory) must not reach the pixel
            // loop's integer conversions: it samples the render as if nothing moved.
            let T = relative.isFinite ? relative : .identity
            let m = T.rotationMatrix
            r = SIMD16<Float>(repeating: 0)
            for i in 0..<3 { for j in 0..<3 { r[3 * i + j] = Float(m[i, j]) } }
            t = SIMD3<Float>(Float(T.translation.x), Float(T.translation.y), Float(T.translation.z))
            translates = T.translation.norm > 1e-9
        }
    }

    /// Fills `values` for `rows` from `render`: each pixel averages the render along its ray's
    /// path over the row's instants (`instants` per row in `motions`, row-major), the path taken
    /// straight between consecutive instants and sampled every half pixel.
    private func gather(rows: Range<Int>, instants: Int, motions: [RowMotion], render: DepthRender, into values: inout [Float]) {
        let w = lens.calibration.width
        let f = Float(wideFocal), cx = Float(wideCentre.x), cy = Float(wideCentre.y)
        // Principal point in the render window's pixels.
        let bx = cx - Float(render.left), by = cy - Float(render.top)
        let chunks = min(rows.count, 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        values.withUnsafeMutableBufferPointer { out in
            render.luma.withUnsafeBufferPointer { luma in
                render.depth.withUnsafeBufferPointer { depth in
                    lookup.withUnsafeBufferPointer { lookup in
                        motions.withUnsafeBufferPointer { motions in
                            // The chunks write disjoint rows of `out` and only read the rest.
                            let job = GatherJob(
                                image: WindowImage(luma: luma, depth: depth, width: render.width, height: render.height,
                                                   focal: f, cx: bx, cy: by, near: Float(zNear)),
                                lookup: lookup, motions: motions, out: out, width: w, instants: instants,
                                ray: (f, cx, cy))
                            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                                job.run(rows: (rows.lowerBound + chunk * rows.count / chunks)..<(rows.lowerBound + (chunk + 1) * rows.count / chunks),
                                        firstRow: rows.lowerBound)
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The per-pixel loop of one group, over buffers that outlive it (`@unchecked`: each call writes
/// only its own rows of `out`).
private struct GatherJob: @unchecked Sendable {
    let image: WindowImage
    let lookup: UnsafeBufferPointer<Float>
    let motions: UnsafeBufferPointer<CameraRenderer.RowMotion>
    let out: UnsafeMutableBufferPointer<Float>
    let width: Int, instants: Int
    /// The wide image's focal length and principal point, turning lookups into rays.
    let ray: (f: Float, cx: Float, cy: Float)

    func run(rows: Range<Int>, firstRow: Int) {
        var points = [SIMD2<Float>](repeating: .zero, count: instants)
        points.withUnsafeMutableBufferPointer { points in
            for v in rows {
                let rowMotions = (v - firstRow) * instants
                for u in 0..<width {
                    let i = v * width + u
                    let x = lookup[2 * i], y = lookup[2 * i + 1]
                    guard !x.isNaN else { out[i] = 0; continue }
                    let direction = SIMD3<Float>((x - ray.cx) / ray.f, (y - ray.cy) / ray.f, 1)
                    switch instants {
                    case 1:
                        out[i] = image.sample(image.reproject(direction, motions[rowMotions]))
                    case 2:
                        out[i] = image.average(from: image.reproject(direction, motions[rowMotions]),
                                               to: image.reproject(direction, motions[rowMotions + 1]))
                    default:
                        for s in 0..<instants { points[s] = image.reproject(direction, motions[rowMotions + s]) }
                        var total: Float = 0
                        for s in 1..<instants { total += image.average(from: points[s - 1], to: points[s]) }
                        out[i] = total / Float(instants - 1)
                    }
                }
            }
        }
    }
}

/// A render window seen as a pinhole camera with depth, for the per-pixel loop.
private struct WindowImage {
    let luma: UnsafeBufferPointer<Float>
    let depth: UnsafeBufferPointer<Float>
    let width: Int, height: Int
    let focal: Float, cx: Float, cy: Float
    let near: Float

    /// Where the surface seen along `ray` (a row camera's ray, z = 1) lies in this window, for the
    /// row camera at `motion` relative to the render's. Rotation maps the ray directly; translation
    /// needs the ray's depth, found as a fixed point: take the rendered depth where the point is
    /// believed to be, move the point along the ray to that surface's depth, reproject, repeat.
    @inline(__always)
    func reproject(_ ray: SIMD3<Float>, _ motion: CameraRenderer.RowMotion) -> SIMD2<Float> {
        let r = motion.r
        let q = SIMD3<Float>(r[0] * ray.x + r[1] * ray.y + r[2] * ray.z,
                             r[3] * ray.x + r[4] * ray.y + r[5] * ray.z,
                             r[6] * ray.x + r[7] * ray.y + r[8] * ray.z)
        guard q.z > 1e-4 else { return SIMD2(-1, -1) }
        var p = SIMD2<Float>(focal * q.x / q.z + cx, focal * q.y / q.z + cy)
        guard motion.translates else { return p }
        for _ in 0..<3 {
            let z = depthNear(p)
            // The rendered surface point at p, in the render camera.
            let surface = SIMD3<Float>((p.x - cx) / focal * z, (p.y - cy) / focal * z, z) - motion.t
            // Its distance along the row camera's view axis: the third row of Rᵀ is R's third column.
            let d = r[2] * surface.x + r[5] * surface.y + r[8] * surface.z
            guard d > near else { return p }
            let point = q * d + motion.t
            guard point.z > near else { return p }
            let next = SIMD2(focal * point.x / point.z + cx, focal * point.y / point.z + cy)
            let change = next - p
            p = next
            if (change * change).sum() < 1e-4 { break }
        }
        return p
    }

    @inline(__always)
    func depthNear(_ p: SIMD2<Float>) -> Float {
        // Clamped to the window first, so truncation rounds down.
        let x = Int(min(max(p.x + 0.5, 0), Float(width) - 0.5))
        let y = Int(min(max(p.y + 0.5, 0), Float(height) - 0.5))
        return depth[y * width + x]
    }

    /// Bilinear grey level at `p`, clamped to the window.
    @inline(__always)
    func sample(_ p: SIMD2<Float>) -> Float {
        let x = min(max(p.x, 0), Float(width) - 1.001), y = min(max(p.y, 0), Float(height) - 1.001)
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Float(x0), fy = y - Float(y0)
        let i = y0 * width + x0
        let a = luma[i], b = luma[i + 1], c = luma[i + width], d = luma[i + width + 1]
        return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
    }

    /// The mean grey level along the straight path from `a` to `b`, sampled at the middles of
    /// steps of at most half a pixel.
    @inline(__always)
    func average(from a: SIMD2<Float>, to b: SIMD2<Float>) -> Float {
        let step = b - a
        let length = (step * step).sum().squareRoot()
        let n = Int(min(length * 2, 4096)) + 1
        let delta = step / Float(n)
        var p = a + delta * 0.5
        var sum: Float = 0
        for _ in 0..<n {
            sum += sample(p)
            p += delta
        }
        return sum / Float(n)
    }
}

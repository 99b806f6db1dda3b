import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// Remaps raw (distorted) camera images onto an ideal pinhole camera, so that
/// ``Camera/intrinsics`` describes ``Frame/capturedImage`` exactly and AR content rendered with
/// those intrinsics lines up with the background.
///
/// For every output pixel (u, v) of the pinhole camera (fx, fy, cx, cy), the normalised ray
/// ((u − cx)/fx, (v − cy)/fy) is distorted with the lens model and mapped to the source pixel
/// (`K · d(K⁻¹ · u)`). The table depends only on the lens and the output camera, so it is computed
/// once; each frame then costs one bilinear lookup per pixel. Pixels whose source lies outside the
/// raw image are black.
public struct ImageUndistorter: Sendable {
    /// The lens of the captured images.
    public let lens: any CameraModel
    /// Output size and pinhole intrinsics.
    public let width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double
    /// Per output pixel: source x, y; -1 when the source lies outside the raw image.
    private let sourceX: [Float]
    private let sourceY: [Float]

    /// Prepares the remap from `lens` to a pinhole image with the given intrinsics (by default
    /// the lens's own K and size, as ARKit reports the intrinsics after undistortion).
    public init(lens: any CameraModel, width: Int? = nil, height: Int? = nil,
                fx: Double? = nil, fy: Double? = nil, cx: Double? = nil, cy: Double? = nil) {
        self.lens = lens
        let w = width ?? lens.width, h = height ?? lens.height
        self.width = w; self.height = h
        self.fx = fx ?? lens.fx; self.fy = fy ?? lens.fy; self.cx = cx ?? lens.cx; self.cy = cy ?? lens.cy
        var xs = [Float](repeating: -1, count: w * h), ys = xs
        for v in 0..<h {
            for u in 0..<w {
                let xn = Vector2((Double(u) - self.cx) / self.fx, (Double(v) - self.cy) / self.fy)
                let src = lens.distortToPixel(xn)
                if src.x.isFinite, src.y.isFinite, lens.contains(src) {
                    xs[v * w + u] = Float(src.x)
                    ys[v * w + u] = Float(src.y)
                }
            }
        }
        sourceX = xs
        sourceY = ys
    }

    /// Where output pixel (u, v) samples the source, nil outside.
    public func sourcePixel(u: Int, v: Int) -> Vector2? {
        let i = v * width + u
        return sourceX[i] < 0 ? nil : Vector2(Double(sourceX[i]), Double(sourceY[i]))
    }

    /// Undistorts a grey image of the lens's size (other sizes are returned unchanged).
    public func undistort(_ image: GrayImage) -> GrayImage {
        guard image.width == lens.width, image.height == lens.height, width == lens.width, height == lens.height
        else { return image }
        var out = GrayImage(width: width, height: height, fill: 0)
        for i in 0..<(width * height) {
            guard let s = bilinear(i, image.width, image.height) else { continue }
            out.pixels[i] = s.mix(image.pixels[s.i00], image.pixels[s.i10], image.pixels[s.i01], image.pixels[s.i11])
        }
        return out
    }

    /// Undistorts `image` (grey or colour) into an opaque RGBA image; pixels with no source are
    /// black. Interpolation is bilinear on the encoded values (as camera pipelines resample).
    public func undistort(_ image: AnyImage) -> RGBAImage {
        let src = image.toRGBA8()
        guard src.width == lens.width, src.height == lens.height else {
            // A differently sized image cannot use this table; scale the lookups instead.
            return undistortScaled(src)
        }
        var out = RGBAImage(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        for i in 0..<(width * height) {
            guard let s = bilinear(i, src.width, src.height) else { continue }
            let a = src.pixels[s.i00], b = src.pixels[s.i10], c = src.pixels[s.i01], d = src.pixels[s.i11]
            out.pixels[i] = RGBA8(r: s.mix(a.r, b.r, c.r, d.r), g: s.mix(a.g, b.g, c.g, d.g), b: s.mix(a.b, b.b, c.b, d.b), a: 255)
        }
        return out
    }

    /// The four source indices and weights of output pixel `i`, nil when it has no source.
    private func bilinear(_ i: Int, _ w: Int, _ h: Int) -> BilinearSample? {
        let x = sourceX[i], y = sourceY[i]
        guard x >= 0 else { return nil }
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
        return BilinearSample(i00: y0 * w + x0, i10: y0 * w + x1, i01: y1 * w + x0, i11: y1 * w + x1,
                              ax: x - Float(x0), ay: y - Float(y0))
    }

    /// Fallback for an image whose size differs from the lens calibration: nearest neighbour
    /// with the lookups scaled to the image.
    private func undistortScaled(_ src: RGBAImage) -> RGBAImage {
        var out = RGBAImage(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        let sx = Float(src.width) / Float(lens.width), sy = Float(src.height) / Float(lens.height)
        for i in 0..<(width * height) {
            let x = sourceX[i]
            guard x >= 0 else { continue }
            let xi = min(src.width - 1, max(0, Int(((x + 0.5) * sx - 0.5).rounded())))
            let yi = min(src.height - 1, max(0, Int(((sourceY[i] + 0.5) * sy - 0.5).rounded())))
            out.pixels[i] = src.pixels[yi * src.width + xi]
        }
        return out
    }
}

/// One bilinear lookup: the four neighbouring source pixels and the fractional offsets.
private struct BilinearSample {
    let i00: Int, i10: Int, i01: Int, i11: Int
    let ax: Float, ay: Float

    /// Interpolates one 8-bit channel from the values at the four neighbours, rounded and clamped.
    @inline(__always)
    func mix(_ pa: UInt8, _ pb: UInt8, _ pc: UInt8, _ pd: UInt8) -> UInt8 {
        let a = Float(pa), b = Float(pb), c = Float(pc), d = Float(pd)
        let top = a + ax * (b - a), bottom = c + ax * (d - c)
        return UInt8(max(0, min(255, (top + ay * (bottom - top)).rounded())))
    }
}

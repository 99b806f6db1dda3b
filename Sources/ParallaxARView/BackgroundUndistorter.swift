import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// Undistorts captured images into the ideal pinhole image that AR content is rendered for.
///
/// For every output pixel (u, v) of the pinhole camera (fx, fy, cx, cy), the normalised ray
/// ((u − cx)/fx, (v − cy)/fy) is distorted with the lens model and mapped to the source pixel,
/// which is sampled bilinearly. The remap table depends only on the lens and the output camera,
/// so it is computed once and reused for every frame.
public final class BackgroundUndistorter: @unchecked Sendable {
    /// The lens of the captured images.
    public let lens: any CameraModel
    /// Output size and pinhole intrinsics.
    public let width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double
    /// Per output pixel: source x, y (interleaved); NaN when the source lies outside the image.
    private let table: [Float]

    /// Prepares the remap from `lens` to a pinhole image with the given intrinsics (by default
    /// the lens's own K and size, as ARKit reports the intrinsics after undistortion).
    public init(lens: any CameraModel, width: Int? = nil, height: Int? = nil,
                fx: Double? = nil, fy: Double? = nil, cx: Double? = nil, cy: Double? = nil) {
        self.lens = lens
        let w = width ?? lens.width, h = height ?? lens.height
        self.width = w; self.height = h
        self.fx = fx ?? lens.fx; self.fy = fy ?? lens.fy; self.cx = cx ?? lens.cx; self.cy = cy ?? lens.cy
        var t = [Float](repeating: .nan, count: w * h * 2)
        let maxX = Double(lens.width - 1), maxY = Double(lens.height - 1)
        for v in 0..<h {
            for u in 0..<w {
                let xn = Vector2((Double(u) - self.cx) / self.fx, (Double(v) - self.cy) / self.fy)
                let s = lens.distortToPixel(xn)
                if s.x.isFinite, s.y.isFinite, s.x >= 0, s.y >= 0, s.x <= maxX, s.y <= maxY {
                    t[2 * (v * w + u)] = Float(s.x)
                    t[2 * (v * w + u) + 1] = Float(s.y)
                }
            }
        }
        table = t
    }

    /// Where output pixel (u, v) samples the source, nil outside.
    public func sourcePixel(u: Int, v: Int) -> Vector2? {
        let i = 2 * (v * width + u)
        return table[i].isNaN ? nil : Vector2(Double(table[i]), Double(table[i + 1]))
    }

    /// Undistorts `image` (grey or colour) into an opaque RGBA image; pixels with no source are
    /// black. Interpolation is bilinear on the encoded values (as camera pipelines resample).
    public func undistort(_ image: AnyImage) -> RGBAImage {
        let src = image.toRGBA8()
        var out = RGBAImage(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        guard src.width == lens.width, src.height == lens.height else {
            // A differently sized image cannot use this table; scale the lookups instead.
            return undistortScaled(src)
        }
        let sw = src.width
        for i in 0..<(width * height) {
            let x = table[2 * i]
            guard !x.isNaN else { continue }
            let y = table[2 * i + 1]
            let x0 = min(Int(x), src.width - 2), y0 = min(Int(y), src.height - 2)
            let fx = x - Float(x0), fy = y - Float(y0)
            let a = src.pixels[y0 * sw + x0], b = src.pixels[y0 * sw + x0 + 1]
            let c = src.pixels[(y0 + 1) * sw + x0], d = src.pixels[(y0 + 1) * sw + x0 + 1]
            func mix(_ pa: UInt8, _ pb: UInt8, _ pc: UInt8, _ pd: UInt8) -> UInt8 {
                let top = Float(pa) + (Float(pb) - Float(pa)) * fx
                let bottom = Float(pc) + (Float(pd) - Float(pc)) * fx
                return UInt8(max(0, min(255, (top + (bottom - top) * fy).rounded())))
            }
            out.pixels[i] = RGBA8(r: mix(a.r, b.r, c.r, d.r), g: mix(a.g, b.g, c.g, d.g), b: mix(a.b, b.b, c.b, d.b), a: 255)
        }
        return out
    }

    /// Fallback for an image whose size differs from the lens calibration: nearest neighbour
    /// with the lookups scaled to the image.
    private func undistortScaled(_ src: RGBAImage) -> RGBAImage {
        var out = RGBAImage(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        let sx = Float(src.width) / Float(lens.width), sy = Float(src.height) / Float(lens.height)
        for i in 0..<(width * height) {
            let x = table[2 * i]
            guard !x.isNaN else { continue }
            let xi = min(src.width - 1, max(0, Int(((x + 0.5) * sx - 0.5).rounded())))
            let yi = min(src.height - 1, max(0, Int(((table[2 * i + 1] + 0.5) * sy - 0.5).rounded())))
            out.pixels[i] = src.pixels[yi * src.width + xi]
        }
        return out
    }
}

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
    /// The same lookups in fixed point, for images of the lens's size: per output pixel the index
    /// of the top-left source neighbour (-1: no source) and the bilinear weights of the right and
    /// lower neighbours in 1/256 px (0…256), chosen so that all four neighbours lie in the image.
    private let taps: [Tap]

    /// One output pixel's fixed-point bilinear lookup.
    private struct Tap: Sendable {
        var index: Int32
        var wx: UInt16, wy: UInt16
        static let none = Tap(index: -1, wx: 0, wy: 0)
    }

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
        taps = zip(xs, ys).map { x, y in Self.tap(x: x, y: y, width: lens.width, height: lens.height) }
    }

    /// The fixed-point lookup of source position (x, y) in a `width × height` image: the weights
    /// are rounded to 1/256 px; at the last column (row) the cell to the left (above) is used
    /// with full weight on its far side, so no neighbour lies outside.
    private static func tap(x: Float, y: Float, width: Int, height: Int) -> Tap {
        guard x >= 0, y >= 0, width >= 2, height >= 2 else { return .none }
        func split(_ c: Float, _ size: Int) -> (Int, UInt16) {
            var i = min(Int(c), size - 1)
            var w = Int((256 * (c - Float(i))).rounded())
            if w >= 256, i + 1 < size { i += 1; w = 0 }
            if i >= size - 1 { i = size - 2; w = 256 }
            return (i, UInt16(w))
        }
        let (x0, wx) = split(x, width), (y0, wy) = split(y, height)
        return Tap(index: Int32(y0 * width + x0), wx: wx, wy: wy)
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
        let w = width
        // The AR session undistorts every captured frame: integer arithmetic on raw buffers (a
        // float version with per-pixel checks cost about 5 ms a frame at 752 × 480).
        taps.withUnsafeBufferPointer { taps in
            image.pixels.withUnsafeBufferPointer { src in
                out.pixels.withUnsafeMutableBufferPointer { dst in
                    for i in 0..<taps.count {
                        let t = taps[i]
                        guard t.index >= 0 else { continue }
                        let k = Int(t.index)
                        dst[i] = Self.mix(src[k], src[k + 1], src[k + w], src[k + w + 1], Int32(t.wx), Int32(t.wy))
                    }
                }
            }
        }
        return out
    }

    /// Fixed-point bilinear interpolation of one channel of a 2 × 2 cell (top-left, top-right,
    /// bottom-left, bottom-right; weights in 1/256), rounded to nearest: a convex combination of
    /// bytes, so it is a byte.
    @inline(__always)
    private static func mix(_ pa: UInt8, _ pb: UInt8, _ pc: UInt8, _ pd: UInt8, _ wx: Int32, _ wy: Int32) -> UInt8 {
        let top = Int32(pa) * (256 - wx) + Int32(pb) * wx, bottom = Int32(pc) * (256 - wx) + Int32(pd) * wx
        return UInt8(truncatingIfNeeded: (top * (256 - wy) + bottom * wy + 32768) >> 16)
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
        let w = src.width
        for i in 0..<taps.count {
            let t = taps[i]
            guard t.index >= 0 else { continue }
            let k = Int(t.index), wx = Int32(t.wx), wy = Int32(t.wy)
            let a = src.pixels[k], b = src.pixels[k + 1], c = src.pixels[k + w], d = src.pixels[k + w + 1]
            out.pixels[i] = RGBA8(r: Self.mix(a.r, b.r, c.r, d.r, wx, wy), g: Self.mix(a.g, b.g, c.g, d.g, wx, wy),
                                  b: Self.mix(a.b, b.b, c.b, d.b, wx, wy), a: 255)
        }
        return out
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

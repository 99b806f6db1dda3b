import Foundation
import ParallaxImaging
import ParallaxMath

/// Robust brightness and colour statistics of a captured image, in *linear* light.
///
/// Camera images are sRGB-encoded (IEC 61966-2-1); averaging encoded values would under-weight
/// bright regions, so every pixel is decoded to linear light first (a 256-entry table). The mean
/// is a trimmed mean: the darkest and brightest `trimFraction` of the pixels are dropped, which
/// removes saturated highlights, specular glints, hot pixels and black borders left by
/// undistortion without biasing the mean of a well-exposed scene much.
public struct ImageBrightness: Sendable, Equatable {
    /// Trimmed mean of linear luminance (0…1, Rec. 709 / sRGB primaries weights).
    public var linearLuminance: Double
    /// The linear values of the 256 code values with the camera's exposure gain divided out.
    public static func decodeTable(exposureGain: Double) -> [Double] {
        let gain = exposureGain > 0 && exposureGain.isFinite ? exposureGain : 1
        return gain == 1 ? srgbDecodeTable : (0..<256).map { srgbToLinear(Double($0) / 255 / gain) }
    }

    /// Trimmed means of linear R, G, B (equal for grey images).
    public var linearRGB: Vector3
    /// Whether the image had colour (false for 8/16-bit grey images).
    public var hasColor: Bool
    /// Number of pixels that contributed (after subsampling and trimming).
    public var sampleCount: Int

    /// Linearised values of the 256 sRGB code values.
    public static let srgbDecodeTable: [Double] = (0..<256).map { srgbToLinear(Double($0) / 255) }

    /// sRGB transfer function decode (IEC 61966-2-1), 0…1 → 0…1.
    @inlinable public static func srgbToLinear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Measures `image`, visiting every `step`-th pixel in x and y and trimming `trimFraction`
    /// (each side) of the luminance histogram. 16-bit images are reduced to 8 bits first.
    /// `exposureGain`, when the camera reports it, is the factor its auto-exposure applied to the
    /// encoded values; it is divided out before decoding, so the result measures the scene's light.
    public static func measure(_ image: AnyImage, step: Int = 2, trimFraction: Double = 0.02,
                               exposureGain: Double = 1) -> ImageBrightness {
        let step = max(1, step)
        let table = decodeTable(exposureGain: exposureGain)
        switch image {
        case .gray8(let g): return measureGray(g, step: step, trim: trimFraction, table: table)
        case .gray16: return measureGray(image.toGray8(), step: step, trim: trimFraction, table: table)
        default: return measureRGBA(image.toRGBA8(), step: step, trim: trimFraction, table: table)
        }
    }

    /// Histogram-based trimmed mean of 8-bit grey values, decoded to linear.
    static func measureGray(_ g: GrayImage, step: Int, trim: Double, table: [Double]) -> ImageBrightness {
        var histogram = [Int](repeating: 0, count: 256)
        var y = 0
        while y < g.height {
            var i = y * g.width
            let end = i + g.width
            while i < end { histogram[Int(g.pixels[i])] += 1; i += step }
            y += step
        }
        let (mean, n) = trimmedMean(histogram: histogram, trim: trim) { table[$0] }
        return ImageBrightness(linearLuminance: mean, linearRGB: Vector3(mean, mean, mean), hasColor: false, sampleCount: n)
    }

    /// Trimmed mean over the luminance histogram; colour means over the same kept pixels.
    static func measureRGBA(_ img: RGBAImage, step: Int, trim: Double, table: [Double]) -> ImageBrightness {
        // Bin pixels by 8-bit luma of the encoded value; keep per-bin sums of linear R, G, B so
        // the colour means use exactly the pixels that survive the luminance trimming.
        var histogram = [Int](repeating: 0, count: 256)
        var sums = [Vector3](repeating: .zero, count: 256)
        let t = table
        var y = 0
        while y < img.height {
            var x = 0
            while x < img.width {
                let p = img.pixels[y * img.width + x]
                let lin = Vector3(t[Int(p.r)], t[Int(p.g)], t[Int(p.b)])
                let lum = 0.2126 * lin.x + 0.7152 * lin.y + 0.0722 * lin.z
                let bin = min(255, max(0, Int((encode(lum) * 255).rounded())))
                histogram[bin] += 1
                sums[bin] += lin
                x += step
            }
            y += step
        }
        let (keepLo, keepHi, n) = trimRange(histogram: histogram, trim: trim)
        var rgb = Vector3.zero
        var weight = 0.0
        for b in 0..<256 where histogram[b] > 0 {
            let w = b < keepLo.bin || b > keepHi.bin ? 0 : (b == keepLo.bin ? keepLo.fraction : (b == keepHi.bin ? keepHi.fraction : 1))
            guard w > 0 else { continue }
            rgb += sums[b] * w
            weight += Double(histogram[b]) * w
        }
        if weight > 0 { rgb /= weight }
        let lum = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
        let colored = img.pixels.contains { $0.r != $0.g || $0.g != $0.b }
        return ImageBrightness(linearLuminance: lum, linearRGB: rgb, hasColor: colored, sampleCount: n)
    }

    /// sRGB encode (for binning only).
    static func encode(_ c: Double) -> Double { c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055 }

    /// The first and last kept bins with the kept fraction of each (partial bins at the cut).
    static func trimRange(histogram: [Int], trim: Double) -> (lo: (bin: Int, fraction: Double), hi: (bin: Int, fraction: Double), n: Int) {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return ((0, 1), (255, 1), 0) }
        let cut = Double(total) * min(max(trim, 0), 0.45)
        func edge(_ order: [Int]) -> (Int, Double) {
            var acc = 0.0
            for b in order where histogram[b] > 0 {
                let c = Double(histogram[b])
                if acc + c > cut { return (b, (acc + c - cut) / c) }
                acc += c
            }
            return (order.last ?? 0, 1)
        }
        let lo = edge(Array(0..<256)), hi = edge(Array((0..<256).reversed()))
        return ((lo.0, lo.1), (hi.0, hi.1), Int((Double(total) - 2 * cut).rounded()))
    }

    /// Trimmed mean of `value(bin)` over a histogram.
    static func trimmedMean(histogram: [Int], trim: Double, value: (Int) -> Double) -> (Double, Int) {
        let (lo, hi, n) = trimRange(histogram: histogram, trim: trim)
        var sum = 0.0, weight = 0.0
        for b in lo.bin...max(lo.bin, hi.bin) where histogram[b] > 0 {
            var w = 1.0
            if b == lo.bin { w = lo.fraction }
            if b == hi.bin { w = min(w, hi.fraction) }
            if lo.bin == hi.bin { w = 1 }
            sum += Double(histogram[b]) * w * value(b)
            weight += Double(histogram[b]) * w
        }
        return (weight > 0 ? sum / weight : 0, n)
    }
}

/// Correlated colour temperature from linear sRGB.
public enum ColorTemperature {
    /// Neutral white (the sRGB white point D65, ARKit's neutral).
    public static let neutral = 6500.0

    /// CCT (K) of the linear sRGB colour `rgb` with McCamy's cubic approximation ("Correlated
    /// color temperature as an explicit function of chromaticity coordinates", Color Research &
    /// Application 17(2), 1992): n = (x − 0.3320)/(0.1858 − y), CCT = 449n³ + 3525n² + 6823.3n
    /// + 5520.33, accurate to a few kelvin between 2856 K and 6504 K. XYZ from linear sRGB with
    /// the IEC 61966-2-1 matrix. Clamped to 1000…25000 K; `nil` for black input.
    public static func kelvin(linearRGB rgb: Vector3) -> Double? {
        let X = 0.4124 * rgb.x + 0.3576 * rgb.y + 0.1805 * rgb.z
        let Y = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
        let Z = 0.0193 * rgb.x + 0.1192 * rgb.y + 0.9505 * rgb.z
        let s = X + Y + Z
        guard s > 1e-9 else { return nil }
        let x = X / s, y = Y / s
        guard abs(0.1858 - y) > 1e-9 else { return nil }
        let n = (x - 0.3320) / (0.1858 - y)
        let cct = 449 * n * n * n + 3525 * n * n + 6823.3 * n + 5520.33
        return min(25000, max(1000, cct))
    }
}

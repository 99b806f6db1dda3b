// Pixel-format conversions. Grey from colour uses the ITU-R BT.601 luma
// weights (0.299, 0.587, 0.114), the same weights OpenCV's cvtColor uses, so
// tracking results on colour input match what people expect from OpenCV.

/// BT.601 luma of an 8-bit colour, rounded to nearest: (299 r + 587 g + 114 b) / 1000.
@inline(__always)
func luma8(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    let weighted: UInt32 = 299 &* UInt32(r) &+ 587 &* UInt32(g) &+ 114 &* UInt32(b)
    return UInt8((weighted &+ 500) / 1000)
}

/// BT.601 luma of a 16-bit colour, rounded to nearest.
@inline(__always)
func luma16(_ r: UInt16, _ g: UInt16, _ b: UInt16) -> UInt16 {
    let weighted: UInt64 = 299 &* UInt64(r) &+ 587 &* UInt64(g) &+ 114 &* UInt64(b)
    return UInt16((weighted &+ 500) / 1000)
}

/// Maps 0…65535 to 0…255 with rounding (v · 255 / 65535), so 0 → 0 and 65535 → 255.
@inline(__always)
func to8(_ v: UInt16) -> UInt8 {
    UInt8((UInt32(v) * 255 + 32767) / 65535)
}

/// Maps 0…255 to 0…65535 exactly (v · 257), the inverse of ``to8(_:)`` on 8-bit values.
@inline(__always)
func to16(_ v: UInt8) -> UInt16 { UInt16(v) &* 257 }

extension Image where Pixel == UInt8 {
    /// Each grey value copied into r, g and b.
    public func toRGB() -> RGBImage { map { RGB8(gray: $0) } }
    /// Each grey value copied into r, g and b, alpha opaque.
    public func toRGBA() -> RGBAImage { map { RGBA8(gray: $0) } }
    /// Intensities scaled to 0…1 (v / 255, correctly rounded: a division, not a
    /// multiplication by 1/255, so that e.g. 51 maps to exactly `Float(0.2)`).
    public func toFloat() -> FloatImage { map { Float($0) / 255 } }
    /// Values widened to 16 bits (v · 257, so 255 → 65535).
    public func to16Bit() -> Gray16Image { map(to16) }
}

extension Image where Pixel == UInt16 {
    /// Values narrowed to 8 bits with rounding (65535 → 255).
    public func to8Bit() -> GrayImage { map(to8) }
    /// Intensities scaled to 0…1 (v / 65535, correctly rounded).
    public func toFloat() -> FloatImage { map { Float($0) / 65535 } }
}

extension Image where Pixel == RGB8 {
    /// BT.601 luma.
    public func toGray() -> GrayImage { map { luma8($0.r, $0.g, $0.b) } }
    /// Adds an opaque alpha channel.
    public func toRGBA() -> RGBAImage { map { RGBA8(r: $0.r, g: $0.g, b: $0.b) } }
    /// BT.601 luma scaled to 0…1.
    public func toFloat() -> FloatImage { toGray().toFloat() }
}

extension Image where Pixel == RGBA8 {
    /// BT.601 luma of the colour; alpha is ignored.
    public func toGray() -> GrayImage { map { luma8($0.r, $0.g, $0.b) } }
    /// Drops the alpha channel (no compositing).
    public func toRGB() -> RGBImage { map(\.rgb) }
    /// BT.601 luma scaled to 0…1; alpha is ignored.
    public func toFloat() -> FloatImage { toGray().toFloat() }
}

extension Image where Pixel == RGB16 {
    /// Samples narrowed to 8 bits with rounding.
    public func to8Bit() -> RGBImage { map { RGB8(r: to8($0.r), g: to8($0.g), b: to8($0.b)) } }
    /// BT.601 luma, 16-bit.
    public func toGray() -> Gray16Image { map { luma16($0.r, $0.g, $0.b) } }
}

extension Image where Pixel == RGBA16 {
    /// Samples narrowed to 8 bits with rounding.
    public func to8Bit() -> RGBAImage {
        map { RGBA8(r: to8($0.r), g: to8($0.g), b: to8($0.b), a: to8($0.a)) }
    }
    /// BT.601 luma, 16-bit; alpha is ignored.
    public func toGray() -> Gray16Image { map { luma16($0.r, $0.g, $0.b) } }
}

extension Image where Pixel == Float {
    /// Values in 0…1 scaled to 0…255, clamped and rounded; NaN becomes 0.
    public func toGray8() -> GrayImage {
        map { value in
            guard !value.isNaN else { return 0 }
            let scaled = (value * 255).rounded()
            return UInt8(min(max(scaled, 0), 255))
        }
    }

    /// Linearly rescales so the smallest finite value maps to 0 and the largest
    /// to 255 (for visualising depth maps, gradients, residuals).
    public func normalizedToGray8() -> GrayImage {
        var lo = Float.infinity, hi = -Float.infinity
        for v in pixels where v.isFinite {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        guard lo < hi else { return map { _ in 0 } }
        let scale = 255 / (hi - lo)
        return map { v in v.isFinite ? UInt8(min(max(((v - lo) * scale).rounded(), 0), 255)) : 0 }
    }
}

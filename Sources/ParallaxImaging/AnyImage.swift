/// An image whose pixel format is known only at run time, as PNG files deliver them.
public enum AnyImage: Sendable {
    /// 8-bit grey.
    case gray8(GrayImage)
    /// 16-bit grey.
    case gray16(Gray16Image)
    /// 8-bit RGB.
    case rgb8(RGBImage)
    /// 8-bit RGBA (straight alpha).
    case rgba8(RGBAImage)
    /// 16-bit RGB.
    case rgb16(Image<RGB16>)
    /// 16-bit RGBA (straight alpha).
    case rgba16(Image<RGBA16>)

    /// Width in pixels.
    public var width: Int {
        switch self {
        case .gray8(let i): i.width
        case .gray16(let i): i.width
        case .rgb8(let i): i.width
        case .rgba8(let i): i.width
        case .rgb16(let i): i.width
        case .rgba16(let i): i.width
        }
    }

    /// Height in pixels.
    public var height: Int {
        switch self {
        case .gray8(let i): i.height
        case .gray16(let i): i.height
        case .rgb8(let i): i.height
        case .rgba8(let i): i.height
        case .rgb16(let i): i.height
        case .rgba16(let i): i.height
        }
    }

    /// Bits per sample: 8 or 16.
    public var bitDepth: Int {
        switch self {
        case .gray8, .rgb8, .rgba8: 8
        case .gray16, .rgb16, .rgba16: 16
        }
    }

    /// Samples per pixel: 1 (grey), 3 (RGB) or 4 (RGBA).
    public var channels: Int {
        switch self {
        case .gray8, .gray16: 1
        case .rgb8, .rgb16: 3
        case .rgba8, .rgba16: 4
        }
    }

    /// 8-bit grey: colour through BT.601 luma (alpha ignored), 16-bit narrowed with rounding.
    public func toGray8() -> GrayImage {
        switch self {
        case .gray8(let i): i
        case .gray16(let i): i.to8Bit()
        case .rgb8(let i): i.toGray()
        case .rgba8(let i): i.toGray()
        case .rgb16(let i): i.toGray().to8Bit()
        case .rgba16(let i): i.toGray().to8Bit()
        }
    }

    /// 8-bit RGBA: grey replicated, missing alpha opaque, 16-bit narrowed with rounding.
    public func toRGBA8() -> RGBAImage {
        switch self {
        case .gray8(let i): i.toRGBA()
        case .gray16(let i): i.to8Bit().toRGBA()
        case .rgb8(let i): i.toRGBA()
        case .rgba8(let i): i
        case .rgb16(let i): i.to8Bit().toRGBA()
        case .rgba16(let i): i.to8Bit()
        }
    }

    /// Intensities in 0…1 (full 16-bit precision for 16-bit grey).
    public func toFloat() -> FloatImage {
        switch self {
        case .gray16(let i): i.toFloat()
        default: toGray8().toFloat()
        }
    }
}

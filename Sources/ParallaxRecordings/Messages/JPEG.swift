import CTurboJPEG
import ParallaxImaging

/// JPEG decoding and encoding through libjpeg-turbo's TurboJPEG API.
public enum JPEG {
    /// The largest width or height accepted (as for PNG).
    public static let maximumSide = 32768

    /// Decodes a JPEG: greyscale files become ``AnyImage/gray8(_:)``, colour ones ``AnyImage/rgb8(_:)``.
    public static func decode(_ bytes: [UInt8]) throws(ImageDecodeError) -> AnyImage {
        guard let handle = tjInitDecompress() else { throw ImageDecodeError("cannot start the JPEG decoder") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let size = UInt(bytes.count)
        let headerStatus = bytes.withUnsafeBufferPointer { p in
            tjDecompressHeader3(handle, p.baseAddress, size, &width, &height, &subsampling, &colorspace)
        }
        guard headerStatus == 0 else { throw ImageDecodeError("not a readable JPEG: \(message(handle))") }
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
            throw ImageDecodeError("JPEG is \(width)x\(height); sides must be 1…\(maximumSide)")
        }
        let gray = colorspace == Int32(TJCS_GRAY.rawValue)
        let channels = gray ? 1 : 3
        let count = Int(width) * Int(height) * channels
        var pixels = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeBufferPointer { p in
            pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, p.baseAddress, size, out.baseAddress, width, 0, height,
                              gray ? Int32(TJPF_GRAY.rawValue) : Int32(TJPF_RGB.rawValue), Int32(TJFLAG_ACCURATEDCT))
            }
        }
        // Status −1 with a warning only (e.g. extraneous bytes) still produced the image.
        if status != 0 && tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw ImageDecodeError("corrupt JPEG: \(message(handle))")
        }
        return try RawPixels.image(width: Int(width), height: Int(height), channels: channels, bytes: pixels)
    }

    /// Encodes 8-bit grey or RGB as a baseline JPEG of `quality` (1…100), 4:2:0 for colour.
    public static func encode(_ image: AnyImage, quality: Int = 95) throws(ImageDecodeError) -> [UInt8] {
        let (bytes, format): ([UInt8], TJPF)
        switch image {
        case .gray8(let g): (bytes, format) = (g.pixels, TJPF_GRAY)
        case .rgb8(let c): (bytes, format) = (c.pixels.flatMap { [$0.r, $0.g, $0.b] }, TJPF_RGB)
        default: throw ImageDecodeError("JPEG encoding takes 8-bit grey or RGB images")
        }
        guard let handle = tjInitCompress() else { throw ImageDecodeError("cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let subsampling = format == TJPF_GRAY ? TJSAMP_GRAY : TJSAMP_420
        let status = bytes.withUnsafeBufferPointer { p in
            tjCompress2(handle, p.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(format.rawValue),
                        &output, &size, Int32(subsampling.rawValue), Int32(max(1, min(100, quality))), 0)
        }
        defer { tjFree(output) }
        guard status == 0, let output else { throw ImageDecodeError("JPEG encoding failed: \(message(handle))") }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}

/// An image payload that cannot be decoded (a bad encoding name, a size that does not match, a corrupt file).
public struct ImageDecodeError: Error, CustomStringConvertible, Sendable {
    /// The explanation.
    public let description: String
    init(_ description: String) { self.description = description }
}

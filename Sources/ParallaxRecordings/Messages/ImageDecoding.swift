import ParallaxImaging

/// Builds ``AnyImage`` values from packed 8-bit samples and back.
enum RawPixels {
    /// Runs an image constructor whose pixel count the caller has already checked.
    static func sized<T>(_ make: () throws -> T) throws(ImageDecodeError) -> T {
        do { return try make() } catch { throw ImageDecodeError("pixel buffer does not match the image size: \(error)") }
    }

    /// An image from `width × height × channels` packed bytes (1: grey, 3: RGB, 4: RGBA).
    static func image(width: Int, height: Int, channels: Int, bytes: [UInt8]) throws(ImageDecodeError) -> AnyImage {
        let n = width * height
        switch channels {
        case 1: return .gray8(try sized { try GrayImage(width: width, height: height, pixels: bytes) })
        case 3:
            let pixels = [RGB8](unsafeUninitializedCapacity: n) { buf, done in
                for i in 0..<n { buf[i] = RGB8(r: bytes[3 * i], g: bytes[3 * i + 1], b: bytes[3 * i + 2]) }
                done = n
            }
            return .rgb8(try sized { try RGBImage(width: width, height: height, pixels: pixels) })
        default:
            let pixels = [RGBA8](unsafeUninitializedCapacity: n) { buf, done in
                for i in 0..<n { buf[i] = RGBA8(r: bytes[4 * i], g: bytes[4 * i + 1], b: bytes[4 * i + 2], a: bytes[4 * i + 3]) }
                done = n
            }
            return .rgba8(try sized { try RGBAImage(width: width, height: height, pixels: pixels) })
        }
    }
}

extension ImageMessage {
    /// The encodings ``image()`` decodes.
    public static let supportedEncodings = ["mono8", "8UC1", "mono16", "16UC1", "rgb8", "bgr8", "8UC3", "rgba8", "bgra8", "8UC4"]

    /// Decodes the pixels, honouring `step` (row padding) and `is_bigendian`; `bgr*` are swapped to RGB.
    public func image() throws(ImageDecodeError) -> AnyImage {
        let (channels, bytesPerSample): (Int, Int)
        switch encoding {
        case "mono8", "8UC1": (channels, bytesPerSample) = (1, 1)
        case "mono16", "16UC1": (channels, bytesPerSample) = (1, 2)
        case "rgb8", "bgr8", "8UC3": (channels, bytesPerSample) = (3, 1)
        case "rgba8", "bgra8", "8UC4": (channels, bytesPerSample) = (4, 1)
        default:
            throw ImageDecodeError("encoding '\(encoding)' is not supported (supported: \(Self.supportedEncodings.joined(separator: ", ")))")
        }
        guard width > 0, height > 0, width <= JPEG.maximumSide, height <= JPEG.maximumSide else {
            throw ImageDecodeError("image is \(width)x\(height); sides must be 1…\(JPEG.maximumSide)")
        }
        let rowBytes = width * channels * bytesPerSample
        guard step >= rowBytes else { throw ImageDecodeError("step \(step) is less than width × pixel size = \(rowBytes)") }
        guard data.count >= step * (height - 1) + rowBytes else {
            throw ImageDecodeError("data holds \(data.count) bytes; \(height) rows of step \(step) need \(step * (height - 1) + rowBytes)")
        }
        var packed: [UInt8]
        if step == rowBytes && data.count == rowBytes * height {
            packed = data
        } else {
            packed = []
            packed.reserveCapacity(rowBytes * height)
            for y in 0..<height { packed.append(contentsOf: data[(y * step)..<(y * step + rowBytes)]) }
        }
        if bytesPerSample == 2 {
            let n = width * height
            let samples = [UInt16](unsafeUninitializedCapacity: n) { buf, done in
                for i in 0..<n {
                    let a = UInt16(packed[2 * i]), b = UInt16(packed[2 * i + 1])
                    buf[i] = isBigEndian ? (a << 8 | b) : (b << 8 | a)
                }
                done = n
            }
            return .gray16(try RawPixels.sized { try Gray16Image(width: width, height: height, pixels: samples) })
        }
        if encoding.hasPrefix("bgr") || encoding == "8UC3" || encoding == "8UC4" {
            // OpenCV's 8UC3/8UC4 are BGR(A) by convention.
            for i in stride(from: 0, to: packed.count, by: channels) { packed.swapAt(i, i + 2) }
        }
        return try RawPixels.image(width: width, height: height, channels: channels, bytes: packed)
    }

    /// A message holding `image` (8-bit grey → `mono8`, 16-bit grey → `mono16` little-endian, RGB → `rgb8`, RGBA → `rgba8`).
    public init(header: MessageHeader, image: AnyImage) throws(ImageDecodeError) {
        let w = image.width, h = image.height
        switch image {
        case .gray8(let g):
            self.init(header: header, height: h, width: w, encoding: "mono8", step: w, data: g.pixels)
        case .gray16(let g):
            var d = [UInt8]()
            d.reserveCapacity(2 * g.pixels.count)
            for v in g.pixels { d.append(UInt8(v & 0xff)); d.append(UInt8(v >> 8)) }
            self.init(header: header, height: h, width: w, encoding: "mono16", step: 2 * w, data: d)
        case .rgb8(let c):
            self.init(header: header, height: h, width: w, encoding: "rgb8", step: 3 * w, data: c.pixels.flatMap { [$0.r, $0.g, $0.b] })
        case .rgba8(let c):
            self.init(header: header, height: h, width: w, encoding: "rgba8", step: 4 * w,
                      data: c.pixels.flatMap { [$0.r, $0.g, $0.b, $0.a] })
        default:
            throw ImageDecodeError("16-bit colour images have no sensor_msgs/Image encoding here")
        }
    }
}

extension CompressedImageMessage {
    /// Decodes the payload: PNG by its signature, JPEG by its SOI marker (the `format` string is
    /// only a hint; drivers fill it inconsistently).
    public func image() throws(ImageDecodeError) -> AnyImage {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            do { return try PNG.decode(data, name: "CompressedImage", checksums: .skip) } catch {
                throw ImageDecodeError("corrupt PNG: \(error)")
            }
        }
        if data.starts(with: [0xFF, 0xD8]) { return try JPEG.decode(data) }
        throw ImageDecodeError("format '\(format)': payload is neither PNG nor JPEG (supported: png, jpeg)")
    }
}

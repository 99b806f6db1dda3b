import CPNGSupport
import Foundation

/// Facts from a PNG file's header (its IHDR chunk), as stored in the file.
public struct PNGInfo: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits per sample as stored: 1, 2, 4, 8 or 16.
    public let bitDepth: Int
    /// Samples per pixel as stored: 1 grey or palette, 2 grey+alpha, 3 RGB, 4 RGBA.
    public let channels: Int
    /// The PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA).
    public let colorType: Int
    /// Whether the image is Adam7-interlaced.
    public let interlaced: Bool

    /// Creates header facts.
    public init(width: Int, height: Int, bitDepth: Int, channels: Int, colorType: Int = 0, interlaced: Bool = false) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.channels = channels
        self.colorType = colorType
        self.interlaced = interlaced
    }
}

/// Whether PNG decoding verifies the checksums in the file.
public enum PNGChecksumPolicy: Sendable, Equatable {
    /// Verify every chunk's CRC-32 and the zlib stream's Adler-32, rejecting
    /// any file whose bytes were altered. The default.
    case verify
    /// Skip both checksums (the IHDR CRC is still checked). Truncated files,
    /// broken chunk structure and invalid deflate data are still rejected, but
    /// a flipped bit inside the compressed pixels may decode to wrong pixels
    /// instead of an error. Worth it when replaying trusted datasets, where the
    /// checks would run on every frame.
    case skip
}

/// PNG reading and writing through libpng.
///
/// ## Why a C shim instead of libpng's simplified API
/// libpng reports errors by `longjmp`, which must never cross Swift frames, so
/// failures have to be contained in C. libpng 1.6's simplified API
/// (`png_image_*`) would contain them, but it treats 16-bit data as *linear*
/// light: it premultiplies alpha for 16-bit RGBA and converts gamma when it
/// changes between 8 and 16 bits, so 16-bit RGBA files do not round-trip
/// bit-exactly. (Checked against libpng 1.6.39: writing the RGBA16 pixel
/// (65535, 1234, 4321, a: 1) with `PNG_FORMAT_LINEAR_RGB_ALPHA` and reading it
/// back gives (1, 1, 1, 1).) The small C target `CPNGSupport` instead drives the classic
/// API below a `setjmp` and returns error codes, which keeps every sample
/// exact and lets us expand palettes, low bit depths and tRNS ourselves.
///
/// ## Speed
/// Dataset replay decodes two 752×480 frames per step, so decoding is on the
/// hot path. For non-interlaced 8/16-bit images without a palette or tRNS,
/// `CPNGSupport` inflates and unfilters the pixels itself (many rows per zlib
/// call, branch-free Paeth): 1.3–1.9× faster than libpng's row-at-a-time reader
/// on EuRoC-style 752×480 grey frames. Any file it finds unusual is decoded by libpng instead, so errors
/// read as before. 8-bit grey rows land directly in the returned image's
/// array. ``PNGChecksumPolicy/skip`` additionally skips CRC and Adler-32 checks.
///
/// Decoded layouts: grey → `.gray8/.gray16`; grey+alpha and grey with tRNS →
/// `.rgba8/.rgba16` (grey replicated); palette → `.rgb8`, or `.rgba8` with tRNS;
/// 1/2/4-bit grey → `.gray8` scaled to 0…255. 16-bit samples, big-endian in
/// the file (PNG spec §7.1), are converted to host `UInt16`.
public enum PNG {
    /// The largest accepted width or height. Larger headers are rejected
    /// before any pixel memory is allocated.
    public static let maximumSide = 32768

    /// The 8-byte PNG signature (PNG spec §5.2).
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    // MARK: Files

    /// Decodes the PNG file at `url`.
    /// - Parameter checksums: whether to verify chunk CRCs and the zlib Adler-32
    ///   (see ``PNGChecksumPolicy``).
    /// - Throws: ``ImageError`` whose description starts with the file path.
    public static func read(contentsOf url: URL, checksums: PNGChecksumPolicy = .verify) throws -> AnyImage {
        let name = url.isFileURL ? url.path : url.absoluteString
        if let problem = FileReadability.problem(url) {
            throw ImageError(file: name, kind: .io, reason: "cannot read file (\(problem))")
        }
        let data: Data
        do {
            // One allocation holding the whole file; decoded from in place below.
            data = try Data(contentsOf: url)
        } catch {
            throw ImageError(file: name, kind: .io, reason: "cannot read file (\(FileReadability.describe(error, reading: url)))")
        }
        return try data.withUnsafeBytes { try decode($0, name: name, checksums: checksums) }
    }

    /// Reads only the signature and IHDR chunk (33 bytes) of the file at `url`.
    /// - Throws: ``ImageError`` naming the file when it is missing, not a PNG,
    ///   truncated or has an invalid header.
    public static func readInfo(contentsOf url: URL) throws -> PNGInfo {
        let name = url.isFileURL ? url.path : url.absoluteString
        if let problem = FileReadability.problem(url) {
            throw ImageError(file: name, kind: .io, reason: "cannot read file (\(problem))")
        }
        let head: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = [UInt8](try handle.read(upToCount: 33) ?? Data())
        } catch {
            throw ImageError(file: name, kind: .io, reason: "cannot read file (\(FileReadability.describe(error, reading: url)))")
        }
        return try parseHeader(head, name: name)
    }

    /// Encodes `image` and writes it to `url` (atomically).
    /// - Throws: ``ImageError`` naming the file when encoding or writing fails.
    public static func write(_ image: AnyImage, to url: URL) throws {
        let name = url.isFileURL ? url.path : url.absoluteString
        let bytes = try encode(image, name: name)
        do {
            try Data(bytes).write(to: url, options: .atomic)
        } catch {
            throw ImageError(file: name, kind: .io, reason: "cannot write file (\(describe(error)))")
        }
    }

    // MARK: Memory

    /// Parses the header facts from the first 33 bytes of a PNG stream.
    public static func parseHeader(_ bytes: [UInt8], name: String) throws -> PNGInfo {
        try checkSignature(bytes, name: name)
        guard bytes.count >= 33 else {
            throw ImageError(file: name, kind: .truncated, reason: "truncated (header incomplete)")
        }
        let length = readBE32(bytes, 8)
        guard length == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw ImageError(file: name, kind: .corrupt, reason: "corrupt PNG (first chunk is not IHDR)")
        }
        guard CRC32.checksum(bytes[12..<29]) == readBE32(bytes, 29) else {
            throw ImageError(file: name, kind: .corrupt, reason: "corrupt PNG (IHDR CRC mismatch)")
        }
        let width = Int(readBE32(bytes, 16)), height = Int(readBE32(bytes, 20))
        let depth = Int(bytes[24]), colorType = Int(bytes[25])
        // Allowed depth/colour-type combinations: PNG spec §11.2.2, table 11.1.
        let allowed: [Int: (channels: Int, depths: Set<Int>)] = [
            0: (1, [1, 2, 4, 8, 16]), 2: (3, [8, 16]), 3: (1, [1, 2, 4, 8]),
            4: (2, [8, 16]), 6: (4, [8, 16]),
        ]
        guard let format = allowed[colorType], format.depths.contains(depth) else {
            throw ImageError(
                file: name, kind: .corrupt,
                reason: "corrupt PNG (bit depth \(depth) with colour type \(colorType))")
        }
        try checkDimensions(width: width, height: height, name: name)
        return PNGInfo(
            width: width, height: height, bitDepth: depth, channels: format.channels,
            colorType: colorType, interlaced: bytes[28] == 1)
    }

    /// Decodes a PNG held in memory; `name` is used in error messages.
    /// - Parameter checksums: whether to verify chunk CRCs and the zlib Adler-32
    ///   (see ``PNGChecksumPolicy``).
    public static func decode(
        _ bytes: [UInt8], name: String, checksums: PNGChecksumPolicy = .verify
    ) throws -> AnyImage {
        try bytes.withUnsafeBytes { try decode($0, name: name, checksums: checksums) }
    }

    /// Decodes the PNG in `bytes` without copying it.
    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, checksums: PNGChecksumPolicy) throws -> AnyImage {
        // Validating IHDR here first gives precise messages (dimensions, CRC)
        // and rejects absurd sizes before libpng allocates anything.
        let info = try parseHeader(Array(bytes.prefix(33)), name: name)
        let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let flags = checksums == .skip ? Int32(PXPNG_DECODE_SKIP_CHECKSUMS) : 0
        var raw = pxpng_image()
        var message = [CChar](repeating: 0, count: 256)
        var code: Int32

        if info.colorType == 0, info.bitDepth == 8 {
            // 8-bit grey, the camera-dataset case: let the C side write the
            // rows straight into the image's own array instead of a temporary.
            // It falls back to a buffer of its own when the file turns out to
            // need another layout (a tRNS chunk adds alpha).
            let count = info.width * info.height
            var decodedInPlace = false
            code = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { destination, initialized in
                code = pxpng_decode(
                    input, bytes.count, UInt32(maximumSide), flags, destination.baseAddress, count, &raw,
                    &message, message.count)
                decodedInPlace = code == Int32(PXPNG_OK) && raw.data == destination.baseAddress
                initialized = decodedInPlace ? count : 0
            }
            if decodedInPlace {
                return .gray8(Image(uncheckedWidth: info.width, height: info.height, pixels: pixels))
            }
        } else {
            code = pxpng_decode(input, bytes.count, UInt32(maximumSide), flags, nil, 0, &raw, &message, message.count)
        }

        // Here raw.data, if any, is a buffer of the C side's own.
        defer { pxpng_free(raw.data) }
        guard code == Int32(PXPNG_OK) else {
            throw error(code: code, message: message, name: name)
        }
        guard let data = raw.data else {
            throw ImageError(file: name, kind: .corrupt, reason: "corrupt PNG (no pixel data)")
        }
        let samples = UnsafeBufferPointer(start: data, count: raw.size)
        return PixelUnpacking.unpack(
            samples, width: Int(raw.width), height: Int(raw.height),
            channels: Int(raw.channels), bitDepth: Int(raw.bit_depth))
    }

    /// Encodes `image` as a non-interlaced PNG of its own format (8- or 16-bit
    /// grey, RGB or RGBA). `compressionLevel` is zlib's 0 (none) … 9 (smallest); levels up to 3 use
    /// the Sub row filter alone, higher ones libpng's adaptive choice. The default, 2, favours speed
    /// (rendered frames and simulated camera images are written by the thousand): about 7× faster
    /// than level 6 for files 15–25 % larger, which also inflate about twice as fast when read back.
    public static func encode(_ image: AnyImage, compressionLevel: Int = 2) throws -> [UInt8] {
        try encode(image, name: "PNG encoder", compressionLevel: compressionLevel)
    }

    static func encode(_ image: AnyImage, name: String, compressionLevel: Int = 2) throws -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw ImageError(file: name, kind: .badDimensions, reason: "cannot encode an empty \(image.width)×\(image.height) image")
        }
        try checkDimensions(width: image.width, height: image.height, name: name)
        let packed = PixelUnpacking.pack(image)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var count = 0
        var message = [CChar](repeating: 0, count: 256)
        let code = packed.withUnsafeBufferPointer { input in
            pxpng_encode(
                input.baseAddress, UInt32(image.width), UInt32(image.height), Int32(image.channels),
                Int32(image.bitDepth), Int32(compressionLevel), &output, &count, &message, message.count)
        }
        defer { pxpng_free(output) }
        guard code == Int32(PXPNG_OK), let output else {
            throw error(code: code, message: message, name: name)
        }
        return Array(UnsafeBufferPointer(start: output, count: count))
    }

    // MARK: Helpers

    static func checkSignature(_ bytes: [UInt8], name: String) throws {
        if bytes.isEmpty {
            throw ImageError(file: name, kind: .notPNG, reason: "not a PNG file (empty file)")
        }
        let n = min(bytes.count, 8)
        guard Array(bytes[0..<n]) == Array(signature[0..<n]) else {
            throw ImageError(file: name, kind: .notPNG, reason: "not a PNG file (bad signature)")
        }
        if n < 8 {
            throw ImageError(file: name, kind: .truncated, reason: "truncated (inside the signature)")
        }
    }

    static func checkDimensions(width: Int, height: Int, name: String) throws {
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
            throw ImageError(
                file: name, kind: .badDimensions,
                reason: "unsupported dimensions \(width)×\(height) (each side must be 1…\(maximumSide))")
        }
    }

    static func readBE32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    static func error(code: Int32, message: [CChar], name: String) -> ImageError {
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        switch code {
        case Int32(PXPNG_ERR_SIGNATURE): return ImageError(file: name, kind: .notPNG, reason: "not a PNG file (bad signature)")
        case Int32(PXPNG_ERR_TRUNCATED): return ImageError(file: name, kind: .truncated, reason: "truncated")
        case Int32(PXPNG_ERR_TOO_LARGE): return ImageError(file: name, kind: .badDimensions, reason: "unsupported dimensions (\(text))")
        case Int32(PXPNG_ERR_MEMORY): return ImageError(file: name, kind: .outOfMemory, reason: "out of memory")
        case Int32(PXPNG_ERR_ARGUMENT): return ImageError(file: name, kind: .invalidArgument, reason: text)
        default: return ImageError(file: name, kind: .corrupt, reason: "corrupt PNG (\(text.isEmpty ? "libpng error" : text))")
        }
    }

    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoSuchFileError || ns.code == NSFileNoSuchFileError {
            return "no such file"
        }
        return ns.localizedDescription
    }
}

/// CRC-32 as used by PNG chunks (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320
/// reflected; PNG spec annex D).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

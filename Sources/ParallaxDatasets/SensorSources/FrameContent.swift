import Foundation
import ParallaxImaging

/// Where a ``CameraFrame``'s pixels are: in a file (EuRoC/ASL and TUM-VI folders), encoded in
/// memory (a compressed image message of a ROS bag or MCAP file), or decoded in memory (a raw
/// image message, an image handed to ``LiveSource``, or a frame decoded ahead of tracking).
public enum FrameContent: Sendable, Equatable {
    /// The image is the file at ``CameraFrame/url``.
    case file
    /// Encoded bytes in memory, decoded by their decoder when the frame is loaded.
    case encoded(EncodedImage)
    /// Decoded pixels in memory.
    case pixels(AnyImage)

    /// Equal when both are files, both hold the same bytes of the same format, or both hold the
    /// same pixels in the same layout.
    public static func == (a: FrameContent, b: FrameContent) -> Bool {
        switch (a, b) {
        case (.file, .file): return true
        case let (.encoded(x), .encoded(y)): return x == y
        case let (.pixels(x), .pixels(y)): return Self.samePixels(x, y)
        default: return false
        }
    }

    private static func samePixels(_ a: AnyImage, _ b: AnyImage) -> Bool {
        switch (a, b) {
        case let (.gray8(x), .gray8(y)): x == y
        case let (.gray16(x), .gray16(y)): x == y
        case let (.rgb8(x), .rgb8(y)): x == y
        case let (.rgba8(x), .rgba8(y)): x == y
        case let (.rgb16(x), .rgb16(y)): x == y
        case let (.rgba16(x), .rgba16(y)): x == y
        default: false
        }
    }
}

/// Decodes one image format from bytes in memory. PNG is built in (``PNGImageDecoder``); a
/// module that reads other formats (JPEG in ParallaxRecordings) supplies its own.
public protocol ImageDecoder: Sendable {
    /// The format's short name (`png`, `jpeg`); two encoded images are equal only with the same format.
    var format: String { get }
    /// Decodes `bytes`; `name` identifies the image in error messages.
    func decode(_ bytes: [UInt8], name: String) throws -> AnyImage
}

/// PNG from memory, checksums skipped as for files (``CameraFrame/loadImage()``).
public struct PNGImageDecoder: ImageDecoder {
    /// Creates the decoder.
    public init() {}
    /// `png`.
    public var format: String { "png" }
    /// Decodes with ``PNG/decode(_:name:checksums:)``.
    public func decode(_ bytes: [UInt8], name: String) throws -> AnyImage {
        try PNG.decode(bytes, name: name, checksums: .skip)
    }
}

/// An encoded image held in memory together with the decoder that reads it.
public struct EncodedImage: Sendable, Equatable {
    /// The encoded bytes (a whole PNG or JPEG stream).
    public var bytes: [UInt8]
    /// Reads ``bytes``.
    public var decoder: any ImageDecoder

    /// Wraps `bytes` of the decoder's format.
    public init(bytes: [UInt8], decoder: any ImageDecoder) {
        self.bytes = bytes
        self.decoder = decoder
    }

    /// A PNG stream.
    public static func png(_ bytes: [UInt8]) -> EncodedImage { EncodedImage(bytes: bytes, decoder: PNGImageDecoder()) }

    /// Same bytes and same format.
    public static func == (a: EncodedImage, b: EncodedImage) -> Bool {
        a.decoder.format == b.decoder.format && a.bytes == b.bytes
    }
}

extension CameraFrame {
    /// A frame whose image is in memory (`content` is not ``FrameContent/file``).
    ///
    /// - Parameters:
    ///   - label: names the frame in messages (``displayPath``), e.g. `run.bag /cam0/image_raw #42`.
    ///   - recording: the file the frame came from, when there is one (kept in ``url``); nil for
    ///     live frames.
    ///   - expectedWidth: the calibrated width; ``loadImage()`` checks the image against it.
    public init(camera: String, timestampNs: Int64, content: FrameContent, label: String, recording: URL? = nil,
                expectedWidth: Int, expectedHeight: Int) {
        self.init(camera: camera, timestampNs: timestampNs, filename: label,
                  url: recording ?? URL(fileURLWithPath: "/dev/null"),
                  expectedWidth: expectedWidth, expectedHeight: expectedHeight)
        self.content = content
    }

    /// The same frame with its image decoded into memory as 8-bit grey (what the tracker uses).
    /// Decoding ahead of tracking (``DecodeAheadIterator``) calls this on its own thread.
    public func decodedToGray8() throws -> CameraFrame {
        var copy = self
        copy.content = .pixels(.gray8(try loadGray8()))
        return copy
    }
}

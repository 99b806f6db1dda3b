/// An error reading, writing or building an image. Its description starts with
/// the file (or buffer name) it concerns, e.g. `cam0/data/1.png: truncated`.
public struct ImageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, independent of the file.
    public enum Kind: Sendable, Equatable {
        /// The bytes do not start with the PNG signature (or the file is empty).
        case notPNG
        /// The data ended before the image was complete.
        case truncated
        /// The file is a PNG but its contents are invalid (bad CRC, bad zlib stream, bad header, ...).
        case corrupt
        /// Width or height is zero, negative or above ``PNG/maximumSide``.
        case badDimensions
        /// The file could not be opened, read or written.
        case io
        /// A pixel array does not match the stated dimensions, or another invalid argument.
        case invalidArgument
        /// libpng could not allocate memory.
        case outOfMemory
    }

    /// The file path or buffer name the error concerns.
    public let file: String
    /// The category of the failure.
    public let kind: Kind
    /// A human-readable reason, without the file name.
    public let reason: String

    /// Creates an error for `file`.
    public init(file: String, kind: Kind, reason: String) {
        self.file = file
        self.kind = kind
        self.reason = reason
    }

    /// `"<file>: <reason>"`.
    public var description: String { "\(file): \(reason)" }
}

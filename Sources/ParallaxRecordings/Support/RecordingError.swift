/// An error found while reading or writing a ROS 1 bag or an MCAP file.
///
/// The description names the file first, then where in it the problem sits: the topic and the
/// message index (0-based, counted per topic) when the problem belongs to a message, and the byte
/// offset of the record, so `xxd -s OFFSET` shows the damage.
public struct RecordingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, for callers that react to the category rather than the message.
    public enum Kind: String, Sendable, Equatable {
        /// The file could not be opened, read or written.
        case io
        /// The file is not a bag or MCAP file (wrong magic, unsupported version).
        case format
        /// The file ends in the middle of a record or chunk.
        case truncated
        /// A record or chunk is structurally wrong (a length that does not fit, a missing header field).
        case malformed
        /// A chunk's or the data section's CRC-32 does not match its contents.
        case checksum
        /// A chunk uses a compression this reader does not know.
        case unsupportedCompression
        /// A message definition cannot be parsed or uses a type that is not defined.
        case definition
        /// A message does not match its definition (too short, a length past the end).
        case message
        /// A topic was asked for that the file does not hold, or holds with the wrong type.
        case topic
        /// An image message has an encoding, size or payload that cannot be decoded.
        case image
        /// A writer was asked to do something inconsistent.
        case invalidArgument
    }

    /// The category.
    public let kind: Kind
    /// The file's path as the user gave it.
    public let file: String
    /// The topic the problem belongs to, when there is one.
    public let topic: String?
    /// The 0-based index of the message within its topic, when known.
    public let messageIndex: Int?
    /// The byte offset of the record (or chunk) in the file, when known.
    public let offset: UInt64?
    /// The explanation, without the location prefix.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, file: String, topic: String? = nil, messageIndex: Int? = nil, offset: UInt64? = nil,
                _ message: String) {
        self.kind = kind
        self.file = file
        self.topic = topic
        self.messageIndex = messageIndex
        self.offset = offset
        self.message = message
    }

    /// The same error with a topic and message index attached (kept when already set).
    func located(topic: String?, messageIndex: Int?) -> RecordingError {
        RecordingError(kind, file: file, topic: self.topic ?? topic, messageIndex: self.messageIndex ?? messageIndex,
                       offset: offset, message)
    }

    /// `file: topic /imu0, message 12, offset 4096: message`.
    public var description: String {
        var location: [String] = []
        if let topic { location.append("topic \(topic)") }
        if let messageIndex { location.append("message \(messageIndex)") }
        if let offset { location.append("offset \(offset)") }
        let at = location.isEmpty ? "" : " (" + location.joined(separator: ", ") + ")"
        return "\(file)\(at): \(message)"
    }
}

/// A problem inside a byte buffer, before the reader knows which file or record it belongs to;
/// the format readers turn it into a ``RecordingError`` with the location.
struct ByteError: Error, CustomStringConvertible {
    /// True when the buffer ended early (as opposed to holding a bad value).
    let truncated: Bool
    let description: String
}

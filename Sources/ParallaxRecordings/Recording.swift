import Foundation

/// The container formats Parallax reads and writes.
public enum RecordingFormat: String, Sendable, CaseIterable {
    /// ROS 1 bag, format version 2.0.
    case rosbag
    /// MCAP.
    case mcap

    /// The format a path's extension names (`.bag`, `.mcap`), or nil.
    public init?(path: String) {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "bag": self = .rosbag
        case "mcap": self = .mcap
        default: return nil
        }
    }

    /// The format a file's first bytes show, or nil.
    public static func sniff(_ url: URL) -> RecordingFormat? {
        guard let file = try? FileInput(url: url), let head = try? file.read(at: 0, count: 13) else { return nil }
        if head.starts(with: BagFormat.magic) { return .rosbag }
        if head.starts(with: MCAPFormat.magic) { return .mcap }
        return nil
    }
}

/// A topic as a recording declares it: a bag connection or an MCAP channel with its schema.
public struct RecordingChannel: Sendable, Equatable {
    /// The connection or channel id.
    public let id: Int
    /// The topic name.
    public let topic: String
    /// The message type, normalized to `package/Type` (`sensor_msgs/Imu`).
    public let type: String
    /// The message encoding name as stored (`ros1`, `cdr`, …).
    public let encodingName: String
    /// The definition text the file carries (empty when it carries none).
    public let definition: String

    /// The encoding when Parallax can decode it.
    public var encoding: MessageEncoding? { MessageEncoding(rawValue: encodingName) }
}

/// One message as stored: the raw serialized bytes and their times.
public struct RecordedMessage: Sendable {
    /// The connection or channel id (see ``RecordingChannel``).
    public let channel: Int
    /// The recording (log) time in nanoseconds.
    public let logTimeNs: Int64
    /// The serialized message.
    public let data: [UInt8]
}

/// What to do when the file is damaged part-way (truncated chunk, bad CRC, a record cut short).
public enum DamagePolicy: Sendable, Equatable {
    /// Throw a ``RecordingError`` naming the file, topic and message.
    case fail
    /// Stop at the damage, keep what came before and add a warning (``RecordingReader/warnings``).
    case stopWithWarning
}

/// A message stream over a bag or MCAP file: one pass, front to back, one chunk in memory at a time.
public protocol RecordingReader: AnyObject {
    /// The file's path as given.
    var path: String { get }
    /// The container format.
    var format: RecordingFormat { get }
    /// The channels known so far (all of them up front when the file has an index or summary;
    /// otherwise they appear as the stream reaches them).
    var channels: [Int: RecordingChannel] { get }
    /// True when the channel list came from an index or summary (complete before streaming).
    var hasIndex: Bool { get }
    /// Problems that did not stop reading (an unreadable index, damage skipped under ``DamagePolicy/stopWithWarning``).
    var warnings: [String] { get }
    /// The next message in file order, or nil at the end.
    func next() throws -> RecordedMessage?
}

/// Opening recordings by path.
public enum Recordings {
    /// Opens a bag or MCAP file, recognised by its first bytes.
    public static func open(_ url: URL, damage: DamagePolicy = .fail) throws -> any RecordingReader {
        switch RecordingFormat.sniff(url) {
        case .rosbag: return try BagReader(url: url, damage: damage)
        case .mcap: return try MCAPReader(url: url, damage: damage)
        case nil:
            _ = try FileInput(url: url)  // a missing file gets the open error
            throw RecordingError(.format, file: url.path, "not a ROS 1 bag (v2.0) or an MCAP file")
        }
    }

    /// Every channel of the file: straight from the index or summary when there is one, otherwise
    /// from a full pass (which stops at damage under ``DamagePolicy/stopWithWarning``).
    public static func channels(_ url: URL, damage: DamagePolicy = .fail) throws -> [RecordingChannel] {
        let reader = try open(url, damage: damage)
        if !reader.hasIndex { while try reader.next() != nil {} }
        return reader.channels.values.sorted { $0.id < $1.id }
    }
}

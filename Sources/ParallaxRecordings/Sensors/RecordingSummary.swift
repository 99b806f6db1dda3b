import Foundation

/// What a bag or MCAP file holds, per topic: type, encoding, message count and rate, from one
/// pass over the messages (constant memory).
public struct RecordingSummary: Sendable, Encodable {
    /// One topic's figures.
    public struct Topic: Sendable, Encodable, Equatable {
        /// The topic name.
        public var topic: String
        /// The message type (`sensor_msgs/Imu`).
        public var type: String
        /// The message encoding (`ros1`, `cdr`).
        public var encoding: String
        /// Messages on the topic.
        public var messages: Int
        /// Messages per second between the topic's first and last log time (nil with fewer than two).
        public var rateHz: Double?
        /// The first and last log time, ns.
        public var firstNs: Int64?, lastNs: Int64?
    }

    /// The file's path.
    public var file: String
    /// `rosbag` or `mcap`.
    public var format: String
    /// The file size in bytes.
    public var bytes: UInt64
    /// Topics sorted by name.
    public var topics: [Topic]
    /// Problems that did not stop reading.
    public var warnings: [String]

    /// Reads every message of `url` once.
    public init(url: URL, damage: DamagePolicy = .fail) throws {
        let reader = try Recordings.open(url, damage: damage)
        var counts: [Int: (n: Int, first: Int64, last: Int64)] = [:]
        while let m = try reader.next() {
            if let c = counts[m.channel] {
                counts[m.channel] = (c.n + 1, min(c.first, m.logTimeNs), max(c.last, m.logTimeNs))
            } else {
                counts[m.channel] = (1, m.logTimeNs, m.logTimeNs)
            }
        }
        file = url.path
        format = reader.format.rawValue
        bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? UInt64) ?? 0
        warnings = reader.warnings
        topics = reader.channels.values.map { c in
            let n = counts[c.id]
            let span = n.map { Double($0.last - $0.first) / 1e9 } ?? 0
            let rate = (n?.n ?? 0) >= 2 && span > 0 ? Double((n?.n ?? 1) - 1) / span : nil
            return Topic(topic: c.topic, type: c.type, encoding: c.encodingName, messages: n?.n ?? 0, rateHz: rate,
                         firstNs: n?.first, lastNs: n?.last)
        }.sorted { ($0.topic, $0.type) < ($1.topic, $1.type) }
    }

    /// A table: one line per topic, then the duration and any warnings.
    public var text: String {
        var lines = ["\(file): \(format == "rosbag" ? "ROS 1 bag" : "MCAP"), \(bytes) bytes, \(topics.count) topics"]
        let width = topics.map(\.topic.count).max() ?? 5
        for t in topics {
            let rate = t.rateHz.map { String(format: "%8.2f Hz", $0) } ?? "       - Hz"
            lines.append("  " + t.topic.padding(toLength: width, withPad: " ", startingAt: 0)
                         + "  \(String(format: "%7d", t.messages)) msgs  \(rate)  \(t.type) (\(t.encoding))")
        }
        let firsts = topics.compactMap(\.firstNs), lasts = topics.compactMap(\.lastNs)
        if let a = firsts.min(), let b = lasts.max() {
            lines.append(String(format: "duration %.3f s (log time %lld … %lld ns)", Double(b - a) / 1e9, a, b))
        }
        lines += warnings.map { "warning: \($0)" }
        return lines.joined(separator: "\n")
    }
}

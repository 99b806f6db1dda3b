/// Which topics of a recording carry the IMU and the cameras, given by flags
/// (`--imu-topic`, `--camera-topic` once per camera) or found by type when that is unambiguous.
public struct TopicSelection: Sendable, Equatable {
    /// The IMU topic, or nil to find the one `sensor_msgs/Imu` topic.
    public var imuTopic: String?
    /// The camera topics in camera order (cam0 first), or empty to find them.
    public var cameraTopics: [String]

    /// Creates a selection; the defaults detect everything.
    public init(imuTopic: String? = nil, cameraTopics: [String] = []) {
        self.imuTopic = imuTopic
        self.cameraTopics = cameraTopics
    }

    /// The message types a camera topic may have.
    public static let imageTypes = [StandardMessageType.image.rawValue, StandardMessageType.compressedImage.rawValue]

    /// The channels chosen from `channels` (those of one file, `file` for messages).
    public func resolve(_ channels: [RecordingChannel], file: String) throws -> ResolvedTopics {
        let byTopic = Dictionary(channels.map { ($0.topic, $0) }, uniquingKeysWith: { a, _ in a })
        func listing(_ cs: [RecordingChannel]) -> String {
            cs.isEmpty ? "none" : cs.map { "\($0.topic) (\($0.type))" }.sorted().joined(separator: ", ")
        }
        func named(_ topic: String, types: [String], flag: String) throws -> RecordingChannel {
            guard let c = byTopic[topic] else {
                throw RecordingError(.topic, file: file, topic: topic,
                                     "\(flag) \(topic): no such topic (the file has \(listing(channels)))")
            }
            guard types.contains(c.type) else {
                throw RecordingError(.topic, file: file, topic: topic,
                                     "\(flag) \(topic) has type \(c.type.isEmpty ? "unknown" : c.type), expected \(types.joined(separator: " or "))")
            }
            return c
        }
        let imu: RecordingChannel
        if let imuTopic {
            imu = try named(imuTopic, types: [StandardMessageType.imu.rawValue], flag: "--imu-topic")
        } else {
            let candidates = channels.filter { $0.type == StandardMessageType.imu.rawValue }
            guard candidates.count == 1 else {
                throw RecordingError(.topic, file: file, candidates.isEmpty
                    ? "no sensor_msgs/Imu topic (the file has \(listing(channels)))"
                    : "several sensor_msgs/Imu topics (\(listing(candidates))): choose one with --imu-topic")
            }
            imu = candidates[0]
        }
        var cameras: [RecordingChannel] = []
        if !cameraTopics.isEmpty {
            guard Set(cameraTopics).count == cameraTopics.count else {
                throw RecordingError(.topic, file: file, "--camera-topic names the same topic twice")
            }
            cameras = try cameraTopics.map { try named($0, types: Self.imageTypes, flag: "--camera-topic") }
        } else {
            let candidates = channels.filter { Self.imageTypes.contains($0.type) }
            cameras = try Self.orderCameras(candidates, file: file, listing: listing(candidates))
        }
        guard (1...2).contains(cameras.count) else {
            throw RecordingError(.topic, file: file, "\(cameras.count) camera topics chosen; tracking takes one or two")
        }
        return ResolvedTopics(imu: imu, cameras: cameras)
    }

    /// One image topic, or two or more whose names carry distinct camera numbers (`/cam0/…`, `/cam1/…`).
    private static func orderCameras(_ cs: [RecordingChannel], file: String, listing: String) throws -> [RecordingChannel] {
        guard !cs.isEmpty else { throw RecordingError(.topic, file: file, "no sensor_msgs/Image or CompressedImage topic") }
        if cs.count == 1 { return cs }
        let numbered = cs.compactMap { c in cameraNumber(c.topic).map { ($0, c) } }
        guard numbered.count == cs.count, Set(numbered.map(\.0)).count == cs.count, cs.count <= 2 else {
            throw RecordingError(.topic, file: file,
                                 "several image topics (\(listing)): choose with --camera-topic, once per camera, cam0 first")
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The N of a `camN` path component, if any.
    static func cameraNumber(_ topic: String) -> Int? {
        for part in topic.split(separator: "/") where part.hasPrefix("cam") {
            if let n = Int(part.dropFirst(3)) { return n }
        }
        return nil
    }
}

/// The IMU and camera channels a replay reads.
public struct ResolvedTopics: Sendable, Equatable {
    /// The IMU channel.
    public let imu: RecordingChannel
    /// Camera channels in camera order.
    public let cameras: [RecordingChannel]
}

import Foundation
import ParallaxDatasets
import ParallaxImaging

/// A camera image from a recording, decoded on demand (``load()``).
public struct RecordedImage: Sendable {
    /// The camera's index in the selection (0 = cam0).
    public let camera: Int
    /// The topic it came from.
    public let topic: String
    /// The 0-based index of the message within its topic.
    public let messageIndex: Int
    /// The header stamp in nanoseconds.
    public let timestampNs: Int64
    /// The payload.
    public let payload: Payload
    /// The file, for messages.
    public let file: String

    /// Raw pixels or a compressed file.
    public enum Payload: Sendable {
        case raw(ImageMessage)
        case compressed(CompressedImageMessage)
    }

    /// Decodes the pixels; errors name the file, topic and message index.
    public func load() throws -> AnyImage {
        do {
            switch payload {
            case .raw(let m): return try m.image()
            case .compressed(let m): return try m.image()
            }
        } catch {
            throw RecordingError(.image, file: file, topic: topic, messageIndex: messageIndex, error.description)
        }
    }
}

/// One sensor reading from a recording, in file order.
public enum SensorReading: Sendable {
    case imu(IMUSample)
    case image(RecordedImage)
}

/// Streams the selected IMU and camera topics of a bag or MCAP file as samples and images,
/// decoding each message through the definition its channel carries.
public final class SensorStream {
    /// The underlying reader.
    public let reader: any RecordingReader
    /// The chosen topics.
    public let topics: ResolvedTopics
    private var codecs: [Int: MessageCodec] = [:]
    private var indices: [Int: Int] = [:]
    private let cameraOfChannel: [Int: Int]

    /// Opens `url` and resolves `selection` against its channels (a full pass first when the file
    /// has no index or summary to list them).
    public convenience init(url: URL, selection: TopicSelection = TopicSelection(), damage: DamagePolicy = .fail) throws {
        let channels = try Recordings.channels(url, damage: damage)
        try self.init(url: url, topics: try selection.resolve(channels, file: url.path), damage: damage)
    }

    /// Opens `url` to read `topics`, already resolved against the file's channels.
    public init(url: URL, topics: ResolvedTopics, damage: DamagePolicy = .fail) throws {
        self.topics = topics
        reader = try Recordings.open(url, damage: damage)
        var cameras: [Int: Int] = [:]
        for (i, c) in topics.cameras.enumerated() { cameras[c.id] = i }
        cameraOfChannel = cameras
    }

    /// Problems that did not stop reading.
    public var warnings: [String] { reader.warnings }

    /// The codec for `channel`, built from its definition on first use.
    static func codec(for channel: RecordingChannel, file: String) throws -> MessageCodec {
        guard let encoding = channel.encoding else {
            throw RecordingError(.definition, file: file, topic: channel.topic,
                                 "message encoding '\(channel.encodingName)' is not supported (ros1 and cdr are)")
        }
        guard !channel.definition.isEmpty else {
            throw RecordingError(.definition, file: file, topic: channel.topic, "the file carries no message definition for \(channel.type)")
        }
        do {
            return MessageCodec(schema: try MessageSchema(typeName: channel.type, text: channel.definition, version: encoding.rosVersion),
                                encoding: encoding)
        } catch {
            throw RecordingError(.definition, file: file, topic: channel.topic, "definition of \(channel.type): \(error)")
        }
    }

    /// The next IMU sample or camera image, or nil at the end.
    public func next() throws -> SensorReading? {
        while let m = try reader.next() {
            let isIMU = m.channel == topics.imu.id
            guard isIMU || cameraOfChannel[m.channel] != nil, let channel = reader.channels[m.channel] else { continue }
            let index = indices[m.channel, default: 0]
            indices[m.channel] = index + 1
            let fields = try decode(m, channel: channel, index: index)
            do {
                if isIMU { return .imu(try ImuMessage(fields).sample) }
                let payload: RecordedImage.Payload = channel.type == StandardMessageType.image.rawValue
                    ? .raw(try ImageMessage(fields)) : .compressed(try CompressedImageMessage(fields))
                let stamp: Int64
                switch payload {
                case .raw(let r): stamp = r.header.stampNs
                case .compressed(let c): stamp = c.header.stampNs
                }
                return .image(RecordedImage(camera: cameraOfChannel[m.channel]!, topic: channel.topic, messageIndex: index,
                                            timestampNs: stamp, payload: payload, file: reader.path))
            } catch let e as FieldError {
                throw RecordingError(.message, file: reader.path, topic: channel.topic, messageIndex: index, "\(channel.type) \(e.description)")
            }
        }
        return nil
    }

    private func decode(_ m: RecordedMessage, channel: RecordingChannel, index: Int) throws -> MessageFields {
        let codec: MessageCodec
        if let c = codecs[m.channel] { codec = c } else {
            codec = try Self.codec(for: channel, file: reader.path)
            codecs[m.channel] = codec
        }
        do { return try codec.decode(m.data, 0..<m.data.count) } catch let e as ByteError {
            throw RecordingError(.message, file: reader.path, topic: channel.topic, messageIndex: index, "\(channel.type): \(e.description)")
        }
    }
}

import Foundation
import ParallaxDatasets
import ParallaxImaging

/// A ROS 1 bag or an MCAP file as a ``SensorSource``: the IMU topic and one or two camera topics
/// replay like an EuRoC folder, with the calibration supplied separately (recordings carry none).
///
/// Messages are read in file order and re-sorted by header stamp through a short reorder window
/// (``reorderWindowNs``), so drivers that log a little late or out of order still give the
/// time order the ``SensorSource`` contract promises; stereo images with equal stamps pair up.
/// A message older than one already delivered is dropped and counted in
/// ``SensorEventIterator/diagnostics``. Recordings carry no ground truth here.
public final class RecordingSource: SensorSource {
    /// The file as given.
    public let url: URL
    /// The topics read.
    public let topics: ResolvedTopics
    /// Camera calibrations (cam0, then cam1), one per camera topic.
    public let cameras: [CameraCalibration]
    /// The IMU calibration.
    public let imu: IMUCalibration
    /// What to do at damage part-way through the file.
    public let damage: DamagePolicy
    /// How far (ns of header stamps) a message may arrive behind a newer one and still be put in order.
    public let reorderWindowNs: Int64
    private var cachedStart: Int64??

    /// Opens `url` and chooses its topics.
    ///
    /// - Parameters:
    ///   - calibration: the sensors; its topics (Kalibr `rostopic`) are used when `selection` names none.
    ///   - selection: `--imu-topic` / `--camera-topic`; empty parts are found by message type.
    ///   - damage: ``DamagePolicy/stopWithWarning`` replays up to the damage with a warning.
    /// - Throws: ``RecordingError`` for an unreadable file or ambiguous, missing or mistyped topics
    ///   (the message lists the file's topics); ``DatasetError`` when the calibration has fewer
    ///   cameras than topics were chosen.
    public init(url: URL, calibration: RecordingCalibration, selection: TopicSelection = TopicSelection(),
                damage: DamagePolicy = .fail, reorderWindowNs: Int64 = 500_000_000) throws {
        var chosen = selection
        if chosen.imuTopic == nil { chosen.imuTopic = calibration.imuTopic }
        let calibratedTopics = calibration.cameraTopics.compactMap { $0 }
        if chosen.cameraTopics.isEmpty && calibratedTopics.count == calibration.cameras.count {
            chosen.cameraTopics = calibratedTopics
        }
        let channels = try Recordings.channels(url, damage: damage)
        var resolved = try chosen.resolve(channels, file: url.path)
        if resolved.cameras.count > calibration.cameras.count && selection.cameraTopics.isEmpty {
            // Found by type: keep as many as the calibration describes (cam0 first).
            resolved = ResolvedTopics(imu: resolved.imu, cameras: Array(resolved.cameras.prefix(calibration.cameras.count)))
        }
        guard resolved.cameras.count <= calibration.cameras.count else {
            throw DatasetError(.calibration, file: url.path,
                               "\(resolved.cameras.count) camera topics (\(resolved.cameras.map(\.topic).joined(separator: ", "))) "
                                   + "but the calibration describes \(calibration.cameras.count) camera(s)")
        }
        self.url = url
        topics = resolved
        cameras = Array(calibration.cameras.prefix(resolved.cameras.count))
        imu = calibration.imu
        self.damage = damage
        self.reorderWindowNs = reorderWindowNs
    }

    /// The file's path.
    public var origin: String { url.path }
    /// `<file> <topic>`.
    public func origin(ofCamera index: Int) -> String {
        "\(url.path) \(topics.cameras.indices.contains(index) ? topics.cameras[index].topic : "cam\(index)")"
    }
    /// `<file> <imu topic>`.
    public var imuOrigin: String { "\(url.path) \(topics.imu.topic)" }
    /// False: ground-truth topics are not read.
    public var hasGroundTruth: Bool { false }
    /// nil: no ground truth.
    public var groundTruthOrigin: String? { nil }
    /// Empty: no ground truth.
    public func groundTruth() throws -> [GroundTruthState] { [] }

    /// The earliest IMU or camera header stamp (read once, from the start of the file).
    public func startTimestampNs() throws -> Int64? {
        if let cachedStart { return cachedStart }
        let first = try RecordingEventIterator(source: self, windowNs: nil).next()?.timestampNs
        cachedStart = .some(first)
        return first
    }

    /// A pass over the file; see the ``SensorSource`` contract.
    public func makeEvents(from: Double?, to: Double?, includeGroundTruth: Bool) throws -> any SensorEventIterator {
        var window: ClosedRange<Int64>?
        if from != nil || to != nil, let start = try startTimestampNs() {
            let lo = from.map { start + Int64(($0 * 1e9).rounded()) } ?? .min
            let hi = to.map { start + Int64(($0 * 1e9).rounded()) } ?? .max
            window = lo <= hi ? lo...hi : hi...hi
        }
        return try RecordingEventIterator(source: self, windowNs: window)
    }

    /// Opens a fresh message stream over the chosen topics.
    func openStream() throws -> SensorStream {
        try SensorStream(url: url, topics: topics, damage: damage)
    }
}

/// Decodes a compressed image message's payload (PNG or JPEG, recognised by its first bytes).
public struct CompressedImageDecoder: ImageDecoder {
    /// The payload's format: `png` or `jpeg`.
    public let format: String

    /// The decoder for `bytes`, or nil when they are neither PNG nor JPEG.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { format = "png" }
        else if bytes.starts(with: [0xFF, 0xD8]) { format = "jpeg" }
        else { return nil }
    }

    /// Decodes through ``CompressedImageMessage/image()``.
    public func decode(_ bytes: [UInt8], name: String) throws -> AnyImage {
        try CompressedImageMessage(header: MessageHeader(stampNs: 0, frameId: ""), format: format, data: bytes).image()
    }
}

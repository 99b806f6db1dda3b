import Foundation
import ParallaxDatasets
import ParallaxImaging

/// How images are stored when a source is written to a bag or MCAP file.
public enum RecordedImageStorage: String, Sendable, CaseIterable {
    /// `sensor_msgs/Image` with raw pixels (`mono8`, `mono16`, `rgb8`, `rgba8`): what EuRoC's bags hold.
    case raw
    /// `sensor_msgs/CompressedImage` holding a PNG (lossless; a PNG file of the source is copied byte for byte).
    case png
}

/// What a conversion wrote.
public struct ConversionCounts: Sendable, Equatable {
    /// IMU samples written.
    public var imuSamples = 0
    /// Images written, per camera.
    public var images: [Int] = []
}

/// Copies sensor sources between EuRoC/ASL folders, ROS 1 bags and MCAP files.
///
/// Timestamps are kept to the nanosecond and IMU values bit for bit, and images are stored
/// losslessly, so a folder converted to a recording replays exactly like the folder.
public enum RecordingConversion {
    /// The topics written: `/imu0`, `/cam0/image_raw`, `/cam1/image_raw` (EuRoC's bag names).
    public static let imuTopic = "/imu0"
    /// The camera topic of camera `index`.
    public static func cameraTopic(_ index: Int) -> String { "/cam\(index)/image_raw" }

    /// Writes every IMU sample and image of `source` to `writer` (log time = header stamp) and finishes it.
    public static func write(_ source: any SensorSource, to writer: any RecordingWriter,
                             images: RecordedImageStorage = .raw) throws -> ConversionCounts {
        let version = writer.messageEncoding.rosVersion
        let imageType: StandardMessageType = images == .raw ? .image : .compressedImage
        let imuCodec = MessageCodec(schema: StandardMessageType.imu.schema(version), encoding: writer.messageEncoding)
        let imageCodec = MessageCodec(schema: imageType.schema(version), encoding: writer.messageEncoding)
        let imuChannel = try writer.addChannel(topic: imuTopic, type: .imu)
        let cameraChannels = try source.cameras.indices.map { try writer.addChannel(topic: cameraTopic($0), type: imageType) }
        var counts = ConversionCounts(imuSamples: 0, images: Array(repeating: 0, count: source.cameras.count))
        let events = try source.makeEvents(from: nil, to: nil, includeGroundTruth: false)
        while let event = try events.next() {
            switch event {
            case .imu(let s):
                let message = ImuMessage(header: MessageHeader(stampNs: s.timestampNs, frameId: "imu0"),
                                         angularVelocity: s.angularVelocity, linearAcceleration: s.acceleration)
                let seq = UInt32(truncatingIfNeeded: counts.imuSamples)
                try writer.write(channel: imuChannel, logTimeNs: s.timestampNs, data: try imuCodec.encode(message.fields(version, seq: seq)))
                counts.imuSamples += 1
            case .frame(let f):
                for (index, frame) in [f.cam0, f.cam1].enumerated() {
                    guard let frame, index < cameraChannels.count else { continue }
                    let header = MessageHeader(stampNs: f.timestampNs, frameId: "cam\(index)")
                    let seq = UInt32(truncatingIfNeeded: counts.images[index])
                    let fields = try imageFields(frame, header: header, storage: images, version: version, seq: seq)
                    try writer.write(channel: cameraChannels[index], logTimeNs: f.timestampNs, data: try imageCodec.encode(fields))
                    counts.images[index] += 1
                }
            case .groundTruth:
                continue
            }
        }
        try writer.finish()
        return counts
    }

    /// The message fields of one camera frame.
    private static func imageFields(_ frame: CameraFrame, header: MessageHeader, storage: RecordedImageStorage,
                                    version: ROSVersion, seq: UInt32) throws -> MessageFields {
        switch storage {
        case .raw:
            let image = try frame.loadImage()
            do { return try ImageMessage(header: header, image: image).fields(version, seq: seq) } catch {
                throw DatasetError(.badImage, file: frame.displayPath, "cannot store as sensor_msgs/Image: \(error)")
            }
        case .png:
            let bytes: [UInt8]
            switch frame.content {
            case .file:
                _ = try frame.checkHeader()  // the size must match the calibration, as for raw images
                do { bytes = [UInt8](try Data(contentsOf: frame.url)) } catch {
                    throw DatasetError(.io, file: frame.displayPath, "cannot read image: \(error.localizedDescription)")
                }
            case .encoded(let e) where e.decoder.format == "png":
                bytes = e.bytes
            default:
                bytes = try PNG.encode(try frame.loadImage())
            }
            return CompressedImageMessage(header: header, format: "png", data: bytes).fields(version, seq: seq)
        }
    }

    /// Writes every IMU sample and image of `source` as an EuRoC/ASL folder at `url` (the folder
    /// that will hold `mav0`), with `sensor.yaml` files from the source's calibration.
    public static func writeFolder(_ source: any SensorSource, to url: URL, overwrite: Bool = false) throws -> ConversionCounts {
        let writer = try EuRoCWriter(url: url, cameras: source.cameras, imu: source.imu, overwrite: overwrite)
        var counts = ConversionCounts(imuSamples: 0, images: Array(repeating: 0, count: source.cameras.count))
        let events = try source.makeEvents(from: nil, to: nil, includeGroundTruth: false)
        while let event = try events.next() {
            switch event {
            case .imu(let s):
                try writer.append(s)
                counts.imuSamples += 1
            case .frame(let f):
                for (index, frame) in [f.cam0, f.cam1].enumerated() {
                    guard let frame, index < source.cameras.count else { continue }
                    if case .encoded(let e) = frame.content, e.decoder.format == "png" {
                        // Keep the PNG as recorded rather than re-encoding it.
                        try writePNG(e.bytes, frame: frame, writer: writer, camera: index)
                    } else {
                        try writer.appendImage(try frame.loadImage(), camera: index, timestampNs: f.timestampNs)
                    }
                    counts.images[index] += 1
                }
            case .groundTruth:
                continue
            }
        }
        try writer.finish()
        return counts
    }

    /// Writes PNG bytes through a temporary file, which ``EuRoCWriter`` copies as is.
    private static func writePNG(_ bytes: [UInt8], frame: CameraFrame, writer: EuRoCWriter, camera: Int) throws {
        _ = try frame.loadImage()  // checks decodability and the calibrated size
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-convert-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do { try Data(bytes).write(to: temporary) } catch {
            throw DatasetError(.io, file: temporary.path, "cannot write a temporary image: \(error.localizedDescription)")
        }
        try writer.appendImageFile(copying: temporary, camera: camera, timestampNs: frame.timestampNs)
    }
}

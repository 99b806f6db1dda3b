import Foundation
import ParallaxDatasets
import ParallaxImaging
import ParallaxMath
@testable import ParallaxRecordings

/// Shared helpers: temporary folders, the committed fixtures, and a small deterministic recording.
enum RecordingFixtures {
    /// `Tests/ParallaxRecordingsTests/Fixtures` in the source tree.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A fresh empty temporary folder.
    static func temporaryFolder(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("parallax-recordings-\(safe)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// IMU sample `i` of the synthetic recording (200 Hz from t = 1 s, values with full binary fractions).
    static func imu(_ i: Int) -> IMUSample {
        let t = Double(i) * 0.005
        return IMUSample(timestampNs: 1_000_000_000 + Int64(i) * 5_000_000,
                         angularVelocity: Vector3(0.1 * sin(t), 0.2 * cos(t), -0.05 + 0.001 * Double(i)),
                         acceleration: Vector3(0.3 * cos(2 * t), 9.81 + 0.01 * sin(t), -0.2))
    }

    /// Grey image `i` (32×24, a moving gradient).
    static func gray(_ i: Int, width: Int = 32, height: Int = 24) -> GrayImage {
        GrayImage(width: width, height: height) { x, y in UInt8(truncatingIfNeeded: x * 7 + y * 3 + i * 11) }
    }

    /// Camera frame times: 20 Hz from t = 1 s.
    static func frameTime(_ i: Int) -> Int64 { 1_000_000_000 + Int64(i) * 50_000_000 }

    /// Writes `imuCount` IMU samples and `frames` mono8 frames on /imu0 and /cam0/image_raw (and
    /// /cam1/image_raw when `stereo`), interleaved in time order, then finishes.
    static func writeSynthetic(_ writer: any RecordingWriter, imuCount: Int = 200, frames: Int = 20, stereo: Bool = false) throws {
        let version = writer.messageEncoding.rosVersion
        let imuSchema = StandardMessageType.imu.schema(version), imageSchema = StandardMessageType.image.schema(version)
        let imuCodec = MessageCodec(schema: imuSchema, encoding: writer.messageEncoding)
        let imageCodec = MessageCodec(schema: imageSchema, encoding: writer.messageEncoding)
        let imuID = try writer.addChannel(topic: "/imu0", type: .imu)
        var cams = [try writer.addChannel(topic: "/cam0/image_raw", type: .image)]
        if stereo { cams.append(try writer.addChannel(topic: "/cam1/image_raw", type: .image)) }
        var i = 0, f = 0
        while i < imuCount || f < frames {
            if f < frames && (i >= imuCount || frameTime(f) <= imu(i).timestampNs) {
                for (c, id) in cams.enumerated() {
                    let msg = try ImageMessage(header: MessageHeader(stampNs: frameTime(f), frameId: "cam\(c)"),
                                               image: .gray8(gray(f + 100 * c)))
                    try writer.write(channel: id, logTimeNs: frameTime(f), data: try imageCodec.encode(msg.fields(version, seq: UInt32(f))))
                }
                f += 1
            } else {
                let s = imu(i)
                let msg = ImuMessage(header: MessageHeader(stampNs: s.timestampNs, frameId: "imu0"),
                                     angularVelocity: s.angularVelocity, linearAcceleration: s.acceleration)
                try writer.write(channel: imuID, logTimeNs: s.timestampNs, data: try imuCodec.encode(msg.fields(version, seq: UInt32(i))))
                i += 1
            }
        }
        try writer.finish()
    }

    /// Every reading of `url` as IMU samples and decoded grey frames per camera.
    static func readAll(_ url: URL, selection: TopicSelection = TopicSelection(), damage: DamagePolicy = .fail) throws
        -> (imu: [IMUSample], frames: [[(Int64, GrayImage)]], warnings: [String])
    {
        let stream = try SensorStream(url: url, selection: selection, damage: damage)
        var imu: [IMUSample] = []
        var frames = [[(Int64, GrayImage)]](repeating: [], count: stream.topics.cameras.count)
        while let r = try stream.next() {
            switch r {
            case .imu(let s): imu.append(s)
            case .image(let im): frames[im.camera].append((im.timestampNs, try im.load().toGray8()))
            }
        }
        return (imu, frames, stream.warnings)
    }
}

import Foundation
import ParallaxDatasets
import ParallaxImaging
import Testing
@testable import ParallaxRecordings

/// An EuRoC folder converted to a bag and to MCAP replays as the same events (timestamps to the
/// nanosecond, IMU values bit for bit, identical pixels), and a recording's problems are named.
@Suite struct RecordingSourceTests {
    /// The real EuRoC snippet in `../shared` beside the repository.
    static let micro = RecordingFixtures.folder.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/datasets/euroc-v101-micro")
    static var hasMicro: Bool { FileManager.default.fileExists(atPath: micro.appendingPathComponent("mav0").path) }

    /// The events of `source` with images decoded to grey (comparable across storage kinds).
    static func events(_ source: any SensorSource, from: Double? = nil, to: Double? = nil) throws -> [String] {
        var out: [String] = []
        let it = try source.makeEvents(from: from, to: to, includeGroundTruth: false)
        while let e = try it.next() {
            switch e {
            case .imu(let s): out.append("imu \(s.timestampNs) \(s.angularVelocity) \(s.acceleration)")
            case .frame(let f):
                let hashes = try [f.cam0, f.cam1].map { try $0.map { try $0.loadGray8().pixels.hashValue } }
                out.append("frame \(f.timestampNs) \(hashes)")
            case .groundTruth: break
            }
        }
        return out
    }

    @Test(.enabled(if: hasMicro, "needs ../shared/datasets/euroc-v101-micro"),
          arguments: ["v.bag", "v.mcap", "png.mcap", "ros1.mcap"])
    func folderConvertedReplaysIdentically(_ name: String) throws {
        let folder = try EuRoCDataset(url: Self.micro)
        let tmp = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let url = tmp.appendingPathComponent(name)
        let writer: any RecordingWriter = name.hasSuffix(".bag") ? try BagWriter(url: url, compression: .lz4)
            : try MCAPWriter(url: url, encoding: name == "ros1.mcap" ? .ros1 : .cdr, chunking: .zstd)
        let counts = try RecordingConversion.write(folder, to: writer, images: name == "png.mcap" ? .png : .raw)
        #expect(counts.imuSamples == 1341 && counts.images == [95, 95])
        let source = try RecordingSource(url: url, calibration: RecordingCalibration.load(cameras: Self.micro, imu: nil))
        #expect(source.cameras == folder.cameras)
        #expect(source.imu == folder.imu)
        #expect(try source.startTimestampNs() == folder.startTimestampNs())
        #expect(try Self.events(source) == Self.events(folder))
        #expect(try Self.events(source, from: 1, to: 2.5) == Self.events(folder, from: 1, to: 2.5))
        // And back to a folder: the same events again.
        let back = tmp.appendingPathComponent("back")
        _ = try RecordingConversion.writeFolder(source, to: back)
        #expect(try Self.events(EuRoCDataset(url: back)) == Self.events(folder))
    }

    @Test(.enabled(if: hasMicro, "needs ../shared/datasets/euroc-v101-micro"))
    func imageSizeDisagreeingWithCalibrationNamesFileTopicAndMessage() throws {
        let tmp = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let url = tmp.appendingPathComponent("v.bag")
        _ = try RecordingConversion.write(try EuRoCDataset(url: Self.micro), to: try BagWriter(url: url))
        // A calibration folder whose cam0 claims 640x480.
        let calib = tmp.appendingPathComponent("calib/mav0")
        for sensor in ["cam0", "imu0"] {
            try FileManager.default.createDirectory(at: calib.appendingPathComponent(sensor), withIntermediateDirectories: true)
            var text = try String(contentsOf: Self.micro.appendingPathComponent("mav0/\(sensor)/sensor.yaml"), encoding: .utf8)
            text = text.replacingOccurrences(of: "resolution: [752, 480]", with: "resolution: [640, 480]")
            try text.write(to: calib.appendingPathComponent("\(sensor)/sensor.yaml"), atomically: true, encoding: .utf8)
        }
        let source = try RecordingSource(url: url, calibration: RecordingCalibration.load(cameras: calib, imu: nil))
        #expect(source.cameras.count == 1)
        let error = #expect(throws: DatasetError.self) { _ = try Self.events(source) }
        let text = error?.description ?? ""
        #expect(text.contains(url.path) && text.contains("/cam0/image_raw") && text.contains("message 0"), "\(text)")
    }

    @Test func ambiguousAndMistypedTopicsListTheFile() throws {
        let tmp = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let url = tmp.appendingPathComponent("s.mcap")
        try RecordingFixtures.writeSynthetic(try MCAPWriter(url: url), imuCount: 20, frames: 2, stereo: true)
        let channels = try Recordings.channels(url)
        let wrongType = #expect(throws: RecordingError.self) {
            _ = try TopicSelection(imuTopic: "/cam0/image_raw").resolve(channels, file: url.path)
        }
        #expect(wrongType?.kind == .topic)
        #expect(wrongType?.description.contains("expected sensor_msgs/Imu") == true)
        let missing = #expect(throws: RecordingError.self) {
            _ = try TopicSelection(cameraTopics: ["/nope"]).resolve(channels, file: url.path)
        }
        #expect(missing?.description.contains("/imu0 (sensor_msgs/Imu)") == true)
        // Two image topics without camera numbers are ambiguous.
        let odd = tmp.appendingPathComponent("odd.bag")
        let w = try BagWriter(url: odd)
        _ = try w.addChannel(topic: "/imu", type: .imu)
        _ = try w.addChannel(topic: "/left", type: .image)
        _ = try w.addChannel(topic: "/right", type: .image)
        try w.finish()
        let ambiguous = #expect(throws: RecordingError.self) {
            _ = try TopicSelection().resolve(try Recordings.channels(odd), file: odd.path)
        }
        #expect(ambiguous?.description.contains("--camera-topic") == true)
        #expect(ambiguous?.description.contains("/left (sensor_msgs/Image)") == true)
    }

    @Test func summaryCountsTopicsAndRates() throws {
        let tmp = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let url = tmp.appendingPathComponent("s.bag")
        try RecordingFixtures.writeSynthetic(try BagWriter(url: url), imuCount: 200, frames: 20)
        let s = try RecordingSummary(url: url)
        #expect(s.topics.map(\.topic) == ["/cam0/image_raw", "/imu0"])
        #expect(s.topics.map(\.messages) == [20, 200])
        #expect(abs((s.topics[1].rateHz ?? 0) - 200) < 1e-9)
        #expect(abs((s.topics[0].rateHz ?? 0) - 20) < 1e-9)
        #expect(s.text.contains("sensor_msgs/Imu"))
    }
}

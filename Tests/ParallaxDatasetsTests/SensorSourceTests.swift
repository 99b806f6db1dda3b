import Foundation
import ParallaxImaging
import Testing
@testable import ParallaxDatasets

/// The bundled sample (`Datasets/sample`: 21 mono frames, IMU, ground truth).
enum SampleData {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Datasets/sample")

    static func events(_ it: any SensorEventIterator) throws -> [ReplayEvent] {
        var out: [ReplayEvent] = []
        while let e = try it.next() { out.append(e) }
        return out
    }
}

@Suite("Sensor sources: EuRoC folders, frames in memory, decoding ahead")
struct SensorSourceTests {
    @Test func euRoCSourceGivesExactlyTheReplayEvents() throws {
        let d = try EuRoCDataset(url: SampleData.url)
        let source: any SensorSource = d
        #expect(source.origin == d.mav0.path)
        #expect(source.hasGroundTruth && source.groundTruthOrigin == "mav0/state_groundtruth_estimate0/data.csv")
        #expect(source.origin(ofCamera: 0) == "mav0/cam0/data.csv" && source.imuOrigin == "mav0/imu0/data.csv")
        let viaSource = try SampleData.events(source.makeEvents(from: 0.2, to: 0.8, includeGroundTruth: true))
        let viaReplay = try SampleData.events(d.replay(from: 0.2, to: 0.8, includeGroundTruth: true).makeIterator())
        #expect(!viaSource.isEmpty && viaSource == viaReplay)
        // Contract: time order, IMU before the frame at equal times.
        for (a, b) in zip(viaSource, viaSource.dropFirst()) {
            #expect(EventKey(a) <= EventKey(b))
        }
    }

    @Test func framesInMemoryLoadLikeFiles() throws {
        let d = try EuRoCDataset(url: SampleData.url)
        guard let file = try d.cameraStream(0).next() else { Issue.record("sample has no frame"); return }
        let fromFile = try file.loadGray8()
        let bytes = [UInt8](try Data(contentsOf: file.url))
        let encoded = CameraFrame(camera: "cam0", timestampNs: file.timestampNs, content: .encoded(.png(bytes)),
                                  label: "memory png", expectedWidth: file.expectedWidth, expectedHeight: file.expectedHeight)
        #expect(try encoded.loadGray8() == fromFile)
        #expect(encoded.displayPath == "memory png")
        try encoded.checkHeader()
        let decoded = try file.decodedToGray8()
        #expect(decoded.content == .pixels(.gray8(fromFile)) && decoded != file)
        #expect(try decoded.loadGray8() == fromFile)
        // The size is checked against the calibration whatever holds the pixels.
        let small = CameraFrame(camera: "cam0", timestampNs: 1, content: .pixels(.gray8(GrayImage(width: 4, height: 4, fill: 0))),
                                label: "tiny", expectedWidth: file.expectedWidth, expectedHeight: file.expectedHeight)
        #expect(throws: DatasetError.self) { try small.loadGray8() }
        let garbage = CameraFrame(camera: "cam0", timestampNs: 1, content: .encoded(.png([1, 2, 3])), label: "garbage",
                                  expectedWidth: 4, expectedHeight: 4)
        let error = #expect(throws: DatasetError.self) { try garbage.loadGray8() }
        #expect(error?.description.contains("garbage") == true)
    }

    @Test func decodingAheadGivesTheSameEventsWithPixels() throws {
        let d = try EuRoCDataset(url: SampleData.url)
        let serial = try SampleData.events(d.makeEvents())
        // A tiny queue forces the producer to wait often.
        for (frames, events) in [(1, 1), (4, 512)] {
            let ahead = DecodeAheadIterator(try d.makeEvents(), cameras: [0, 1], maxFrames: frames, maxEvents: events)
            let got = try SampleData.events(ahead)
            #expect(got.count == serial.count)
            for (a, b) in zip(serial, got) {
                switch (a, b) {
                case let (.frame(x), .frame(y)):
                    #expect(x.timestampNs == y.timestampNs)
                    #expect(try x.loadGray8(0) == y.loadGray8(0))
                    if case .pixels = y.cam0?.content {} else { Issue.record("frame not decoded ahead") }
                default: #expect(a == b)
                }
            }
            #expect(try ahead.next() == nil)
            #expect(ahead.lastFrameDecodeMilliseconds != nil)
        }
    }

    @Test func decodingAheadReportsAnErrorWhereItHappened() throws {
        // Fixture images are empty files: the first frame cannot be decoded.
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), imu: Fixtures.imuRows(20))
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try EuRoCDataset(url: root)
        let ahead = DecodeAheadIterator(try d.makeEvents(), cameras: [0])
        // IMU at 1.000 s comes first, then the frame at 1.000 s fails to decode.
        guard case .imu? = try ahead.next() else { Issue.record("expected the IMU sample first"); return }
        let error = #expect(throws: DatasetError.self) { try ahead.next() }
        #expect(error?.kind == .badImage)
        // The error stays: the iterator neither hangs nor goes on.
        #expect(throws: DatasetError.self) { try ahead.next() }
    }

    @Test func droppingADecodeAheadIteratorEarlyStopsIt() throws {
        let d = try EuRoCDataset(url: SampleData.url)
        for _ in 0..<5 {
            let ahead = DecodeAheadIterator(try d.makeEvents(), maxFrames: 1, maxEvents: 2)
            _ = try ahead.next()
        }
        // Reaching here without a hang is the check; a last full pass still works.
        #expect(try SampleData.events(DecodeAheadIterator(try d.makeEvents())).count == (try SampleData.events(d.makeEvents())).count)
    }

    @Test func pacedReplayTakesTheRecordedTimeAndChangesNothing() throws {
        let d = try EuRoCDataset(url: SampleData.url)
        let fast = try SampleData.events(d.makeEvents(from: 0, to: 0.3, includeGroundTruth: false))
        let clock = ContinuousClock()
        let start = clock.now
        let paced = try SampleData.events(PacedEventIterator(try d.makeEvents(from: 0, to: 0.3, includeGroundTruth: false), speed: 3))
        let elapsed = clock.now - start
        #expect(paced == fast)
        // 0.3 s of data at 3× speed: at least 0.1 s, less the first event's own offset.
        let span = Double(fast[fast.count - 1].timestampNs - fast[0].timestampNs) * 1e-9 / 3
        #expect(elapsed >= .milliseconds(Int64(span * 1000) - 1))
    }
}

import Foundation
import Testing
@testable import ParallaxDatasets

@Suite("Dataset replay")
struct ReplayTests {
    @Test(.needsRealSnippet) func realSnippetIsMergedInTimeOrder() throws {
        let root = Fixtures.realSnippetURL
        let d = try EuRoCDataset(url: root)
        var imu = 0, frames = 0, gt = 0, last = Int64.min
        var lastWasIMUAt: Int64? = nil
        try d.replay(includeGroundTruth: true).forEach { e in
            #expect(e.timestampNs >= last)
            switch e {
            case .imu(let s):
                imu += 1
                lastWasIMUAt = s.timestampNs
            case .frame(let f):
                frames += 1
                #expect(f.isStereoPair)
                #expect(f.cam0?.timestampNs == f.cam1?.timestampNs)
                // The IMU sample at the frame's own time comes before the frame.
                #expect(lastWasIMUAt == f.timestampNs)
            case .groundTruth: gt += 1
            }
            last = e.timestampNs
        }
        #expect(imu == 1341 && frames == 95 && gt == 115)
    }

    @Test(.needsRealSnippet) func timeWindowIsRelativeToTheStart() throws {
        let root = Fixtures.realSnippetURL
        let d = try EuRoCDataset(url: root)
        var frames: [FrameEvent] = [], imu = 0
        try d.replay(from: 1.0, to: 2.0).forEach { e in
            if case .frame(let f) = e { frames.append(f) }
            if case .imu = e { imu += 1 }
        }
        // Frames at 1.00, 1.05, ..., 2.00 s (within 1 µs of the nominal times): 21 frames.
        #expect(frames.count == 21)
        #expect(imu == 201)
    }

    @Test func missingPartnerFrameIsDeliveredAlone() throws {
        var cam1 = Fixtures.cameraRows(4)
        cam1.remove(at: 2)
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), cam0: Fixtures.cameraRows(4), cam1: cam1,
                                             imu: Fixtures.imuRows(40))
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try EuRoCDataset(url: root)
        let it = try d.replay().makeIterator()
        var events: [FrameEvent] = []
        while let e = try it.next() { if case .frame(let f) = e { events.append(f) } }
        #expect(events.count == 4)
        #expect(events.map(\.isStereoPair) == [true, true, false, true])
        #expect(events[2].cam0 != nil && events[2].cam1 == nil)
        #expect(it.unpairedFrames == 1)
        let summary = try DatasetSummary(d)
        #expect(summary.unpairedFrames == 1)
        #expect(summary.cameras[1].gapCount == 1 && summary.cameras[1].missingSamples == 1)
        #expect(summary.anomalies.contains { $0.contains("1 frames without a partner") })
    }

    @Test func imagesAreNotTouchedUntilLoaded() throws {
        // The fixture's image files are empty: a replay that decoded them would fail.
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder())
        defer { try? FileManager.default.removeItem(at: root) }
        var frames: [FrameEvent] = []
        try EuRoCDataset(url: root).replay().forEach { if case .frame(let f) = $0 { frames.append(f) } }
        #expect(frames.count == 3)
        let first = try #require(frames.first?.cam0)
        #expect(first.url.lastPathComponent == "1000000000.png")
        #expect { try first.loadImage() } throws: { ($0 as? DatasetError)?.kind == .badImage }
    }

    @Test func replayStopsAtTheFirstBadRowInStrictMode() throws {
        var rows = Fixtures.imuRows(20)
        rows[10] = rows[9]
        let root = try Fixtures.writeDataset(at: Fixtures.temporaryFolder(), imu: rows)
        defer { try? FileManager.default.removeItem(at: root) }
        var seen = 0
        #expect {
            try EuRoCDataset(url: root).replay().forEach { _ in seen += 1 }
        } throws: { ($0 as? DatasetError)?.kind == .duplicateTimestamp }
        #expect(seen > 0)
    }
}

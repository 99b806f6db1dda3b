import Foundation
import ParallaxDatasets
import ParallaxTracking
import Testing

/// Decoding ahead on a second thread must not change a single bit of the tracking output.
@Suite struct DecodeAheadRunnerTests {
    static let sample = TrackingFixtures.repoRoot.appendingPathComponent("Datasets/sample")

    /// Per-frame state, pose and landmark positions, and the summary's trajectory.
    static func run(_ dataset: EuRoCDataset, mode: TrackerConfiguration.Mode, decodeAhead: Bool) throws
        -> (frames: [String], trajectory: [TrajectoryPose]) {
        var frames: [String] = []
        let summary = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: mode))
            .run(decodeAhead: decodeAhead) { r, _ in
                let pose = r.T_world_body.map { "\($0.translation) \($0.rotation)" } ?? "none"
                let points = r.featurePoints.map { "\($0.id):\($0.position_world)" }.joined(separator: ",")
                frames.append("\(r.timestampNs) \(r.trackingState) \(pose) \(points)")
            }
        return (frames, summary.trajectory.poses)
    }

    @Test func monoSampleIsBitIdentical() throws {
        let d = try EuRoCDataset(url: Self.sample)
        let serial = try Self.run(d, mode: .mono, decodeAhead: false)
        let ahead = try Self.run(d, mode: .mono, decodeAhead: true)
        #expect(serial.frames.count == 21)
        #expect(serial.frames == ahead.frames)
        #expect(serial.trajectory == ahead.trajectory)
    }

    @Test(.needsEuRoCSnippet) func stereoSnippetIsBitIdentical() throws {
        let d = try EuRoCDataset(url: TrackingFixtures.snippet)
        let serial = try Self.run(d, mode: .stereo, decodeAhead: false)
        let ahead = try Self.run(d, mode: .stereo, decodeAhead: true)
        #expect(serial.frames.count == 95)
        #expect(serial.frames == ahead.frames)
        #expect(serial.trajectory == ahead.trajectory && !serial.trajectory.isEmpty)
    }

    @Test func aBadImageStopsTheRunWithTheSameErrorEitherWay() throws {
        // The sample with one image file truncated.
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("decode-ahead-bad-\(UUID().uuidString.prefix(8))")
        defer { try? fm.removeItem(at: root) }
        try fm.copyItem(at: Self.sample, to: root)
        let cam0 = root.appendingPathComponent("mav0/cam0/data")
        let victim = try #require(try fm.contentsOfDirectory(atPath: cam0.path).sorted().dropFirst(5).first)
        try Data([0x89, 0x50, 0x4e, 0x47]).write(to: cam0.appendingPathComponent(victim))
        let d = try EuRoCDataset(url: root)
        var messages: [String] = []
        for ahead in [false, true] {
            var frames = 0
            do {
                _ = try DatasetRunner(dataset: d, configuration: TrackerConfiguration(mode: .mono))
                    .run(decodeAhead: ahead) { _, _ in frames += 1 }
                Issue.record("the truncated image was not reported")
            } catch {
                messages.append("\(error)")
            }
            #expect(frames == 5)
        }
        #expect(messages.count == 2 && messages[0] == messages[1] && messages[0].contains(victim))
    }
}

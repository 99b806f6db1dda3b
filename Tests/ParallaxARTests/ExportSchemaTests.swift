import Foundation
import ParallaxDatasets
import ParallaxMath
import ParallaxTracking
import Testing

@testable import ParallaxAR

/// `frames.jsonl` from both writers (the AR session's and the tracking-only one) against
/// `docs/frames.schema.json`, and the anchor events' bookkeeping.
@Suite(.serialized) struct ExportSchemaTests {
    static let schemaURL = TestData.repoRoot.appendingPathComponent("docs/frames.schema.json")

    static func lines(of url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func sessionExportFollowsTheSchemaWithAnchorEvents() throws {
        let schema = try JSONSchemaSubset(contentsOf: Self.schemaURL)
        let session = try Session(datasetAt: TestData.sample)
        session.lightEstimator = SceneLightEstimator()
        session.run(WorldTrackingConfiguration(planeDetection: [.horizontal, .vertical]))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-schema-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var exporter = try FrameExporter(url: url, anchorSnapshotInterval: 5)
        var last: Frame?
        while let frame = try session.nextFrame() {
            try exporter.write(frame)
            last = frame
        }
        try exporter.close()
        let objects = try Self.lines(of: url)
        #expect(objects.count == 21)
        for (i, object) in objects.enumerated() {
            do { try schema.validate(object) } catch { Issue.record("line \(i + 1): \(error)") }
            // Snapshots on lines 1, 6, 11, … only.
            #expect((object["anchors"] != nil) == (i % 5 == 0), "line \(i + 1)")
        }
        // Replaying the events rebuilds the last frame's anchor set; no anchor is added twice.
        var live: [String: [String: Any]] = [:]
        var addedEver = Set<String>()
        for object in objects {
            let events = try #require(object["anchorEvents"] as? [String: Any])
            for a in try #require(events["added"] as? [[String: Any]]) {
                let id = try #require(a["identifier"] as? String)
                #expect(!addedEver.contains(id))
                addedEver.insert(id)
                live[id] = a
            }
            for a in try #require(events["updated"] as? [[String: Any]]) {
                let id = try #require(a["identifier"] as? String)
                #expect(live[id] != nil)
                live[id] = a
            }
            for id in try #require(events["removed"] as? [String]) { #expect(live.removeValue(forKey: id) != nil) }
        }
        let final = try #require(last)
        #expect(!final.anchors.isEmpty)
        #expect(Set(live.keys) == Set(final.anchors.map(\.identifier.uuidString)))
    }

    @Test func trackingExportFollowsTheSameSchema() throws {
        let schema = try JSONSchemaSubset(contentsOf: Self.schemaURL)
        let data = try EuRoCDataset(url: TestData.sample)
        // The sample is mono: intrinsics estimated there too, so lines carry "calibration".
        var configuration = TrackerConfiguration(mode: .mono)
        configuration.intrinsics.modes = [.mono]
        let runner = try DatasetRunner(dataset: data, configuration: configuration)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-schema-tracking-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var exporter = try TrackingFrameExporter(path: url.path, camera: data.cameras[0])
        var pointCounts: [Int] = []
        var last: TrackingResult?
        _ = try runner.run { result, _ in
            try exporter.write(result)
            pointCounts.append(result.T_world_camera == nil ? 0 : result.featurePoints.count)
            last = result
        }
        // The sample is at rest, so no readout is estimated; a line as a phone recording without
        // `line_delay` would give (the tracker's estimate) must follow the schema too.
        var withReadout = try #require(last)
        withReadout.estimatedReadout = 0.0195
        try exporter.write(withReadout)
        pointCounts.append(withReadout.T_world_camera == nil ? 0 : withReadout.featurePoints.count)
        // And one with the IMU's intrinsics estimated (`--online-calibration default,imu`).
        var withIMU = withReadout
        withIMU.imuIntrinsics = IMUIntrinsics(gyroScale: Vector3(0.004, -0.01, 0.002), gyroMisalignment: Vector3(0.001, 0, -0.002),
                                              accelScale: Vector3(-0.003, 0.006, 0), accelMisalignment: Vector3(0, 0.002, 0.001))
        try exporter.write(withIMU)
        pointCounts.append(withIMU.T_world_camera == nil ? 0 : withIMU.featurePoints.count)
        try exporter.close()
        let objects = try Self.lines(of: url)
        #expect(objects.count == pointCounts.count && !objects.isEmpty)
        for (i, object) in objects.enumerated() {
            do { try schema.validate(object) } catch { Issue.record("line \(i + 1): \(error)") }
            #expect((object["featurePoints"] as? [Any])?.count == pointCounts[i], "line \(i + 1)")
        }
        #expect(objects.contains { $0["calibration"] != nil }, "no line carries the online calibration")
        #expect(objects.dropLast(2).allSatisfy { $0["readout"] == nil })
        #expect(objects.dropLast().last?["readout"] as? Double == 0.0195)
        let imu = (objects.last?["calibration"] as? [String: Any])?["imuIntrinsics"] as? [String: Any]
        #expect((imu?["gyroScale"] as? [Double])?[1] == -0.01)
        #expect(objects.dropLast().allSatisfy { ($0["calibration"] as? [String: Any])?["imuIntrinsics"] == nil })
    }

    @Test func validatorRejectsTheOldDialect() throws {
        let schema = try JSONSchemaSubset(contentsOf: Self.schemaURL)
        let old: [String: Any] = ["timestamp": 1, "timestamp_ns": 1, "tracking_state": "normal", "camera_transform": NSNull()]
        #expect(throws: (any Error).self) { try schema.validate(old) }
    }
}

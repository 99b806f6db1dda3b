import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxTracking
import Testing

/// A `timeshift_cam_imu` stated wrong, as a calibration from another day would be: the hall walk's
/// cam0 (`udel_gore`, `simulate --sensor euroc`, true offset 0.5 ms) with `sensor.yaml` stating
/// 3.5 ms. The walker turns at up to 100 °/s from the first frame, so a start made with frame times
/// 3 ms off aligns rays two pixels off and keeps the scale error it leaves until the walk turns
/// (5.7 cm before the start solved the offset from its images, 2.5 cm with the offset stated right).
@Suite("A stated time offset that is wrong", .serialized)
struct StatedTimeOffsetTests {
    /// The cached dataset's cam0 and IMU (linked, not copied) with `sensor.yaml` stating the offset
    /// `error` seconds later than the truth.
    static func misstated(by error: Double) throws -> (EuRoCDataset, URL)? {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: "udel_gore", stereo: true, profile: .euroc)
        guard loaded != nil else { return nil }
        let source = TrackingFixtures.cache.appendingPathComponent(name)
        let fm = FileManager.default
        let folder = fm.temporaryDirectory.appendingPathComponent("parallax-misstated-\(UUID().uuidString)")
        let cam0 = folder.appendingPathComponent("mav0/cam0")
        try fm.createDirectory(at: cam0, withIntermediateDirectories: true)
        for item in ["truth", "mav0/imu0", "mav0/state_groundtruth_estimate0", "mav0/cam0/data", "mav0/cam0/data.csv"] {
            try fm.createSymbolicLink(at: folder.appendingPathComponent(item), withDestinationURL: source.appendingPathComponent(item))
        }
        let yaml = try String(contentsOf: source.appendingPathComponent("mav0/cam0/sensor.yaml"), encoding: .utf8)
        var lines = yaml.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.hasPrefix("timeshift_cam_imu:") })
        let stated = try #require(Double(lines[index].dropFirst("timeshift_cam_imu:".count)
            .split(separator: "#")[0].trimmingCharacters(in: .whitespaces)))
        lines[index] = "timeshift_cam_imu: \(stated + error)"
        try lines.joined(separator: "\n").write(to: cam0.appendingPathComponent("sensor.yaml"), atomically: true, encoding: .utf8)
        return (try EuRoCDataset(url: folder), folder)
    }

    @Test("Mono hall walk, offset stated 3 ms late: ATE ≤ 4 cm and the offset found within 0.5 ms",
          .needsSharedTrajectories)
    func monoHall() throws {
        let (dataset, folder) = try #require(try Self.misstated(by: 0.003))
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: .mono)).run()
        let ate = try #require(try summary.evaluation()).report.ate.rmse
        let offset = try #require(summary.finalTimeOffset)
        print(String(format: "hall mono, offset stated 3.5 ms for 0.5: ATE %.4f m, offset %.3f ms, normal %.1f %%",
                     ate, offset * 1e3, 100 * summary.normalFraction))
        #expect(ate <= 0.04)
        #expect(abs(offset - 0.0005) <= 0.0005)
    }
}

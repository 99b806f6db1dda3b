import Foundation
import ParallaxDatasets
import ParallaxTracking
import Testing

/// A replay that sees no images or no IMU is an error naming the file, not an empty success.
@Suite("Dataset runner on recordings without data")
struct RunnerBadInputTests {
    /// A copy of the bundled sample with `file` (relative to mav0) cut to its header line.
    static func sampleWithHeaderOnly(_ files: [String]) throws -> URL {
        let source = TrackingFixtures.repoRoot.appendingPathComponent("Datasets/sample")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-runner-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: copy)
        for file in files {
            let url = copy.appendingPathComponent("mav0/\(file)")
            let header = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)[0]
            try (header + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        return copy
    }

    static func error(after files: [String]) throws -> DatasetError? {
        let folder = try sampleWithHeaderOnly(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataset = try EuRoCDataset(url: folder, policy: .lenient)
        do {
            _ = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: .mono)).run()
            return nil
        } catch let e as DatasetError {
            return e
        }
    }

    @Test("Header-only camera CSV")
    func noFrames() throws {
        let e = try #require(try Self.error(after: ["cam0/data.csv", "cam1/data.csv"].filter {
            FileManager.default.fileExists(atPath: TrackingFixtures.repoRoot.appendingPathComponent("Datasets/sample/mav0/\($0)").path)
        }))
        #expect(e.kind == .tooFewRows && e.file == "mav0/cam0/data.csv")
    }

    @Test("Header-only IMU CSV")
    func noIMU() throws {
        let e = try #require(try Self.error(after: ["imu0/data.csv"]))
        #expect(e.kind == .tooFewRows && e.file == "mav0/imu0/data.csv")
    }

    @Test("A window past the end of the recording")
    func emptyWindow() throws {
        let dataset = try EuRoCDataset(url: TrackingFixtures.repoRoot.appendingPathComponent("Datasets/sample"))
        #expect(throws: DatasetError.self) {
            _ = try DatasetRunner(dataset: dataset, configuration: TrackerConfiguration(mode: .mono)).run(from: 1000)
        }
    }
}

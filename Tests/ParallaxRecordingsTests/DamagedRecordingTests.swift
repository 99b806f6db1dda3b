import Foundation
import Testing
@testable import ParallaxRecordings

/// Damaged files fail with an error naming the file, or replay up to the damage with a warning.
@Suite struct DamagedRecordingTests {
    /// A synthetic recording cut to `fraction` of its bytes.
    static func truncated(_ name: String, fraction: Double, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let writer: any RecordingWriter = name.hasSuffix(".bag") ? try BagWriter(url: url, compression: .lz4, chunkSize: 4096)
            : try MCAPWriter(url: url, chunking: .zstd, chunkSize: 4096)
        try RecordingFixtures.writeSynthetic(writer)
        let data = try Data(contentsOf: url)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
        return url
    }

    @Test(arguments: ["cut.bag", "cut.mcap"])
    func endingMidRecordNamesTheFile(_ name: String) throws {
        let tmp = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let url = try Self.truncated(name, fraction: 0.6, in: tmp)
        let error = #expect(throws: RecordingError.self) { _ = try RecordingFixtures.readAll(url) }
        #expect(error?.file == url.path)
        #expect(error?.kind == .truncated, "\(String(describing: error))")
        // Asked for, the part before the damage replays with a warning.
        let partial = try RecordingFixtures.readAll(url, damage: .stopWithWarning)
        #expect(!partial.imu.isEmpty && partial.imu.count < 200)
        #expect(partial.imu == (0..<partial.imu.count).map(RecordingFixtures.imu))
        #expect(!partial.warnings.isEmpty)
    }
}

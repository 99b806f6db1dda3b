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

    /// Found by the recording fuzz target: a bag chunk header claiming about 4 GiB uncompressed was
    /// allocated before anything was checked (out of memory); now the claim is refused, naming the file.
    @Test func chunkClaimingGigabytesIsRefusedBeforeAllocating() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/recording/oom-chunk-claims-4gib.bag").standardizedFileURL
        let error = #expect(throws: RecordingError.self) { _ = try RecordingFixtures.readAll(url) }
        #expect(error?.file == url.path)
        #expect(error.map { "\($0)" }?.contains("uncompressed (the limit is 256 MiB)") == true, "\(String(describing: error))")
    }

    /// `url`'s bytes with every occurrence of `pattern` (or only the first) replaced by `replacement`.
    static func patch(_ url: URL, _ pattern: [UInt8], _ replacement: [UInt8], all: Bool) throws -> Int {
        var bytes = [UInt8](try Data(contentsOf: url))
        var hits = 0, i = 0
        while i + pattern.count <= bytes.count {
            if Array(bytes[i..<(i + pattern.count)]) == pattern {
                bytes.replaceSubrange(i..<(i + pattern.count), with: replacement)
                hits += 1
                if !all { break }
                i += pattern.count
            } else { i += 1 }
        }
        try Data(bytes).write(to: url)
        return hits
    }

    @Test func unknownBagCompressionIsNamed() throws {
        let tmp = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let url = tmp.appendingPathComponent("x.bag")
        try RecordingFixtures.writeSynthetic(try BagWriter(url: url, compression: .lz4, chunkSize: 4096))
        #expect(try Self.patch(url, Array("compression=lz4".utf8), Array("compression=xz4".utf8), all: true) > 0)
        let error = #expect(throws: RecordingError.self) { _ = try RecordingFixtures.readAll(url) }
        #expect(error?.kind == .unsupportedCompression, "\(String(describing: error))")
        #expect(error?.file == url.path)
        #expect(error?.description.contains("xz4") == true)
    }

    @Test func badMCAPChunkCRCIsNamed() throws {
        let tmp = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let url = tmp.appendingPathComponent("crc.mcap")
        try RecordingFixtures.writeSynthetic(try MCAPWriter(url: url, chunking: ChunkCompression.none, chunkSize: 4096))
        // One pixel of frame 3 (its first row is unique to it), inside an uncompressed chunk.
        let row = Array(RecordingFixtures.gray(3).pixels.prefix(16))
        var changed = row
        changed[8] ^= 0xFF
        #expect(try Self.patch(url, row, changed, all: false) == 1)
        let error = #expect(throws: RecordingError.self) { _ = try RecordingFixtures.readAll(url) }
        #expect(error?.kind == .checksum, "\(String(describing: error))")
        #expect(error?.file == url.path)
    }
}

import Foundation
import ParallaxDatasets
import ParallaxImaging
import Testing
@testable import ParallaxRecordings

/// Parallax's writers and readers agree for every container variant: bag (none, bz2, lz4 chunks)
/// and MCAP (unchunked, uncompressed, lz4 and zstd chunks; ROS 1 and CDR messages).
@Suite struct RoundTripTests {
    enum Variant: String, CaseIterable, CustomStringConvertible {
        case bagNone, bagBz2, bagLz4, mcapUnchunked, mcapNone, mcapLz4, mcapZstd, mcapROS1Zstd
        var description: String { rawValue }

        func writer(_ url: URL, chunkSize: Int) throws -> any RecordingWriter {
            switch self {
            case .bagNone: try BagWriter(url: url, compression: .none, chunkSize: chunkSize)
            case .bagBz2: try BagWriter(url: url, compression: .bz2, chunkSize: chunkSize)
            case .bagLz4: try BagWriter(url: url, compression: .lz4, chunkSize: chunkSize)
            case .mcapUnchunked: try MCAPWriter(url: url, encoding: .cdr, chunking: nil)
            case .mcapNone: try MCAPWriter(url: url, encoding: .cdr, chunking: ChunkCompression.none, chunkSize: chunkSize)
            case .mcapLz4: try MCAPWriter(url: url, encoding: .cdr, chunking: .lz4, chunkSize: chunkSize)
            case .mcapZstd: try MCAPWriter(url: url, encoding: .cdr, chunking: .zstd, chunkSize: chunkSize)
            case .mcapROS1Zstd: try MCAPWriter(url: url, encoding: .ros1, chunking: .zstd, chunkSize: chunkSize)
            }
        }

        var fileExtension: String { rawValue.hasPrefix("bag") ? "bag" : "mcap" }
    }

    @Test(arguments: Variant.allCases)
    func writesAndReadsBack(_ variant: Variant) throws {
        let folder = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("synthetic.\(variant.fileExtension)")
        // Small chunks so that the file holds many.
        try RecordingFixtures.writeSynthetic(try variant.writer(url, chunkSize: 8 * 1024), stereo: true)
        let (imu, frames, warnings) = try RecordingFixtures.readAll(url)
        #expect(warnings.isEmpty)
        #expect(imu == (0..<200).map(RecordingFixtures.imu))
        #expect(frames.count == 2)
        for c in 0..<2 {
            #expect(frames[c].map(\.0) == (0..<20).map(RecordingFixtures.frameTime))
            #expect(frames[c].map(\.1.pixels) == (0..<20).map { RecordingFixtures.gray($0 + 100 * c).pixels })
        }
        let reader = try Recordings.open(url)
        #expect(reader.hasIndex)
        #expect(Set(reader.channels.values.map(\.topic)) == ["/imu0", "/cam0/image_raw", "/cam1/image_raw"])
    }

    @Test(arguments: Variant.allCases)
    func writingIsDeterministic(_ variant: Variant) throws {
        let folder = try RecordingFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.\(variant.fileExtension)"), b = folder.appendingPathComponent("b.\(variant.fileExtension)")
        try RecordingFixtures.writeSynthetic(try variant.writer(a, chunkSize: 4096), imuCount: 40, frames: 4)
        try RecordingFixtures.writeSynthetic(try variant.writer(b, chunkSize: 4096), imuCount: 40, frames: 4)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }
}

import Foundation
import Testing

@testable import ParallaxImaging

/// Broken inputs must throw an ``ImageError`` naming the file, never crash.
@Suite final class PNGErrorTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-pngerr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func validPNG() throws -> [UInt8] {
        let image = GrayImage(width: 64, height: 48) { x, y in UInt8((x * 7 + y * 13) & 0xFF) }
        return try PNG.encode(.gray8(image))
    }

    /// Writes `bytes` to `name`, reads it back and returns the thrown error.
    func readError(_ bytes: [UInt8], name: String) throws -> ImageError {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try PNG.read(contentsOf: url)
        } catch let error as ImageError {
            #expect(error.description.hasPrefix(url.path + ": "), "\(error)")
            #expect(error.description.contains(name))
            return error
        }
        throw TestFailure(text: "\(name) decoded without error")
    }

    @Test func emptyFile() throws {
        let error = try readError([], name: "empty.png")
        #expect(error.kind == .notPNG)
        #expect(error.description.contains("empty"))
    }

    @Test func textFileRenamedPNG() throws {
        let error = try readError(Array("timestamp,filename\n1,2.png\n".utf8), name: "notes.png")
        #expect(error.kind == .notPNG)
        #expect(error.description.hasSuffix("not a PNG file (bad signature)"))
        #expect(throws: ImageError.self) { try PNG.readInfo(contentsOf: dir.appendingPathComponent("x.png")) }
    }

    @Test func truncatedFiles() throws {
        let bytes = try validPNG()
        // Cut inside the signature, the header, the image data and just before IEND.
        for cut in [4, 20, 40, bytes.count / 2, bytes.count - 12, bytes.count - 1] {
            let error = try readError(Array(bytes[0..<cut]), name: "cut\(cut).png")
            #expect(error.kind == .truncated || error.kind == .corrupt, "cut at \(cut): \(error)")
            if cut > 40 { #expect(error.kind == .truncated, "cut at \(cut): \(error)") }
        }
    }

    @Test func corruptBytesNeverCrash() throws {
        let bytes = try validPNG()
        var rng = TestRandom(seed: 99)
        var failures = 0
        for trial in 0..<200 {
            var broken = bytes
            // Flip 1…4 bytes after the signature; CRCs catch most flips, zlib the rest.
            for _ in 0...(trial % 4) {
                let i = 8 + Int(rng.next() % UInt64(broken.count - 8))
                broken[i] ^= UInt8(1 + rng.next() % 255)
            }
            do {
                _ = try PNG.decode(broken, name: "flip\(trial).png")
            } catch let error as ImageError {
                failures += 1
                #expect(error.description.hasPrefix("flip\(trial).png: "))
            }
        }
        // Every flip lands in a CRC-protected chunk, so every trial must be rejected.
        #expect(failures == 200)
    }

    @Test func corruptDataWithValidCRCs() throws {
        // Re-CRC a chunk after damaging its payload so zlib (not the CRC) must catch it.
        var bytes = try validPNG()
        guard let idat = chunkRange(bytes, type: "IDAT") else { throw TestFailure(text: "no IDAT") }
        for i in idat.data.lowerBound + 2..<min(idat.data.upperBound, idat.data.lowerBound + 40) { bytes[i] = 0xFF }
        let crc = CRC32.checksum(bytes[(idat.data.lowerBound - 4)..<idat.data.upperBound])
        bytes.replaceSubrange(idat.data.upperBound..<(idat.data.upperBound + 4), with: be32(crc))
        let error = try readError(bytes, name: "zlib.png")
        #expect(error.kind == .corrupt)
    }

    @Test func absurdDimensionsRejectedBeforeAllocation() throws {
        var bytes = try validPNG()
        // IHDR width := 100000, height := 100000, with a correct CRC.
        bytes.replaceSubrange(16..<20, with: be32(100_000))
        bytes.replaceSubrange(20..<24, with: be32(100_000))
        bytes.replaceSubrange(29..<33, with: be32(CRC32.checksum(bytes[12..<29])))
        let error = try readError(bytes, name: "huge.png")
        #expect(error.kind == .badDimensions || error.kind == .corrupt)
        let url = dir.appendingPathComponent("huge-info.png")
        try Data(bytes).write(to: url)
        #expect(throws: ImageError.self) { try PNG.readInfo(contentsOf: url) }
    }

    @Test func missingFile() throws {
        let url = dir.appendingPathComponent("cam0/data/123.png")
        do {
            _ = try PNG.read(contentsOf: url)
            Issue.record("missing file decoded")
        } catch let error as ImageError {
            #expect(error.kind == .io)
            #expect(error.description.hasPrefix(url.path + ": cannot read file"), "\(error)")
        }
        do {
            _ = try PNG.readInfo(contentsOf: url)
            Issue.record("missing file header decoded")
        } catch let error as ImageError {
            #expect(error.description.hasPrefix(url.path), "\(error)")
        }
    }

    @Test func writeToMissingDirectoryThrows() {
        let url = dir.appendingPathComponent("no/such/dir/out.png")
        #expect(throws: ImageError.self) { try PNG.write(.gray8(GrayImage(width: 2, height: 2, fill: 1)), to: url) }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

/// Locates the first chunk of `type`; `data` is the payload's byte range.
func chunkRange(_ bytes: [UInt8], type: String) -> (data: Range<Int>, Void)? {
    var offset = 8
    while offset + 12 <= bytes.count {
        let length = Int(PNG.readBE32(bytes, offset))
        let name = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
        if name == type { return ((offset + 8)..<(offset + 8 + length), ()) }
        offset += 12 + length
    }
    return nil
}

/// Paths that exist but are not readable PNG files get plain reasons (issue 13).
@Suite struct PNGFileKindTests {
    @Test func directoryAndFIFOAreNamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("png-kind-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect { try PNG.read(contentsOf: dir) } throws: { "\($0)" == "\(dir.path): cannot read file (is a directory)" }
        let fifo = dir.appendingPathComponent("pipe.png")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect { try PNG.readInfo(contentsOf: fifo) } throws: { "\($0)" == "\(fifo.path): cannot read file (not a regular file)" }
        let missing = dir.appendingPathComponent("none.png")
        #expect { try PNG.read(contentsOf: missing) } throws: { "\($0)" == "\(missing.path): cannot read file (no such file)" }
    }
}

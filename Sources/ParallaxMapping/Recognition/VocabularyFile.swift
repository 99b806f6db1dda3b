import Foundation

/// Reads and writes ``Vocabulary`` files (`.voc`, format version 1, little-endian; the layout is
/// in docs/world-maps.md, "Vocabulary file"):
///
/// | size | field |
/// |---|---|
/// | 8 | magic `50 58 56 4F 43 42 0D 0A` (`PXVOCB\r\n`) |
/// | 4 | UInt32 format version (1) |
/// | 4 + 4 | UInt32 branching k, UInt32 depth L |
/// | 8 + 8 | UInt64 training images, UInt64 training descriptors |
/// | 8 | UInt64 node count n, root included (nodes in breadth-first order) |
/// | 36 (n − 1) | per node after the root: UInt32 parent, 4 UInt64 descriptor words |
/// | 8 | UInt64 word count W (= the leaves) |
/// | 8 W | Double idf weight per word, words in node order |
/// | 4 | CRC-32 (IEEE, as zlib) of every byte before it |
public enum VocabularyFile {
    /// The 8 magic bytes.
    public static let magic: [UInt8] = Array("PXVOCB\r\n".utf8)
    /// The format version this build writes and reads.
    public static let version: UInt32 = 1
    /// Most nodes a file may declare (a k = 16, L = 5 tree has 1.1 million).
    static let maximumNodes = 4_000_000

    /// The file's bytes.
    public static func encode(_ v: Vocabulary) -> [UInt8] {
        var w = ByteWriter()
        w.data = magic
        w.u32(version)
        w.u32(UInt32(v.branching))
        w.u32(UInt32(v.depth))
        w.u64(UInt64(v.trainingImageCount))
        w.u64(UInt64(v.trainingDescriptorCount))
        w.u64(UInt64(v.nodeCount))
        for i in 1..<v.nodeCount {
            w.u32(UInt32(v.parents[i]))
            for word in v.centres[i].wordArray { w.u64(word) }
        }
        w.u64(UInt64(v.wordCount))
        for weight in v.weights { w.f64(weight) }
        w.u32(CRC32.checksum(w.data))
        return w.data
    }

    /// Decodes a file's bytes; `name` (the file) starts every error message.
    /// - Throws: ``VocabularyError``: not a vocabulary, a newer version, damaged (checksum),
    ///   truncated, counts beyond the bytes left, or a tree that is not one.
    public static func decode(_ bytes: [UInt8], name: String = "vocabulary") throws -> Vocabulary {
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw VocabularyError("\(name): not a Parallax vocabulary (magic bytes differ)")
        }
        do {
            var r = ByteReader(bytes, context: name)
            r.offset = magic.count
            let v = try r.u32()
            guard v == version else {
                throw VocabularyError("\(name): vocabulary format version \(v) is not supported (this build reads version \(version))")
            }
            guard bytes.count >= 48 else { throw VocabularyError("\(name): truncated (\(bytes.count) bytes)") }
            let stored = bytes.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }  // little-endian
            guard stored == CRC32.checksum(Array(bytes.dropLast(4))) else {
                throw VocabularyError("\(name): checksum mismatch (damaged file)")
            }
            r = ByteReader(Array(bytes.dropLast(4)), context: name)
            r.offset = magic.count + 4
            let branching = Int(try r.u32()), depth = Int(try r.u32())
            let images = try r.u64(), descriptors = try r.u64()
            guard images <= UInt64(Int.max), descriptors <= UInt64(Int.max) else {
                throw VocabularyError("\(name): implausible training counts")
            }
            let n = try r.count(maximum: maximumNodes, minimumBytesEach: 36)
            guard n >= 2 else { throw VocabularyError("\(name): \(n) nodes (needs a root and a word)") }
            var parents = [-1], centres = [BinaryDescriptor.zero]
            parents.reserveCapacity(n)
            centres.reserveCapacity(n)
            for _ in 1..<n {
                parents.append(Int(try r.u32()))
                centres.append(BinaryDescriptor(try r.u64(), try r.u64(), try r.u64(), try r.u64()))
            }
            let wordCount = try r.count(maximum: n, minimumBytesEach: 8)
            var weights: [Double] = []
            weights.reserveCapacity(wordCount)
            for _ in 0..<wordCount { weights.append(try r.f64()) }
            guard r.remaining == 0 else { throw VocabularyError("\(name): \(r.remaining) unexpected bytes after the weights") }
            return try Vocabulary(branching: branching, depth: depth, parents: parents, centres: centres, weights: weights,
                                  trainingImageCount: Int(images), trainingDescriptorCount: Int(descriptors))
        } catch let e as VocabularyError {
            throw e.description.hasPrefix(name) ? e : VocabularyError("\(name): \(e.description)")
        } catch let e as MapFileError {
            throw VocabularyError(e.description)  // the reader's context is the file name
        }
    }

    /// Reads a vocabulary file.
    /// - Throws: ``VocabularyError`` naming the file.
    public static func read(contentsOf url: URL) throws -> Vocabulary {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw VocabularyError("\(url.path): cannot read (\(error.localizedDescription))")
        }
        return try decode([UInt8](data), name: url.path)
    }

    /// Writes a vocabulary file.
    public static func write(_ vocabulary: Vocabulary, to url: URL) throws {
        do { try Data(encode(vocabulary)).write(to: url, options: .atomic) } catch {
            throw VocabularyError("\(url.path): cannot write (\(error.localizedDescription))")
        }
    }

    /// True when the file at `path` starts with the vocabulary magic bytes.
    public static func isVocabularyFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: magic.count)) ?? Data()) == magic
    }
}

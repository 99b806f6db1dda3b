import Foundation
import ParallaxMath
import Testing
@testable import ParallaxMapping

/// Random descriptors in clusters: `centres` random centres, each with `each` copies that have a
/// few random bits flipped (what descriptors of one scene point look like across images); copy
/// set j holds every centre once, in centre order.
/// Training "images" of `size` consecutive points each, so a word is held by some images only
/// (images holding every word would give every word idf ln(N/N) = 0).
func chunked(_ sets: [[BinaryDescriptor]], size: Int) -> [[BinaryDescriptor]] {
    sets.flatMap { set in stride(from: 0, to: set.count, by: size).map { Array(set[$0..<min($0 + size, set.count)]) } }
}

func clusteredDescriptors(centres: Int, each: Int, flips: Int, seed: UInt64) -> [[BinaryDescriptor]] {
    var rng = SplitMix64(seed: seed)
    let middles = (0..<centres).map { _ in BinaryDescriptor(rng.next(), rng.next(), rng.next(), rng.next()) }
    return (0..<each).map { _ in
        middles.map { m in
            var d = m
            for _ in 0..<flips { let b = Int(rng.next() % 256); d = d.setting(b, !d.bit(b)) }
            return d
        }
    }
}

@Suite("Vocabulary of binary words")
struct VocabularyTests {
    static let images = clusteredDescriptors(centres: 120, each: 12, flips: 6, seed: 7)
    static func small() throws -> Vocabulary {
        var c = VocabularyTrainingConfiguration()
        c.branching = 6
        c.depth = 3
        return try Vocabulary.train(images: chunked(images, size: 20), configuration: c)
    }

    @Test("training is deterministic: same input and seed, same bytes; another seed, another tree")
    func determinism() throws {
        let a = try Self.small(), b = try Self.small()
        #expect(VocabularyFile.encode(a) == VocabularyFile.encode(b))
        #expect(a.wordCount > 36 && a.wordCount <= 216)
        var c = VocabularyTrainingConfiguration()
        c.branching = 6
        c.depth = 3
        c.seed = 99
        #expect(VocabularyFile.encode(try Vocabulary.train(images: chunked(Self.images, size: 20), configuration: c)) != VocabularyFile.encode(a))
    }

    @Test("a descriptor's word is the leaf of the nearest child at every level")
    func nearestPath() throws {
        let v = try Self.small()
        var rng = SplitMix64(seed: 3)
        let probes = (0..<200).map { _ in BinaryDescriptor(rng.next(), rng.next(), rng.next(), rng.next()) } + Self.images[0]
        for d in probes {
            let path = v.path(to: v.word(for: d))
            #expect(!path.isEmpty && path.count <= v.depth)
            // Walk the tree independently: at each level no sibling is nearer than the chosen node.
            var node = 0
            for centre in path {
                let children = v.firstChild[node]..<v.firstChild[node] + v.childCount[node]
                let nearest = children.map { v.centres[$0].distance(to: d) }.min() ?? .max
                #expect(centre.distance(to: d) == nearest)
                node = try #require(children.first { v.centres[$0] == centre })
            }
            #expect(v.childCount[node] == 0)
        }
        // A training cluster's members share a word with its centre most of the time.
        let same = zip(Self.images[0], Self.images[1]).filter { v.word(for: $0) == v.word(for: $1) }.count
        #expect(same >= 90, "\(same) of 120 cluster pairs in one word")
    }

    @Test("bag-of-words score: 1 for the same set, about 0 for disjoint ones, symmetric")
    func scores() throws {
        let v = try Self.small()
        // Two noisy copies of the same 60 points, and 60 other points.
        let a = v.bagOfWords(Array(Self.images[0].prefix(60))), b = v.bagOfWords(Array(Self.images[1].prefix(60)))
        let other = v.bagOfWords(Array(Self.images[1].suffix(60)))
        #expect(abs(a.score(a) - 1) < 1e-12)
        #expect(abs(a.values.reduce(0, +) - 1) < 1e-12)
        #expect(abs(a.score(b) - b.score(a)) < 1e-12)
        #expect(a.score(b) > 0.6, "two images of the same points: \(a.score(b))")
        #expect(a.score(other) < 0.1, "disjoint points: \(a.score(other))")
        #expect(v.bagOfWords([]).isEmpty)
        // The inverted index gives the same scores as the direct formula.
        var index = InvertedIndex(wordCount: v.wordCount)
        index.add(b, document: 0)
        index.add(other, document: 1)
        let s = index.scores(a)
        #expect(abs((s[0] ?? 0) - a.score(b)) < 1e-12 && abs((s[1] ?? 0) - a.score(other)) < 1e-12)
    }

    @Test("file round trip keeps every byte and word")
    func roundTrip() throws {
        let v = try Self.small()
        let bytes = VocabularyFile.encode(v)
        let back = try VocabularyFile.decode(bytes)
        #expect(VocabularyFile.encode(back) == bytes)
        #expect(back.weights == v.weights && back.branching == 6 && back.depth == 3)
        for d in Self.images[3] { #expect(back.word(for: d) == v.word(for: d)) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vocabulary-test-\(ProcessInfo.processInfo.processIdentifier).voc")
        defer { try? FileManager.default.removeItem(at: url) }
        try VocabularyFile.write(v, to: url)
        #expect(VocabularyFile.isVocabularyFile(url.path))
        #expect(VocabularyFile.encode(try VocabularyFile.read(contentsOf: url)) == bytes)
    }

    @Test("damaged, truncated, foreign and newer files get a clear error naming the file")
    func damagedFiles() throws {
        let bytes = VocabularyFile.encode(try Self.small())
        func message(_ b: [UInt8]) -> String {
            do { _ = try VocabularyFile.decode(b, name: "test.voc"); return "decoded" } catch { return "\(error)" }
        }
        var flipped = bytes
        flipped[200] ^= 0x10
        #expect(message(flipped) == "test.voc: checksum mismatch (damaged file)")
        #expect(message(Array(bytes.prefix(100))).contains("checksum mismatch"))
        #expect(message(Array(bytes.prefix(20))).hasPrefix("test.voc: truncated"))
        #expect(message([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes.dropFirst(8)) == "test.voc: not a Parallax vocabulary (magic bytes differ)")
        var newer = bytes
        newer[8] = 2
        #expect(message(newer).contains("format version 2 is not supported"))
        // A node count far beyond the bytes left (checksum made valid so the count is reached): refused before allocating.
        func resealed(_ b: [UInt8]) -> [UInt8] {
            var body = Array(b.dropLast(4))
            let crc = CRC32.checksum(body)
            for i in 0..<4 { body.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i)))) }
            return body
        }
        var huge = bytes
        for i in 36..<44 { huge[i] = 0x7F }
        #expect(message(resealed(huge)).contains("exceeds the limit or the data left"))
        var badParent = bytes
        badParent[44 + 36] = 0xFF  // node 2's parent: not before it
        #expect(message(resealed(badParent)).contains("breaks breadth-first order"))
        var nan = bytes
        for i in (bytes.count - 12)..<(bytes.count - 4) { nan[i] = 0xFF }  // last weight: NaN
        #expect(message(resealed(nan)).contains("non-finite"))
        let missing = URL(fileURLWithPath: "/nonexistent/words.voc")
        #expect(throws: VocabularyError.self) { try VocabularyFile.read(contentsOf: missing) }
        do { _ = try VocabularyFile.read(contentsOf: missing) } catch { #expect("\(error)".hasPrefix("/nonexistent/words.voc: cannot read")) }
    }

    @Test("the shipped vocabulary loads")
    func shipped() throws {
        let v = try #require(Vocabulary.standard, "default.voc not found")
        #expect(v.wordCount >= 1000 && v.trainingImageCount > 100)
        #expect(KeyframeDatabase().vocabulary === v)
    }
}

@Suite("Keyframe database with a vocabulary")
struct KeyframeIndexTests {
    /// Keyframes that each see their own 40 scene points (descriptor clusters of the helper).
    static func database(_ vocabulary: Vocabulary?) -> (KeyframeDatabase, [[BinaryDescriptor]]) {
        let images = clusteredDescriptors(centres: 400, each: 2, flips: 5, seed: 11)
        var db = KeyframeDatabase(vocabulary: vocabulary)
        for k in 0..<10 {
            let points = images[0][(k * 40)..<(k * 40 + 40)].map {
                KeyframePoint(featureID: 0, position_world: .zero, pixel: .zero, descriptor: $0)
            }
            db.add(Keyframe(id: k, timestamp: Double(k), T_world_camera: .identity, points: points))
        }
        return (db, images)
    }

    @Test("candidates by bag of words find the keyframe that saw the query's points, as brute force does")
    func candidates() throws {
        var c = VocabularyTrainingConfiguration()
        c.depth = 3
        let images = clusteredDescriptors(centres: 400, each: 6, flips: 5, seed: 11)
        let v = try Vocabulary.train(images: chunked(images, size: 40), configuration: c)
        let (db, _) = Self.database(v)
        #expect(db.bags.count == 10)
        for k in 0..<10 {
            let query = Array(images[1][(k * 40)..<(k * 40 + 40)])
            #expect(db.candidates(for: query).first?.id == k)
            #expect(db.bruteForceCandidates(for: query).first?.id == k)
        }
        // Too few votes: nothing, with or without the vocabulary.
        #expect(db.candidates(for: Array(images[1][0..<5])).isEmpty)
        // Filtering keeps the bags (no re-description) and the ranking.
        let older = db.filter { $0.id < 5 }
        #expect(older.bags == Array(db.bags.prefix(5)))
        #expect(older.candidates(for: Array(images[1][80..<120])).first?.id == 2)
        #expect(older.candidates(for: Array(images[1][280..<320])).isEmpty)
        // Switching the vocabulary recomputes the bags.
        var switched = db
        switched.vocabulary = nil
        #expect(switched.bags.isEmpty && switched.candidates(for: Array(images[1][120..<160])).first?.id == 3)
        c.depth = 2
        let coarse = try Vocabulary.train(images: chunked(images, size: 40), configuration: c)
        switched.vocabulary = coarse
        #expect(switched.bags == KeyframeDatabase(keyframes: db.keyframes, vocabulary: coarse).bags && switched.bags != db.bags)
        switched.vocabulary = v
        #expect(switched.bags == db.bags)
        // Without a vocabulary: brute force, same answer.
        let (plain, _) = Self.database(nil)
        #expect(plain.bags.isEmpty && plain.candidates(for: Array(images[1][120..<160])).first?.id == 3)
    }

    @Test("moving keyframes keeps their words; equality ignores the derived index")
    func replacePoses() throws {
        let (db, _) = Self.database(Vocabulary.standard)
        var moved = db
        let shift = RigidTransform(rotation: .identity, translation: Vector3(1, 0, 0))
        var copies = db.keyframes
        for i in copies.indices { copies[i].T_world_camera = shift * copies[i].T_world_camera }
        moved.replacePoses(from: copies)
        #expect(moved.keyframes.map(\.T_world_camera.translation.x) == Array(repeating: 1, count: 10))
        #expect(moved.bags == db.bags)
        #expect(KeyframeDatabase(keyframes: db.keyframes, vocabulary: db.vocabulary) == db)
    }
}

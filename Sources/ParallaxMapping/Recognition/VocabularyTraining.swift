import Foundation
import ParallaxMath

/// Settings of ``Vocabulary/train(images:configuration:)``.
public struct VocabularyTrainingConfiguration: Sendable {
    /// Children per node (`k`).
    public var branching = 8
    /// Levels below the root (`L`): at most kᴸ words.
    public var depth = 4
    /// Descriptors clustered at most; more are thinned evenly over the images (the idf weights
    /// still count every descriptor of every image).
    public var maximumDescriptors = 200_000
    /// Seed of the k-means++ seeding: the same images and settings give the same vocabulary.
    public var seed: UInt64 = 0x0B0A_0F57_0DB0_0002
    /// Assign/update rounds per clustering at most (it usually settles sooner).
    public var maximumIterations = 20

    /// The defaults.
    public init() {}
}

extension Vocabulary {
    /// Trains a vocabulary on descriptors grouped by image (hierarchical k-majority clustering,
    /// Gálvez-López & Tardós 2012, the vocabulary tree of their image database):
    ///
    /// 1. The root holds every training descriptor. A node with more than one distinct descriptor
    ///    above level `L` is split in `k` clusters by k-majority: k-medians in Hamming space whose
    ///    centre is the bitwise majority of the members (bit b set when more than half the members
    ///    have it set: the point minimising the summed Hamming distance), seeded k-means++ style
    ///    (the first centre at random, each next one drawn with probability ∝ D², D the Hamming
    ///    distance to the nearest centre so far) from a fixed seed, then assign/update until no
    ///    descriptor changes cluster. A node with at most `k` distinct descriptors gets one child each.
    /// 2. Each cluster becomes a child; the splitting repeats breadth first. Leaves are the words.
    /// 3. idf weights: ln(N / nᵢ) over the N images (nᵢ images hold word i; a word no image
    ///    reaches after thinning counts as the rarest, ln N).
    /// - Throws: ``VocabularyError`` when there are no descriptors or the settings are out of range.
    public static func train(images: [[BinaryDescriptor]],
                             configuration: VocabularyTrainingConfiguration = .init()) throws -> Vocabulary {
        let c = configuration
        guard branchingRange.contains(c.branching), depthRange.contains(c.depth), c.maximumDescriptors >= 1,
              c.maximumIterations >= 1 else {
            throw VocabularyError("training settings out of range: branching \(c.branching), depth \(c.depth), "
                                  + "\(c.maximumDescriptors) descriptors, \(c.maximumIterations) iterations")
        }
        let all = images.flatMap { $0 }
        guard !all.isEmpty else { throw VocabularyError("no descriptors to train on") }
        let sample = thinned(all, to: c.maximumDescriptors)
        var rng = SplitMix64(seed: c.seed)
        var parents = [-1], centres = [BinaryDescriptor.zero]
        var queue: [(node: Int, members: [Int], level: Int)] = [(0, Array(sample.indices), 0)]
        var head = 0
        while head < queue.count {
            let (node, members, level) = queue[head]
            head += 1
            guard level < c.depth else { continue }
            let clusters = kMajority(members.map { sample[$0] }, k: c.branching, iterations: c.maximumIterations, rng: &rng)
            guard clusters.count > 1 else { continue }  // one distinct descriptor left: a word
            for cluster in clusters {
                queue.append((parents.count, cluster.members.map { members[$0] }, level + 1))
                parents.append(node)
                centres.append(cluster.centre)
            }
        }
        // A root that could not be split (one distinct descriptor) still needs a word below it.
        if parents.count == 1 {
            parents.append(0)
            centres.append(sample[0])
        }
        let provisional = try Vocabulary(branching: c.branching, depth: c.depth, parents: parents, centres: centres,
                                         weights: [Double](repeating: 1, count: leafCount(parents)),
                                         trainingImageCount: images.count, trainingDescriptorCount: sample.count)
        return try Vocabulary(branching: c.branching, depth: c.depth, parents: parents, centres: centres,
                              weights: inverseDocumentFrequencies(images, provisional),
                              trainingImageCount: images.count, trainingDescriptorCount: sample.count)
    }

    /// Every ⌈n / maximum⌉-th descriptor, so thinning spreads over all images.
    private static func thinned(_ all: [BinaryDescriptor], to maximum: Int) -> [BinaryDescriptor] {
        guard all.count > maximum else { return all }
        let step = (all.count + maximum - 1) / maximum
        return Swift.stride(from: 0, to: all.count, by: step).map { all[$0] }
    }

    private static func leafCount(_ parents: [Int]) -> Int {
        var hasChild = [Bool](repeating: false, count: parents.count)
        for p in parents where p >= 0 { hasChild[p] = true }
        return hasChild.dropFirst().filter { !$0 }.count
    }

    /// ln(N / nᵢ) per word of `vocabulary` over `images`.
    private static func inverseDocumentFrequencies(_ images: [[BinaryDescriptor]], _ vocabulary: Vocabulary) -> [Double] {
        var holders = [Int](repeating: 0, count: vocabulary.wordCount)
        for image in images {
            for w in Set(image.map(vocabulary.word(for:))) { holders[w] += 1 }
        }
        let n = Double(max(images.count, 1))
        return holders.map { log(n / Double(max($0, 1))) }
    }

    /// One k-majority clustering of `points` (see ``train(images:configuration:)``): clusters with
    /// their centres and member indices, empty ones dropped; one per distinct point when there
    /// are at most `k` distinct points.
    static func kMajority(_ points: [BinaryDescriptor], k: Int, iterations: Int,
                          rng: inout SplitMix64) -> [(centre: BinaryDescriptor, members: [Int])] {
        var distinct: [BinaryDescriptor] = []
        var seen = Set<BinaryDescriptor>()
        for p in points where seen.insert(p).inserted {
            distinct.append(p)
            if distinct.count > k { break }
        }
        var centres = distinct.count <= k ? distinct : seeds(points, k: k, rng: &rng)
        var assignment = [Int](repeating: -1, count: points.count)
        for round in 0..<max(iterations, 1) {
            var changed = false
            for (i, p) in points.enumerated() {
                let a = nearest(p, centres)
                if a != assignment[i] { assignment[i] = a; changed = true }
            }
            // Fewer distinct points than k: the points themselves are the centres, nothing to update.
            guard changed, distinct.count > k, round + 1 < iterations else { break }
            centres = zip(centres, majorities(points, assignment, clusters: centres.count)).map { $1 ?? $0 }
        }
        var members = [[Int]](repeating: [], count: centres.count)
        for (i, a) in assignment.enumerated() { members[a].append(i) }
        return centres.indices.filter { !members[$0].isEmpty }.map { (centres[$0], members[$0]) }
    }

    /// k-means++ seeding (Arthur & Vassilvitskii 2007) with Hamming distances.
    private static func seeds(_ points: [BinaryDescriptor], k: Int, rng: inout SplitMix64) -> [BinaryDescriptor] {
        var centres = [points[Int(rng.next() % UInt64(points.count))]]
        var d2 = points.map { Double($0.distance(to: centres[0]) * $0.distance(to: centres[0])) }
        while centres.count < k {
            let total = d2.reduce(0, +)
            guard total > 0 else { break }
            var r = rng.uniform(0, total), pick = points.count - 1
            for (i, w) in d2.enumerated() {
                r -= w
                if r < 0 { pick = i; break }
            }
            let centre = points[pick]
            centres.append(centre)
            for i in points.indices { d2[i] = min(d2[i], Double(points[i].distance(to: centre) * points[i].distance(to: centre))) }
        }
        return centres
    }

    private static func nearest(_ p: BinaryDescriptor, _ centres: [BinaryDescriptor]) -> Int {
        var best = 0, bestDistance = Int.max
        for (c, centre) in centres.enumerated() {
            let d = p.distance(to: centre)
            if d < bestDistance { (best, bestDistance) = (c, d) }
        }
        return best
    }

    /// Bitwise majority of each cluster's members (ties give 0), in one pass; nil for an empty cluster.
    private static func majorities(_ points: [BinaryDescriptor], _ assignment: [Int], clusters: Int) -> [BinaryDescriptor?] {
        var ones = [Int](repeating: 0, count: 256 * clusters), sizes = [Int](repeating: 0, count: clusters)
        for (p, c) in zip(points, assignment) {
            sizes[c] += 1
            for (w, word) in [p.words.0, p.words.1, p.words.2, p.words.3].enumerated() {
                var bits = word
                while bits != 0 {
                    ones[c * 256 + w * 64 + bits.trailingZeroBitCount] += 1
                    bits &= bits - 1
                }
            }
        }
        return (0..<clusters).map { c in
            guard sizes[c] > 0 else { return nil }
            var words: [UInt64] = [0, 0, 0, 0]
            for b in 0..<256 where 2 * ones[c * 256 + b] > sizes[c] { words[b >> 6] |= UInt64(1) << UInt64(b & 63) }
            return BinaryDescriptor(words[0], words[1], words[2], words[3])
        }
    }
}

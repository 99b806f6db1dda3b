import Foundation

/// A vocabulary tree of binary words for place recognition: Gálvez-López & Tardós, "Bags of Binary
/// Words for Fast Place Recognition in Image Sequences", IEEE T-RO 28(5), 2012 (the DBoW2 paper).
///
/// The tree has branching factor `k` and at most `L` levels below the root. Every node but the
/// root holds a centre, a ``BinaryDescriptor``; a descriptor descends from the root to the child
/// whose centre is nearest in Hamming distance, level by level, until it reaches a leaf. The
/// leaves are the *words*. Each word carries an inverse document frequency weight learnt from
/// the training images (the paper's section on the image database):
///
///     idf(i) = ln(N / nᵢ)      N training images, nᵢ of them holding word i
///
/// so words seen everywhere count for nothing and rare words count most. An image becomes a
/// sparse ``BagOfWords`` of term-frequency × idf entries (``bagOfWords(_:)``), compared with the
/// L1 score of ``BagOfWords/score(_:)``. Lookup costs `k · L` Hamming distances per descriptor,
/// independent of the map's size. Make one with ``train(images:configuration:)`` or load one
/// with ``VocabularyFile``; ``standard`` is the one shipped with the package.
///
/// ```swift
/// let vocabulary = try Vocabulary.train(images: descriptorsPerImage)
/// let a = vocabulary.bagOfWords(query), b = vocabulary.bagOfWords(keyframe)
/// let similarity = a.score(b)  // 0 (nothing shared) … 1 (the same words, same proportions)
/// ```
public final class Vocabulary: Sendable {
    /// Children per node at most (`k`).
    public let branching: Int
    /// Levels below the root at most (`L`).
    public let depth: Int
    /// Images the vocabulary was trained on (`N` of the idf weights).
    public let trainingImageCount: Int
    /// Descriptors clustered to build the tree.
    public let trainingDescriptorCount: Int
    /// Parent of each node (nodes in breadth-first order; -1 for the root, node 0).
    let parents: [Int]
    /// Centre of each node (the root's is unused and zero).
    let centres: [BinaryDescriptor]
    /// First child and number of children of each node (children are contiguous in BFS order).
    let firstChild: [Int]
    let childCount: [Int]
    /// The word of each leaf, -1 for inner nodes.
    let wordOfNode: [Int]
    /// The node of each word.
    let nodeOfWord: [Int]
    /// Idf weight of each word (≥ 0).
    public let weights: [Double]

    /// Number of words (leaves).
    public var wordCount: Int { nodeOfWord.count }
    /// Number of nodes, the root included.
    public var nodeCount: Int { parents.count }

    /// Builds a vocabulary from its nodes in breadth-first order and its leaves' weights (in node
    /// order), checking the structure: what training produces and what a file must hold.
    /// - Throws: ``VocabularyError`` saying what is inconsistent.
    init(branching: Int, depth: Int, parents: [Int], centres: [BinaryDescriptor], weights: [Double],
         trainingImageCount: Int, trainingDescriptorCount: Int) throws {
        guard Self.branchingRange.contains(branching), Self.depthRange.contains(depth) else {
            throw VocabularyError("branching \(branching) or depth \(depth) out of range "
                                  + "(\(Self.branchingRange), \(Self.depthRange))")
        }
        guard parents.count == centres.count, parents.count >= 2, parents[0] == -1 else {
            throw VocabularyError("the tree needs a root and at least one word (\(parents.count) nodes)")
        }
        var firstChild = [Int](repeating: 0, count: parents.count)
        var childCount = [Int](repeating: 0, count: parents.count)
        var level = [Int](repeating: 0, count: parents.count)
        for i in 1..<parents.count {
            let p = parents[i]
            // Breadth-first order: a parent comes before its children, and siblings are adjacent.
            guard p >= 0, p < i, p >= parents[i - 1] else { throw VocabularyError("node \(i): parent \(p) breaks breadth-first order") }
            if childCount[p] == 0 { firstChild[p] = i }
            childCount[p] += 1
            level[i] = level[p] + 1
            guard childCount[p] <= branching, level[i] <= depth else {
                throw VocabularyError("node \(i): more than \(branching) children or deeper than \(depth) levels")
            }
        }
        var wordOfNode = [Int](repeating: -1, count: parents.count)
        var nodeOfWord: [Int] = []
        for i in 1..<parents.count where childCount[i] == 0 {
            wordOfNode[i] = nodeOfWord.count
            nodeOfWord.append(i)
        }
        guard weights.count == nodeOfWord.count else {
            throw VocabularyError("\(weights.count) weights for \(nodeOfWord.count) words")
        }
        guard weights.allSatisfy({ $0.isFinite && $0 >= 0 }) else { throw VocabularyError("a word weight is negative or not finite") }
        guard trainingImageCount >= 0, trainingDescriptorCount >= 0 else { throw VocabularyError("negative training counts") }
        self.branching = branching
        self.depth = depth
        self.parents = parents
        self.centres = centres
        self.weights = weights
        self.firstChild = firstChild
        self.childCount = childCount
        self.wordOfNode = wordOfNode
        self.nodeOfWord = nodeOfWord
        self.trainingImageCount = trainingImageCount
        self.trainingDescriptorCount = trainingDescriptorCount
    }

    /// Accepted branching factors.
    public static let branchingRange = 2...64
    /// Accepted depths.
    public static let depthRange = 1...8

    /// The word of `descriptor`: the leaf reached by descending to the nearest child centre at
    /// every level (ties go to the first child).
    public func word(for descriptor: BinaryDescriptor) -> Int {
        var node = 0
        while childCount[node] > 0 {
            let first = firstChild[node]
            var best = first, bestDistance = Int.max
            for c in first..<first + childCount[node] {
                let d = centres[c].distance(to: descriptor)
                if d < bestDistance { (best, bestDistance) = (c, d) }
            }
            node = best
        }
        return wordOfNode[node]
    }

    /// The centres on the path from the root to `word`'s leaf (level 1 first).
    public func path(to word: Int) -> [BinaryDescriptor] {
        var node = nodeOfWord[word], out: [BinaryDescriptor] = []
        while node > 0 { out.append(centres[node]); node = parents[node] }
        return out.reversed()
    }

    /// The bag of words of one image's descriptors: entry i is tf(i) · idf(i), with
    /// tf(i) = nᵢ/n (nᵢ of the n descriptors fall in word i), then scaled to unit
    /// L1 norm. Words of zero weight (seen in every training image) are left out.
    public func bagOfWords(_ descriptors: [BinaryDescriptor]) -> BagOfWords {
        var counts: [Int: Int] = [:]
        for d in descriptors { counts[word(for: d), default: 0] += 1 }
        var entries = counts.compactMap { word, n -> (Int, Double)? in
            let v = Double(n) * weights[word]  // 1/n cancels in the normalisation below
            return v > 0 ? (word, v) : nil
        }
        entries.sort { $0.0 < $1.0 }
        let total = entries.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return BagOfWords() }
        return BagOfWords(words: entries.map(\.0), values: entries.map { $0.1 / total })
    }
}

/// A vocabulary that cannot be built or read; the text names the file when there is one.
public struct VocabularyError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What is wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// A sparse bag-of-words vector of one image: word ids in increasing order with their tf-idf
/// values, scaled to unit L1 norm (``Vocabulary/bagOfWords(_:)``).
public struct BagOfWords: Sendable, Equatable {
    /// Word ids, increasing.
    public let words: [Int]
    /// Value of each word (> 0, summing to 1 unless the bag is empty).
    public let values: [Double]

    /// An empty bag (an image without descriptors, or only of zero-weight words).
    public init() {
        words = []
        values = []
    }

    /// A bag from sorted word ids and their normalised values.
    init(words: [Int], values: [Double]) {
        self.words = words
        self.values = values
    }

    /// True when the bag holds no word.
    public var isEmpty: Bool { words.isEmpty }

    /// The L1 score of Gálvez-López & Tardós 2012 (after Nistér & Stewénius 2006),
    ///
    ///     s(v₁, v₂) = 1 − ½ ‖ v₁/‖v₁‖₁ − v₂/‖v₂‖₁ ‖₁ ∈ [0, 1],
    ///
    /// 1 for the same proportions of the same words, 0 for no word in common. With both vectors
    /// non-negative and of unit L1 norm, words held by one side only add their whole value to the
    /// difference, so s = ½ Σ_common (aᵢ + bᵢ − |aᵢ − bᵢ|) = Σ_common min(aᵢ, bᵢ): one pass over the
    /// words both share, which is what the inverted index accumulates.
    public func score(_ other: BagOfWords) -> Double {
        var i = 0, j = 0, s = 0.0
        while i < words.count, j < other.words.count {
            if words[i] == other.words[j] {
                s += min(values[i], other.values[j])
                i += 1
                j += 1
            } else if words[i] < other.words[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return s
    }
}

/// Word → the documents (keyframe slots) holding it, with their values: scoring a query visits only
/// the documents that share one of its words (the inverted index of Gálvez-López & Tardós 2012).
struct InvertedIndex: Sendable {
    private var postings: [[(document: Int, value: Double)]]

    /// An empty index over `wordCount` words.
    init(wordCount: Int) { postings = Array(repeating: [], count: wordCount) }

    /// Adds document `document` with bag `bag`.
    mutating func add(_ bag: BagOfWords, document: Int) {
        for (w, v) in zip(bag.words, bag.values) where w < postings.count { postings[w].append((document, v)) }
    }

    /// L1 scores (``BagOfWords/score(_:)``) of every document sharing a word with `query`, by document.
    func scores(_ query: BagOfWords) -> [Int: Double] {
        var scores: [Int: Double] = [:]
        for (w, q) in zip(query.words, query.values) where w < postings.count {
            for p in postings[w] { scores[p.document, default: 0] += min(q, p.value) }
        }
        return scores
    }
}

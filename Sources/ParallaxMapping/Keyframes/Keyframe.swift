import Foundation
import ParallaxMath

/// A map point seen by a keyframe: its world position, where the keyframe saw it, and the
/// descriptor there.
public struct KeyframePoint: Sendable, Equatable {
    /// The tracker's feature id (unique within a tracking segment).
    public var featureID: Int
    /// Position in the map's world (z up, m).
    public var position_world: Vector3
    /// Pixel in the keyframe's cam0 image.
    public var pixel: Vector2
    /// Oriented BRIEF descriptor at ``pixel``.
    public var descriptor: BinaryDescriptor

    /// Creates a point.
    public init(featureID: Int, position_world: Vector3, pixel: Vector2, descriptor: BinaryDescriptor) {
        self.featureID = featureID
        self.position_world = position_world
        self.pixel = pixel
        self.descriptor = descriptor
    }
}

/// A keyframe of the world map: a cam0 pose in the map's world and the points it saw.
public struct Keyframe: Sendable, Equatable {
    /// Identifier, increasing in creation order.
    public var id: Int
    /// Frame time (s, the dataset clock of the session that made it).
    public var timestamp: Double
    /// The cam0 pose (OpenCV camera) in the map's world.
    public var T_world_camera: RigidTransform
    /// Points seen, with descriptors.
    public var points: [KeyframePoint]

    /// Creates a keyframe.
    public init(id: Int, timestamp: Double, T_world_camera: RigidTransform, points: [KeyframePoint]) {
        self.id = id
        self.timestamp = timestamp
        self.T_world_camera = T_world_camera
        self.points = points
    }

    /// Viewing direction (optical axis) in the world.
    public var axis_world: Vector3 { T_world_camera.rotate(Vector3(0, 0, 1)) }
}

/// The keyframes of a map with the questions mapping asks of them. With a ``Vocabulary`` (by
/// default ``Vocabulary/standard``) every keyframe's descriptors are also kept as a bag of words
/// in an inverted index, so ``candidates(for:maximumDistance:count:minimumVotes:)`` finds places
/// without visiting every keyframe.
public struct KeyframeDatabase: Sendable, Equatable {
    /// All keyframes, by id order.
    public private(set) var keyframes: [Keyframe] = []
    /// The vocabulary of the place-recognition index; nil: candidates by brute-force votes.
    /// Setting it recomputes every keyframe's bag of words.
    public var vocabulary: Vocabulary? {
        didSet {
            bags = []
            reindex()
        }
    }
    /// Each keyframe's bag of words (same order as ``keyframes``; empty without a vocabulary).
    public private(set) var bags: [BagOfWords] = []
    /// Keyframes ranked by bag-of-words score whose descriptor votes are counted in
    /// ``candidates(for:maximumDistance:count:minimumVotes:)``.
    public var shortlistLength = 10
    private var index: InvertedIndex?

    /// An empty database.
    public init(vocabulary: Vocabulary? = .standard) {
        self.vocabulary = vocabulary
        reindex()
    }

    /// A database holding `keyframes`.
    public init(keyframes: [Keyframe], vocabulary: Vocabulary? = .standard) {
        self.keyframes = keyframes.sorted { $0.id < $1.id }
        self.vocabulary = vocabulary
        reindex()
    }

    /// Same keyframes and same vocabulary (by identity); the index is derived from them.
    public static func == (a: KeyframeDatabase, b: KeyframeDatabase) -> Bool {
        a.keyframes == b.keyframes && a.vocabulary === b.vocabulary
    }

    /// The next free keyframe id.
    public var nextID: Int { (keyframes.last?.id ?? -1) + 1 }

    /// Total map points over all keyframes.
    public var pointCount: Int { keyframes.reduce(0) { $0 + $1.points.count } }

    /// Adds a keyframe.
    public mutating func add(_ keyframe: Keyframe) {
        keyframes.append(keyframe)
        guard let vocabulary else { return }
        let bag = vocabulary.bagOfWords(keyframe.points.map(\.descriptor))
        bags.append(bag)
        index?.add(bag, document: keyframes.count - 1)
    }

    /// The keyframes for which `isIncluded` holds, with their bags of words (nothing recomputed).
    public func filter(_ isIncluded: (Keyframe) -> Bool) -> KeyframeDatabase {
        var out = KeyframeDatabase(vocabulary: vocabulary, keyframes: [], bags: [])
        out.shortlistLength = shortlistLength
        for i in keyframes.indices where isIncluded(keyframes[i]) {
            out.keyframes.append(keyframes[i])
            if i < bags.count { out.bags.append(bags[i]) }
        }
        out.reindex()  // the bags match the keyframes: only the index is rebuilt
        return out
    }

    /// A database from keyframes in id order and their bags (none: computed by ``reindex()``).
    private init(vocabulary: Vocabulary?, keyframes: [Keyframe], bags: [BagOfWords]) {
        self.vocabulary = vocabulary
        self.keyframes = keyframes
        self.bags = bags
    }

    /// Replaces keyframes by moved copies with the same ids (poses and point positions corrected,
    /// descriptors unchanged, so the bags of words stay); ids not in the database are ignored.
    public mutating func replacePoses(from moved: [Keyframe]) {
        let slot = Dictionary(uniqueKeysWithValues: keyframes.enumerated().map { ($1.id, $0) })
        for k in moved {
            guard let i = slot[k.id] else { continue }
            keyframes[i].T_world_camera = k.T_world_camera
            for j in keyframes[i].points.indices where j < k.points.count {
                keyframes[i].points[j].position_world = k.points[j].position_world
            }
        }
    }

    /// Computes the bags (unless they already match the keyframes) and the inverted index.
    private mutating func reindex() {
        guard let vocabulary else {
            bags = []
            index = nil
            return
        }
        if bags.count != keyframes.count { bags = keyframes.map { vocabulary.bagOfWords($0.points.map(\.descriptor)) } }
        var built = InvertedIndex(wordCount: vocabulary.wordCount)
        for (i, bag) in bags.enumerated() { built.add(bag, document: i) }
        index = built
    }

    /// The keyframe nearest to a camera pose that looks the same way: within `distance` metres
    /// and `angle` radians of viewing direction, nil if none (a place already mapped).
    /// `isIncluded`, when given, limits the answer to the keyframes it accepts.
    public func covering(_ T_world_camera: RigidTransform, distance: Double, angle: Double,
                         where isIncluded: ((Keyframe) -> Bool)? = nil) -> Keyframe? {
        let axis = T_world_camera.rotate(Vector3(0, 0, 1))
        let cosMax = cos(angle)
        var best: (Double, Keyframe)?
        for k in keyframes where k.axis_world.dot(axis) >= cosMax && isIncluded?(k) != false {
            let d = (k.T_world_camera.translation - T_world_camera.translation).norm
            if d <= distance, d < (best?.0 ?? .infinity) { best = (d, k) }
        }
        return best?.1
    }

    /// Candidate keyframes for a query image's descriptors, best first, at most `count`, each with
    /// at least `minimumVotes` query descriptors that find a point within `maximumDistance` bits.
    ///
    /// With a vocabulary: the keyframes sharing words with the query, from the inverted index,
    /// ranked by bag-of-words L1 score; the best ``shortlistLength`` are then ordered by their votes.
    /// Votes decide the final order because they count what PnP will get — matchable points —
    /// while the score also rewards words the keyframe's few map points do not hold: ordered by
    /// score alone, the V1_01 blackout run picked keyframes with too few inliers and did not
    /// relocalize (docs/world-maps.md). Without a vocabulary: every keyframe's votes (cost
    /// keyframes × query × points).
    /// `isIncluded`, when given, limits the answer to the keyframes it accepts (loop detection: old
    /// enough ones) without building a filtered database and its index on every query.
    public func candidates(for descriptors: [BinaryDescriptor], maximumDistance: Int = 50, count: Int = 3,
                           minimumVotes: Int = 12, where isIncluded: ((Keyframe) -> Bool)? = nil) -> [Keyframe] {
        guard let vocabulary, let index else {
            let eligible = isIncluded.map { keyframes.filter($0) } ?? keyframes
            return Self.rankedByVotes(eligible, descriptors, maximumDistance: maximumDistance, count: count, minimumVotes: minimumVotes)
        }
        let shortlist = bestScoring(vocabulary, index, descriptors, count: shortlistLength, where: isIncluded)
        return Self.rankedByVotes(shortlist, descriptors, maximumDistance: maximumDistance, count: count, minimumVotes: minimumVotes)
    }

    /// The `count` keyframes that share the most with a query by bag-of-words score (ties: newer
    /// first), limited to those `isIncluded` accepts; without a vocabulary every such keyframe.
    public func bestScoring(_ descriptors: [BinaryDescriptor], count: Int, where isIncluded: ((Keyframe) -> Bool)? = nil) -> [Keyframe] {
        guard let vocabulary, let index else { return isIncluded.map { keyframes.filter($0) } ?? keyframes }
        return bestScoring(vocabulary, index, descriptors, count: count, where: isIncluded)
    }

    private func bestScoring(_ vocabulary: Vocabulary, _ index: InvertedIndex, _ descriptors: [BinaryDescriptor], count: Int,
                             where isIncluded: ((Keyframe) -> Bool)?) -> [Keyframe] {
        index.scores(vocabulary.bagOfWords(descriptors)).filter { entry in
            isIncluded.map { $0(keyframes[entry.key]) } ?? true
        }.sorted {
            $0.value != $1.value ? $0.value > $1.value : keyframes[$0.key].id > keyframes[$1.key].id
        }.prefix(count).map { keyframes[$0.key] }
    }

    /// ``candidates(for:maximumDistance:count:minimumVotes:)`` without the vocabulary: every keyframe's votes.
    public func bruteForceCandidates(for descriptors: [BinaryDescriptor], maximumDistance: Int = 50, count: Int = 3,
                                     minimumVotes: Int = 12) -> [Keyframe] {
        Self.rankedByVotes(keyframes, descriptors, maximumDistance: maximumDistance, count: count, minimumVotes: minimumVotes)
    }

    /// The keyframes with at least `minimumVotes` votes, most first (ties: newer first), at most `count`.
    private static func rankedByVotes(_ keyframes: [Keyframe], _ descriptors: [BinaryDescriptor], maximumDistance: Int,
                                      count: Int, minimumVotes: Int) -> [Keyframe] {
        var scored: [(Int, Keyframe)] = []
        for k in keyframes {
            let votes = Self.votes(descriptors, k, maximumDistance: maximumDistance)
            if votes >= minimumVotes { scored.append((votes, k)) }
        }
        return scored.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1.id > $1.1.id }.prefix(count).map(\.1)
    }

    /// Query descriptors with a point of `k` within `maximumDistance` bits.
    private static func votes(_ descriptors: [BinaryDescriptor], _ k: Keyframe, maximumDistance: Int) -> Int {
        var votes = 0
        for q in descriptors where k.points.contains(where: { $0.descriptor.distance(to: q) <= maximumDistance }) {
            votes += 1
        }
        return votes
    }

    /// Moves every keyframe and point by a 4-DoF correction `T` (applied on the world side).
    public mutating func transform(by T: RigidTransform) {
        for i in keyframes.indices {
            keyframes[i].T_world_camera = T * keyframes[i].T_world_camera
            for j in keyframes[i].points.indices { keyframes[i].points[j].position_world = T * keyframes[i].points[j].position_world }
        }
    }
}

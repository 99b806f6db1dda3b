/// Brute-force Hamming matching with Lowe's ratio test, one-to-one.
public struct DescriptorMatcher: Sendable {
    /// Largest accepted distance (bits of 256).
    public var maximumDistance: Int
    /// Best distance must be below `ratio ×` second best.
    public var ratio: Double

    /// Creates a matcher; 64 bits and 0.8 are ORB-SLAM-like for relocalization.
    public init(maximumDistance: Int = 64, ratio: Double = 0.8) {
        self.maximumDistance = maximumDistance
        self.ratio = ratio
    }

    /// Matches each query descriptor to its nearest train descriptor; a train descriptor keeps
    /// only its best query. Returns (query index, train index, distance), by query index.
    public func match(_ query: [BinaryDescriptor], _ train: [BinaryDescriptor]) -> [(query: Int, train: Int, distance: Int)] {
        var bestForTrain: [Int: (query: Int, distance: Int)] = [:]
        for (qi, q) in query.enumerated() {
            var best = Int.max, second = Int.max, bestIndex = -1
            for (ti, t) in train.enumerated() {
                let d = q.distance(to: t)
                if d < best {
                    second = best
                    best = d
                    bestIndex = ti
                } else if d < second {
                    second = d
                }
            }
            guard bestIndex >= 0, best <= maximumDistance,
                  second == Int.max || Double(best) < ratio * Double(second) else { continue }
            if let previous = bestForTrain[bestIndex], previous.distance <= best { continue }
            bestForTrain[bestIndex] = (qi, best)
        }
        return bestForTrain.map { (query: $0.value.query, train: $0.key, distance: $0.value.distance) }
            .sorted { $0.query < $1.query }
    }
}

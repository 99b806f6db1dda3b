/// Nearest-neighbour queries over a fixed set of 3-D points: a k-d tree (Bentley 1975) built once,
/// answering each query in about log n distance computations instead of n.
///
/// Why it exists: a loop closure moves every map point and plane with the correction of the
/// keyframe nearest to it; with thousands of points and hundreds of keyframes a linear scan per
/// point cost millions of distances per closure on the tracking thread.
///
/// Ties are broken towards the lower index, so an answer is exactly what a linear scan that
/// keeps the first minimum (`min(by:)`) gives; results never depend on the tree's shape.
public struct NearestPointIndex: Sendable {
    /// The points, in the order given; answers are indices into this array.
    public let points: [Vector3]
    /// Point indices arranged as an implicit balanced tree: the median of each range is its node.
    private let order: [Int]
    /// Split axis (0, 1, 2) of the node stored at the same position of `order`.
    private let axes: [UInt8]

    /// Builds the index (O(n log² n) with the sorts at each level; n is small here).
    public init(_ points: [Vector3]) {
        self.points = points
        var order = Array(points.indices)
        var axes = [UInt8](repeating: 0, count: points.count)
        Self.build(&order, &axes, points, 0, points.count)
        self.order = order
        self.axes = axes
    }

    /// Index of the point nearest to `query` (Euclidean; ties: the lower index); nil when the
    /// index is empty or no distance is a number (a query or points that are not finite).
    public func nearest(to query: Vector3) -> Int? {
        var best = (index: Int.max, distance: Double.infinity)
        search(query, 0, order.count, &best)
        return best.index == .max ? nil : best.index
    }

    /// Splits `order[lo..<hi]` on the axis of widest spread at its median, recursively.
    private static func build(_ order: inout [Int], _ axes: inout [UInt8], _ points: [Vector3], _ lo: Int, _ hi: Int) {
        guard hi - lo > 1 else { return }
        var low = Vector3(repeating: .infinity), high = Vector3(repeating: -.infinity)
        for i in lo..<hi {
            low = pointwiseMin(low, points[order[i]])
            high = pointwiseMax(high, points[order[i]])
        }
        let spread = high - low
        let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
        let sorted = order[lo..<hi].sorted { points[$0][axis] < points[$1][axis] }
        order.replaceSubrange(lo..<hi, with: sorted)
        let mid = (lo + hi) / 2
        axes[mid] = UInt8(axis)
        build(&order, &axes, points, lo, mid)
        build(&order, &axes, points, mid + 1, hi)
    }

    private func search(_ q: Vector3, _ lo: Int, _ hi: Int, _ best: inout (index: Int, distance: Double)) {
        guard lo < hi else { return }
        let mid = (lo + hi) / 2
        let i = order[mid]
        let d = (points[i] - q).squaredNorm
        if d < best.distance || (d == best.distance && i < best.index) { best = (i, d) }
        guard hi - lo > 1 else { return }
        let axis = Int(axes[mid])
        let gap = q[axis] - points[i][axis]
        let (near, far) = gap < 0 ? ((lo, mid), (mid + 1, hi)) : ((mid + 1, hi), (lo, mid))
        search(q, near.0, near.1, &best)
        // `<=`: a point on the far side at exactly the best distance may hold a lower index.
        if gap * gap <= best.distance { search(q, far.0, far.1, &best) }
    }
}

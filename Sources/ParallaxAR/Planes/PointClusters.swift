import Foundation
import ParallaxMath

/// Single-linkage clustering of 2D points: two points are connected when closer than `radius`;
/// returns the connected components (index lists, each sorted, largest first; ties by first index).
///
/// Grid-based, as in grid DBSCAN (Gunawan 2013; Gan & Tao, SIGMOD 2015): cells of side just under
/// `radius / √2` have a diagonal shorter than `radius`, so all points of one cell are connected and
/// the cells, not the points, are what gets joined. Two cells at most two apart along each axis
/// are joined (union–find) when any pair of their points is within `radius`; the search stops at
/// the first such pair and is skipped for cells already joined. The plane tracker clusters every
/// plane's candidates each update with a radius (0.8 m) that holds dozens of points per cell, where
/// a point-by-point flood fill compared each point with all its neighbours.
enum PointClusters {
    static func components(_ points: [Vector2], radius: Double) -> [[Int]] {
        guard !points.isEmpty else { return [] }
        // The margin keeps the diagonal below `radius` despite rounding in the cell index.
        let side = radius / 2.squareRoot() * (1 - 1e-9)
        func cell(_ p: Vector2) -> SIMD2<Int> { SIMD2(Int((p.x / side).rounded(.down)), Int((p.y / side).rounded(.down))) }
        var cellIndex: [SIMD2<Int>: Int] = [:]
        var members: [[Int]] = []
        var keys: [SIMD2<Int>] = []
        for (i, p) in points.enumerated() {
            let c = cell(p)
            if let k = cellIndex[c] {
                members[k].append(i)
            } else {
                cellIndex[c] = members.count
                members.append([i])
                keys.append(c)
            }
        }
        var parent = Array(members.indices)
        func root(_ k: Int) -> Int {
            var k = k
            while parent[k] != k {
                parent[k] = parent[parent[k]]
                k = parent[k]
            }
            return k
        }
        let r2 = radius * radius
        func linked(_ a: [Int], _ b: [Int]) -> Bool {
            for i in a {
                for j in b where ((points[j] - points[i]) * (points[j] - points[i])).sum() <= r2 { return true }
            }
            return false
        }
        for (k, c) in keys.enumerated() {
            // Each unordered pair of cells once: the offsets after (0, 0) in row-major order.
            for dx in 0...2 {
                for dy in -2...2 where dx > 0 || dy > 0 {
                    guard let other = cellIndex[c &+ SIMD2(dx, dy)] else { continue }
                    let (ra, rb) = (root(k), root(other))
                    if ra != rb, linked(members[k], members[other]) { parent[max(ra, rb)] = min(ra, rb) }
                }
            }
        }
        var grouped: [Int: [Int]] = [:]
        for k in members.indices { grouped[root(k), default: []] += members[k] }
        return grouped.values.map { $0.sorted() }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0[0] < $1[0] }
    }
}

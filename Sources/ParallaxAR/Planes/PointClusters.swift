import Foundation
import ParallaxMath

/// Single-linkage clustering of 2D points: two points are connected when closer than `radius`;
/// returns the connected components (index lists, each sorted, largest first; ties by first index).
/// Uses a uniform grid of cell size `radius`, so each point checks only its 3×3 neighbourhood.
enum PointClusters {
    static func components(_ points: [Vector2], radius: Double) -> [[Int]] {
        guard !points.isEmpty else { return [] }
        func cell(_ p: Vector2) -> SIMD2<Int> { SIMD2(Int((p.x / radius).rounded(.down)), Int((p.y / radius).rounded(.down))) }
        var grid: [SIMD2<Int>: [Int]] = [:]
        for (i, p) in points.enumerated() { grid[cell(p), default: []].append(i) }
        var label = [Int](repeating: -1, count: points.count)
        var result: [[Int]] = []
        let r2 = radius * radius
        for start in 0..<points.count where label[start] < 0 {
            var component = [start]
            label[start] = result.count
            var k = 0
            while k < component.count {
                let i = component[k]
                k += 1
                let c = cell(points[i])
                for dx in -1...1 {
                    for dy in -1...1 {
                        for j in grid[c &+ SIMD2(dx, dy)] ?? [] where label[j] < 0 {
                            if ((points[j] - points[i]) * (points[j] - points[i])).sum() <= r2 {
                                label[j] = result.count
                                component.append(j)
                            }
                        }
                    }
                }
            }
            result.append(component.sorted())
        }
        return result.sorted { $0.count != $1.count ? $0.count > $1.count : $0[0] < $1[0] }
    }
}

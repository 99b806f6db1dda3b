import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// The local surface check on synthetic, densely mapped walls (10 cm grid, as dense as the
/// landmark map's 4 cm voxels on a textured wall seen a few metres away).
@Suite struct LocalSurfaceTests {
    /// Four walls of a 4 × 4 m room, 0.1–2.5 m high, no floor points.
    static func walls() -> [Vector3] {
        var points: [Vector3] = []
        for k in 0..<40 {
            for j in 0..<25 {
                let s = -2 + 0.1 * Double(k), z = 0.1 + 0.1 * Double(j)
                points += [Vector3(s, -2, z), Vector3(s, 2, z), Vector3(-2, s, z), Vector3(2, s, z)]
            }
        }
        return points
    }

    @Test func wallPointsAreVerticalLayers() {
        let points = Self.walls()
        let surfaces = LocalSurfaces.classify(points, indices: Array(points.indices))
        let vertical = surfaces.filter { $0 == .vertical }.count
        // All but the corners' points (two walls meet there: no thin layer).
        #expect(Double(vertical) >= 0.9 * Double(points.count))
        #expect(!surfaces.contains(.horizontal))
    }

    @Test func noPhantomSlabThroughWalls() {
        // Each 5 cm height band holds 160 wall points: without the check, the horizontal consensus
        // (which runs before the vertical search) took one band as a 16 m² "floor".
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        let map = Self.walls().enumerated().map {
            MapPoint(id: UInt64($0.offset), position: $0.element, covariance: MapPoint.defaultCovariance)
        }
        _ = tracker.update(points: map, cameraPosition: Vector3(0, 0, 1.5), timestamp: 0)
        #expect(!tracker.planes.values.contains { $0.alignment == .horizontal })
        #expect(tracker.planes.values.filter { $0.alignment == .vertical }.count == 4)
    }

    @Test func sparsePointsGetNoVerdict() {
        let points = [Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0)]
        #expect(LocalSurfaces.classify(points, indices: [0, 1, 2]) == [.sparse, .sparse, .sparse])
    }

    /// Without a move tolerance the cache answers exactly as a fresh classification while points
    /// arrive, move and leave (a slanted patch, a wall and clutter that change over eight updates).
    @Test func cacheMatchesAFreshClassification() {
        var noise = PlaneTrackerTests.Noise(state: 21)
        var map: [UInt64: Vector3] = [:]
        for (i, p) in Self.walls().enumerated() where i % 3 == 0 { map[UInt64(i)] = p }
        var cache = LocalSurfaceCache()
        cache.moveTolerance = 0
        var nextID: UInt64 = 100_000
        for step in 0..<8 {
            let ids = map.keys.sorted()
            let points = ids.map { map[$0]! }
            let indices = Array(stride(from: step % 2, to: points.count, by: 2))
            #expect(cache.classify(points, ids: ids, indices: indices, update: step) == LocalSurfaces.classify(points, indices: indices))
            // Move a few points on one wall, remove some, add clutter near another.
            for id in ids.prefix(40) { map[id] = map[id]! + Vector3(noise.next(0.05), noise.next(0.05), noise.next(0.05)) }
            for id in ids.suffix(30) { map[id] = nil }
            for _ in 0..<25 {
                map[nextID] = Vector3(1.8 + noise.next(0.2), noise.next(1), 1 + noise.next(0.5))
                nextID += 1
            }
        }
    }

    /// Moves under the tolerance keep a verdict, even one they would change; once they add up
    /// past it, the verdicts around the point are renewed.
    @Test func smallMovesAddUpBeforeTheyRenewAVerdict() {
        // Five points in a 6 mm square layer; the middle one then rises.
        var points = [Vector3(0, 0, 0), Vector3(0.006, 0, 0), Vector3(0, 0.006, 0), Vector3(0.006, 0.006, 0), Vector3(0.003, 0.003, 0)]
        let ids: [UInt64] = [1, 2, 3, 4, 5]
        var cache = LocalSurfaceCache()
        cache.moveTolerance = 0.005
        #expect(cache.classify(points, ids: ids, indices: [0], update: 0)[0] == .horizontal)
        // 4 mm: a fresh verdict says the layer is no longer thin; the cache keeps its verdict.
        points[4].z = 0.004
        #expect(LocalSurfaces.classify(points, indices: [0])[0] == .unknown)
        #expect(cache.classify(points, ids: ids, indices: [0], update: 1)[0] == .horizontal)
        // Another 2 mm: 6 mm from where the verdict was made, so it is renewed.
        points[4].z = 0.006
        #expect(cache.classify(points, ids: ids, indices: [0], update: 2)[0] == .unknown)
    }
}

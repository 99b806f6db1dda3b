import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// Free-space evidence against planes (`PlaneTracker+FreeSpace.swift`): a plane seen through by
/// as many points as support it is a phantom.
@Suite struct PlaneFreeSpaceTests {
    /// A `size` × `size` m grid of `n` × `n` points at height `z` (ids from `firstID`).
    static func slab(z: Double, size: Double = 2, n: Int, firstID: Int, noise: inout PlaneTrackerTests.Noise) -> [MapPoint] {
        (0..<(n * n)).map { k in
            let x = size * (Double(k % n) / Double(n - 1) - 0.5), y = size * (Double(k / n) / Double(n - 1) - 0.5)
            let p = Vector3(x, y, z + noise.next(0.005))
            return MapPoint(id: UInt64(firstID + k), position: p, covariance: MapPoint.defaultCovariance)
        }
    }

    /// A slab under a ceiling, through which the camera keeps seeing the ceiling's points (aliased
    /// tracks on a tiled ceiling made one 15 cm under it), is removed and not found again; the
    /// ceiling stays. (40 cm here: closer, the ceiling's points would enter the slab's local
    /// surface test and keep it from being found at all.)
    @Test func phantomUnderCeilingIsRemoved() throws {
        var noise = PlaneTrackerTests.Noise(state: 3)
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        let camera = Vector3(0.1, 0.2, 1.4)
        let ceiling = Self.slab(z: 3.0, size: 4, n: 25, firstID: 0, noise: &noise)
        _ = tracker.update(points: ceiling, visible: Set(ceiling.map(\.id)), cameraPosition: camera, timestamp: 0)
        let ceilingPlane = try #require(tracker.planes.values.first)
        #expect(tracker.planes.count == 1 && ceilingPlane.classification == .ceiling)

        let phantom = Self.slab(z: 2.6, n: 11, firstID: 1000, noise: &noise)
        var removed: [Int] = []
        for t in 1...4 {
            // Only the phantom's points are new in the first update; later the ceiling is seen again.
            let visible = t == 1 ? Set(phantom.map(\.id)) : Set((ceiling + phantom).map(\.id))
            let changes = tracker.update(points: ceiling + phantom, visible: visible, cameraPosition: camera, timestamp: Double(t))
            if t == 1 { #expect(tracker.planes.count == 2, "the slab is found first") }
            removed += changes.removed
        }
        #expect(removed.count == 1, "the phantom found at the first update is removed")
        #expect(tracker.planes.count == 1)
        #expect(tracker.planes[ceilingPlane.id] != nil)
        #expect(phantom.allSatisfy { tracker.refutedIDs.contains($0.id) })
    }

    /// A table top over a floor survives: the floor points the camera sees lie beside the table,
    /// their sight lines do not cross its top.
    @Test func tableOverFloorSurvives() {
        var noise = PlaneTrackerTests.Noise(state: 5)
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        // A 4 × 4 m floor, without the points under the table.
        let floor: [MapPoint] = Self.slab(z: 0, size: 4, n: 21, firstID: 0, noise: &noise).filter { (p: MapPoint) -> Bool in abs(p.position.x) > 0.7 || abs(p.position.y) > 0.5 }
        var table: [MapPoint] = []
        for k in 0..<117 {
            let x: Double = -0.6 + 0.1 * Double(k % 13)
            let y: Double = -0.4 + 0.1 * Double(k / 13)
            let p = Vector3(x, y, 0.75 + noise.next(0.005))
            table.append(MapPoint(id: UInt64(500 + k), position: p, covariance: MapPoint.defaultCovariance))
        }
        let all = floor + table
        for t in 0..<5 {
            let camera = Vector3(-1.2 + 0.6 * Double(t), -1.5, 1.6)
            _ = tracker.update(points: all, visible: Set(all.map(\.id)), cameraPosition: camera, timestamp: Double(t))
        }
        #expect(tracker.planes.values.contains { $0.classification == .table })
        #expect(tracker.planes.values.contains { $0.classification == .floor })
    }

    /// A wall seen through by a few mistriangulated points (30 cm outside the room, fewer than
    /// its support) stays; the points are not refuted (a drifting tracker sees a real wall again
    /// a few centimetres behind its first fit).
    @Test func wallSeenThroughByFewPointsStays() throws {
        var noise = PlaneTrackerTests.Noise(state: 9)
        var tracker = PlaneTracker(detection: [.vertical])
        func wall(y: Double, nx: Int, nz: Int, firstID: Int) -> [MapPoint] {
            (0..<(nx * nz)).map { k in
                MapPoint(id: UInt64(firstID + k), position: Vector3(-1.5 + 3 * Double(k % nx) / Double(nx - 1), y + noise.next(0.005),
                                                                    0.2 + 2 * Double(k / nx) / Double(nz - 1)),
                         covariance: MapPoint.defaultCovariance)
            }
        }
        let camera = Vector3(0, 0, 1.5)
        let front = wall(y: 2, nx: 12, nz: 8, firstID: 0)
        _ = tracker.update(points: front, visible: Set(front.map(\.id)), cameraPosition: camera, timestamp: 0)
        let wallPlane = try #require(tracker.planes.values.first)
        let behind = wall(y: 2.3, nx: 5, nz: 4, firstID: 1000).map {
            MapPoint(id: $0.id, position: Vector3($0.position.x * 0.5, $0.position.y, 0.6 + $0.position.z * 0.4), covariance: $0.covariance)
        }
        for t in 1...3 {
            _ = tracker.update(points: front + behind, visible: Set((front + behind).map(\.id)), cameraPosition: camera,
                               timestamp: Double(t))
        }
        #expect(tracker.planes[wallPlane.id] != nil)
        #expect(tracker.seenThrough[wallPlane.id]?.count == behind.count)
        #expect(tracker.refutedIDs.isEmpty)
    }

    @Test func insideDepthOfASquare() {
        let square = [Vector2(0, 0), Vector2(2, 0), Vector2(2, 2), Vector2(0, 2)]  // counter-clockwise
        #expect(abs(ConvexPolygon.insideDepth(Vector2(1, 1), inConvex: square, orientation: 1) - 1) < 1e-12)
        #expect(abs(ConvexPolygon.insideDepth(Vector2(0.3, 1), inConvex: square, orientation: 1) - 0.3) < 1e-12)
        #expect(ConvexPolygon.insideDepth(Vector2(-0.5, 1), inConvex: square, orientation: 1) < 0)
        let clockwise = Array(square.reversed())
        #expect(abs(ConvexPolygon.insideDepth(Vector2(1, 1), inConvex: clockwise, orientation: -1) - 1) < 1e-12)
    }
}

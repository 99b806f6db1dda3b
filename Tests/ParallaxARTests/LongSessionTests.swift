import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// What keeps a long session's cost flat: the bounded point map, planes that keep their extent
/// when their points age out, refits skipped when nothing changed; and the floor rule.
@Suite struct LongSessionTests {
    static func point(_ id: Int, _ p: Vector3) -> MapPoint {
        MapPoint(id: UInt64(id), position: p, covariance: MapPoint.defaultCovariance)
    }

    @Test func landmarkMapStaysBounded() {
        var map = LandmarkMap(voxelSize: 0.04, capacity: 500)
        var noise = PlaneTrackerTests.Noise(state: 7)
        var id = 0
        for _ in 0..<200 {
            var frame: [MapPoint] = []
            for _ in 0..<50 {
                frame.append(Self.point(id, Vector3(noise.next(5), noise.next(5), noise.next(1.5))))
                id += 1
            }
            map.insert(frame)
            #expect(map.count <= 500)
        }
        // The newest frame's points are all still there (only stale points are evicted).
        let ids = Set(map.points().map(\.id))
        #expect((id - 50..<id).allSatisfy { ids.contains(UInt64($0)) })
    }

    @Test func onePointPerVoxelAndLivePointsStay() {
        var map = LandmarkMap(voxelSize: 0.1, capacity: 100)
        map.insert([Self.point(1, Vector3(0.01, 0.01, 0.01)), Self.point(2, Vector3(0.02, 0.02, 0.02))])
        #expect(map.points().map(\.id) == [1])  // both live in one frame: the first stays
        map.insert([Self.point(3, Vector3(0.03, 0.03, 0.03))])
        #expect(map.points().map(\.id) == [3])  // point 1 was not seen this frame: replaced
        let revision = map.revision
        map.insert([Self.point(3, Vector3(0.03, 0.03, 0.03))])
        #expect(map.revision == revision)  // nothing moved: no change to react to
    }

    @Test func planesKeepTheirExtentWhenPointsAgeOutAndSkipUnchangedRefits() throws {
        var noise = PlaneTrackerTests.Noise(state: 4)
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        let room = PlaneTrackerTests.map(PlaneTrackerTests.room(&noise))
        _ = tracker.update(points: room, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0)
        let floorID = try #require(tracker.planes.values.first { $0.classification == .floor }?.id)
        // The same map again (once to settle the detection's fit into the grow step's): then no
        // plane changes and every refit is skipped.
        _ = tracker.update(points: room, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0.025)
        let area = try #require(tracker.planes[floorID]).area
        let skippedBefore = tracker.refitCounts.skipped
        let same = tracker.update(points: room, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0.05)
        #expect(same.planes.isEmpty && same.removed.isEmpty)
        #expect(tracker.refitCounts.skipped == skippedBefore + 3)
        // Half the floor's points leave the map (evicted): the floor keeps its extent.
        let kept = room.filter { !($0.position.z.magnitude < 0.05 && $0.position.x < 0) }
        _ = tracker.update(points: kept, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0.1)
        let floor = try #require(tracker.planes[floorID])
        #expect(floor.area >= area - 1e-9)
    }

    @Test func aLowShelfIsNotTheFloor() throws {
        var noise = PlaneTrackerTests.Noise(state: 5)
        var tracker = PlaneTracker(detection: [.horizontal])
        // A bookshelf's bottom shelf (1.2 × 0.32 m, 6.5 cm up), seen before the floor.
        var shelf: [MapPoint] = []
        for i in 0..<40 {
            shelf.append(Self.point(1000 + i, Vector3(-2.8 + 0.32 * Double(i % 4) / 3, -1.6 + 1.2 * Double(i / 4) / 9,
                                                      0.065 + noise.next(0.005))))
        }
        _ = tracker.update(points: shelf, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0)
        #expect(tracker.planes.count == 1)
        #expect(tracker.planes.values.allSatisfy { $0.classification != .floor })
        // Then the floor (3 m²): it is the floor, the shelf stays unclassified.
        let floor = PlaneTrackerTests.map(Array(PlaneTrackerTests.room(&noise).prefix(60)))
        _ = tracker.update(points: shelf + floor, cameraPosition: Vector3(0, 0, 1.6), timestamp: 1)
        let planes = tracker.planes.values.sorted { $0.offset < $1.offset }
        #expect(planes.count == 2)
        #expect(planes.first?.classification == .floor)
        #expect(planes.last?.classification == PlaneClassification.none)
    }
}

import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// Plane tracking on synthetic point maps (z-up world), with deterministic noise.
@Suite struct PlaneTrackerTests {
    /// Deterministic noise in [−a, a] (SplitMix64).
    struct Noise {
        var state: UInt64
        mutating func next(_ a: Double) -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return (Double(z >> 11) / Double(1 << 53) * 2 - 1) * a
        }
    }

    static func map(_ points: [Vector3]) -> [MapPoint] {
        points.enumerated().map { MapPoint(id: UInt64($0.offset), position: $0.element, covariance: MapPoint.defaultCovariance) }
    }

    /// Points on a floor patch (z = 0), a table (z = 0.75) and a wall (y = 2, facing −y).
    static func room(_ noise: inout Noise, floorX: ClosedRange<Double> = -1...1) -> [Vector3] {
        var pts: [Vector3] = []
        for i in 0..<60 {
            let x = floorX.lowerBound + (floorX.upperBound - floorX.lowerBound) * Double(i % 10) / 9
            pts.append(Vector3(x, -1 + 1.5 * Double(i / 10) / 5, noise.next(0.01)))
        }
        for i in 0..<30 { pts.append(Vector3(1.5 + 0.6 * Double(i % 6) / 5, 0.5 + 0.4 * Double(i / 6) / 4, 0.75 + noise.next(0.01))) }
        for i in 0..<40 { pts.append(Vector3(-1 + 2 * Double(i % 8) / 7, 2 + noise.next(0.01), 0.2 + 1.5 * Double(i / 8) / 4)) }
        return pts
    }

    @Test func detectsAndClassifiesFloorTableAndWall() throws {
        var noise = Noise(state: 1)
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        let changes = tracker.update(points: PlaneTrackerTests.map(Self.room(&noise)), cameraPosition: Vector3(0, 0, 1.6), timestamp: 0)
        #expect(changes.removed.isEmpty)
        let planes = tracker.planes.values.sorted { $0.id < $1.id }
        #expect(planes.count == 3)
        let floor = try #require(planes.first { $0.classification == .floor })
        #expect(abs(floor.offset) < 0.005 && floor.normal == Vector3(0, 0, 1))
        let table = try #require(planes.first { $0.classification == .table })
        #expect(abs(table.offset - 0.75) < 0.005)
        let wall = try #require(planes.first { $0.classification == .wall })
        // Facing the camera (at y = 0): normal −y, offset n·p = −2.
        #expect(wall.normal.dot(Vector3(0, -1, 0)) > cos(Double.pi / 180))
        #expect(abs(wall.offset + 2) < 0.005)
    }

    /// New planes grow from the free points seen within the detection window: with the camera on
    /// the floor, the table's points (in the map, never seen lately) found nothing; once the
    /// camera turns to them they found the table. Without sight lines every free point counts.
    @Test func newPlanesGrowFromPointsSeenLately() throws {
        var noise = Noise(state: 3)
        let points = Array(PlaneTrackerTests.map(Self.room(&noise)).prefix(90))  // floor 0..<60, table 60..<90
        let floorIDs = Set(points.prefix(60).map(\.id)), tableIDs = Set(points.suffix(30).map(\.id))
        var tracker = PlaneTracker(detection: [.horizontal])
        tracker.detectionWindow = 5
        for step in 0..<8 {
            _ = tracker.update(points: points, visible: floorIDs, cameraPosition: Vector3(0, 0, 1.6), timestamp: Double(step) * 0.1)
        }
        #expect(tracker.planes.values.map(\.classification) == [.floor])
        _ = tracker.update(points: points, visible: tableIDs, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0.8)
        #expect(Set(tracker.planes.values.map(\.classification)) == [.floor, .table])

        var blind = PlaneTracker(detection: [.horizontal])
        _ = blind.update(points: points, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0)
        #expect(Set(blind.planes.values.map(\.classification)) == [.floor, .table])
    }

    @Test func growsAndMergesPatchesOfOnePlane() throws {
        var noise = Noise(state: 2)
        var tracker = PlaneTracker(detection: [.horizontal])
        // Two floor patches 2 m apart: two planes.
        let left = Self.room(&noise, floorX: -3 ... -2).prefix(60)
        let right = Self.room(&noise, floorX: 1...2).prefix(60)
        _ = tracker.update(points: PlaneTrackerTests.map(Array(left + right)), cameraPosition: Vector3(0, 0, 1.6), timestamp: 0)
        #expect(tracker.planes.count == 2)
        // Points in between join them into one floor; the younger plane is removed.
        let middle = Self.room(&noise, floorX: -1.9...0.9).prefix(60)
        let changes = tracker.update(points: PlaneTrackerTests.map(Array(left + right + middle)), cameraPosition: Vector3(0, 0, 1.6), timestamp: 1)
        #expect(changes.removed == [1])
        #expect(tracker.planes.count == 1)
        let floor = try #require(tracker.planes[0])
        #expect(floor.area > 4 * 1.5 * 0.9)
        #expect(changes.planes.map(\.id) == [0])
    }

    @Test func anchorGeometryIsConsistent() throws {
        var noise = Noise(state: 3)
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        _ = tracker.update(points: PlaneTrackerTests.map(Self.room(&noise)), cameraPosition: Vector3(0, 0, 1.6), timestamp: 0)
        let T_A_W = RigidTransform(rotationMatrix: Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 0, 1), Vector3(0, -1, 0)),
                                   translation: Vector3(0, -1.6, 0))
        for plane in tracker.planes.values {
            let a = PlaneAnchorBuilder.anchor(for: plane, T_A_W: T_A_W, identifier: UUID())
            #expect(abs(a.geometry.area - plane.area) < 1e-9)
            // Boundary counter-clockwise seen from +y; every vertex on the plane.
            var signed = 0.0
            let b = a.geometry.boundaryVertices
            for i in 0..<b.count { signed += b[i].z * b[(i + 1) % b.count].x - b[i].x * b[(i + 1) % b.count].z }
            #expect(signed > 0)
            for p in a.worldBoundary { #expect(abs(a.signedDistance(p)) < 1e-9) }
            // The extent rectangle holds the boundary and is no larger than its bounding box.
            for v in b { #expect(RayGeometry.insideExtent(v, of: a)) }
            #expect(a.extent.width * a.extent.height >= a.geometry.area - 1e-9)
            #expect(a.geometry.triangleIndices.count == 3 * (b.count - 2))
            // The anchor normal in W is the detected normal.
            #expect((T_A_W.inverse.rotate(a.normal) - plane.normal).norm < 1e-9)
        }
    }
}

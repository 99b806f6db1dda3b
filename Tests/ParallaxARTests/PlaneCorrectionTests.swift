import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// The plane map follows a loop closure's correction of the map (`PlaneTracker.move(by:)`,
/// `LandmarkMap.move(by:)`): planes, their boundaries and their points move rigidly, so points
/// seen after the correction join the planes they belong to instead of founding copies.
@Suite struct PlaneCorrectionTests {
    /// A 4-DoF correction: 4° of yaw and a shift of 12 cm across the room's wall, 3 cm up.
    static let correction = RigidTransform(rotation: Quaternion(axis: Vector3(0, 0, 1), angle: 4 * Double.pi / 180),
                                           translation: Vector3(0.05, -0.12, 0.03))

    static func moved(_ points: [MapPoint], by T: RigidTransform) -> [MapPoint] {
        points.map { MapPoint(id: $0.id, position: T * $0.position, covariance: $0.covariance) }
    }

    @Test func planesMoveRigidlyWithTheCorrection() throws {
        var noise = PlaneTrackerTests.Noise(state: 11)
        var tracker = PlaneTracker(detection: [.horizontal, .vertical])
        let points = PlaneTrackerTests.map(PlaneTrackerTests.room(&noise))
        let camera = Vector3(0, 0, 1.6)
        _ = tracker.update(points: points, cameraPosition: camera, timestamp: 0)
        let before = tracker.planes
        #expect(before.count == 3)

        let T = Self.correction
        let moved = tracker.move(by: { _ in T })
        #expect(moved.count == 3)
        for (id, old) in before {
            let new = try #require(tracker.planes[id])
            // Each boundary corner is the old one moved, and lies on the new plane.
            for (a, b) in zip(old.boundary, new.boundary) { #expect((T * a - b).norm < 1e-9) }
            for b in new.boundary { #expect(abs(new.normal.dot(b) - new.offset) < 1e-9) }
            if old.alignment == .horizontal {
                #expect(new.normal == old.normal, "a horizontal plane's normal stays exactly vertical")
                #expect(abs(new.offset - (old.offset + 0.03 * old.normal.z)) < 1e-12)
            } else {
                #expect(new.normal.z == 0 && abs(new.normal.norm - 1) < 1e-12)
                #expect((new.normal - T.rotate(old.normal)).norm < 1e-12)
            }
        }

        // The points seen after the correction arrive corrected: they join the moved planes.
        let changes = tracker.update(points: Self.moved(points, by: T), cameraPosition: T * camera, timestamp: 1)
        #expect(changes.removed.isEmpty)
        #expect(Set(tracker.planes.keys) == Set(before.keys), "no plane found again beside itself")
        for (id, p) in tracker.planes {
            let old = try #require(before[id])
            #expect(abs(p.area - old.area) < 0.02 * old.area)
        }
    }

    @Test func landmarksMoveAndTurnTheirCovariance() throws {
        var map = LandmarkMap(voxelSize: 0.04, capacity: 100)
        let covariance = Matrix3(diagonal: Vector3(1e-4, 4e-4, 9e-4))
        let points = (0..<10).map { MapPoint(id: UInt64($0), position: Vector3(0.5 * Double($0), 1, 0.2), covariance: covariance) }
        map.insert(points)
        let revision = map.revision
        let T = Self.correction
        map.move(by: { _ in T })
        #expect(map.revision != revision)
        let after = map.points()
        #expect(after.count == 10)
        let R = T.rotationMatrix
        for (p, q) in zip(points, after) {
            #expect(p.id == q.id)
            #expect((T * p.position - q.position).norm < 1e-12)
            #expect((R * covariance * R.transpose - q.covariance).frobeniusNorm < 1e-15)
        }
    }

    /// Two points a correction brings into one voxel: the one seen last stays.
    @Test func landmarksMovedIntoOneVoxelKeepTheLatest() {
        var map = LandmarkMap(voxelSize: 0.1, capacity: 100)
        map.insert([MapPoint(id: 1, position: Vector3(0.05, 0.05, 0.05), covariance: MapPoint.defaultCovariance)])
        map.insert([MapPoint(id: 2, position: Vector3(1.05, 0.05, 0.05), covariance: MapPoint.defaultCovariance)])
        // Point 2 moves onto point 1's voxel; point 1 stays.
        map.move(by: { p in RigidTransform(rotation: .identity, translation: p.x > 0.5 ? Vector3(-1, 0, 0) : .zero) })
        #expect(map.points().map(\.id) == [2])
    }

    /// A segment re-placed in the map moves the points it gave (seen since its placement) and
    /// leaves the older ones.
    @Test func landmarksSeenSinceAFrameMoveAlone() {
        var map = LandmarkMap(voxelSize: 0.04, capacity: 100)
        let old = (0..<5).map { MapPoint(id: UInt64($0), position: Vector3(0.3 * Double($0), 2, 0.5), covariance: MapPoint.defaultCovariance) }
        map.insert(old)
        map.insert([])  // a frame while relocalizing: nothing enters
        let since = map.frameNumber + 1
        let fresh = (10..<15).map { MapPoint(id: UInt64($0), position: Vector3(0.3 * Double($0), -1, 0.5), covariance: MapPoint.defaultCovariance) }
        map.insert(fresh)
        map.insert([fresh[0]])  // seen again later: still this segment's
        let T = Self.correction
        map.move(by: { _ in T }, seenSince: since)
        let after = Dictionary(uniqueKeysWithValues: map.points().map { ($0.id, $0.position) })
        for p in old { #expect(after[p.id] == p.position) }
        for p in fresh { #expect(((after[p.id] ?? .zero) - T * p.position).norm < 1e-12) }
    }
}

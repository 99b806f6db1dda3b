import Foundation
import ParallaxMath
import Testing

@testable import ParallaxAR

/// A newly found plane gets its anchor only once its equation has held, within
/// `Session.planeConfirmationTolerance`, for `Session.planeConfirmationTime`; afterwards it is
/// updated as before.
@Suite struct PlaneConfirmationTests {
    /// A 2 m square horizontal plane at height `offset` (normal up).
    static func plane(_ id: Int, offset: Double) -> DetectedPlane {
        let corners = [Vector3(-1, -1, offset), Vector3(1, -1, offset), Vector3(1, 1, offset), Vector3(-1, 1, offset)]
        return DetectedPlane(id: id, alignment: .horizontal, normal: Vector3(0, 0, 1), offset: offset, boundary: corners,
                             inlierCount: 50, classification: .floor, firstSeen: 0)
    }

    static func session() throws -> Session {
        let session = try Session(datasetAt: TestData.sample, replay: ReplayOptions(source: .tracking))
        session.planeConfirmationTime = 1.0
        session.planeConfirmationTolerance = 0.01
        return session
    }

    @Test func aSteadyPlaneIsAnnouncedAfterTheConfirmationTime() throws {
        let session = try Self.session()
        for (t, offset) in [(0.0, 1.0), (0.5, 1.004)] {
            session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(7, offset: offset)]), T_A_W: .identity, time: t)
            #expect(session.planeAnchors[7] == nil, "announced at \(t) s")
        }
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(7, offset: 1.006)]), T_A_W: .identity, time: 1.0)
        let anchor = try #require(session.planeAnchors[7])
        #expect(session.pendingPlanes[7] == nil)
        // Once announced, changes are updates of the same anchor at once.
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(7, offset: 1.2)]), T_A_W: .identity, time: 1.1)
        #expect(session.planeAnchors[7]?.identifier == anchor.identifier)
        #expect(abs((session.planeAnchors[7]?.transform.column(3).z ?? 0) - 1.2) < 1e-9)
    }

    @Test func aMovingPlaneWaitsUntilItHasHeldStill() throws {
        let session = try Self.session()
        // Moves 3 cm at 0.5 s: its wait restarts there.
        for (t, offset) in [(0.0, 2.0), (0.5, 2.03), (1.0, 2.035)] {
            session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(3, offset: offset)]), T_A_W: .identity, time: t)
            #expect(session.planeAnchors[3] == nil, "announced at \(t) s")
        }
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(3, offset: 2.036)]), T_A_W: .identity, time: 1.5)
        #expect(session.planeAnchors[3] != nil)
        // Creeping 6 mm per half second: measured against the start of the wait, not the last update.
        for (t, offset) in [(0.0, 3.0), (0.5, 3.006), (1.0, 3.012)] {
            session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(4, offset: offset)]), T_A_W: .identity, time: t)
            #expect(session.planeAnchors[4] == nil, "announced at \(t) s")
        }
    }

    @Test func aPlaneRemovedWhileWaitingIsNeverAnnounced() throws {
        let session = try Self.session()
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(5, offset: 0.7)]), T_A_W: .identity, time: 0)
        session.applyPlaneChanges(PlaneChanges(removed: [5]), T_A_W: .identity, time: 0.5)
        #expect(session.pendingPlanes[5] == nil && session.planeAnchors[5] == nil)
        // Without a time (a loop closure moving the map) a waiting plane is not announced.
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(6, offset: 0.7)]), T_A_W: .identity, time: 0)
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(6, offset: 0.7)]), T_A_W: .identity)
        #expect(session.planeAnchors[6] == nil && session.pendingPlanes[6] != nil)
    }

    /// `count` points on a 1.6 m grid over the plane of ``plane(_:offset:)``, at `height`.
    static func points(atHeight height: Double, count: Int = 16) -> [Vector3] {
        (0..<count).map { k in Vector3(-0.8 + 1.6 * Double(k % 4) / 3, -0.8 + 1.6 * Double(k / 4 % 4) / 3, height) }
    }

    /// A plane that has held still is still not announced while the newest points over it lie
    /// elsewhere (beyond `planeAgreementTolerance`, within `planeAgreementBand`); it is once they
    /// agree, its wait counted again from the disagreement.
    @Test func aPlaneTheNewestPointsContradictWaits() throws {
        let session = try Self.session()
        session.planeAgreementTolerance = 0.02
        // The plane holds at 1.80 m; the newest points say 1.71 m (9 cm off, a mistriangulated start).
        session.newestPlanePoints = Self.points(atHeight: 1.71)
        for t in [0.0, 0.5, 1.0, 1.5] {
            session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(8, offset: 1.80)]), T_A_W: .identity, time: t)
            #expect(session.planeAnchors[8] == nil, "announced at \(t) s")
        }
        // The plane moves onto the points: a new wait, announced a second later.
        session.newestPlanePoints = Self.points(atHeight: 1.715)
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(8, offset: 1.71)]), T_A_W: .identity, time: 2.0)
        #expect(session.planeAnchors[8] == nil)
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(8, offset: 1.71)]), T_A_W: .identity, time: 3.0)
        #expect(session.planeAnchors[8] != nil)
    }

    /// A waiting plane the newest points contradict moves onto them, in the plane tracker too, and
    /// its wait starts again from there.
    @Test func aContradictedPlaneMovesOntoTheNewestPoints() throws {
        let session = try Self.session()
        var tracker = PlaneTracker(detection: [.horizontal])
        // A 1.6 m square slab at 0.80 m, seen from 1.6 m: one upward plane.
        let slab = Self.points(atHeight: 0.80, count: 16).enumerated().map {
            MapPoint(id: UInt64($0.offset), position: $0.element, covariance: MapPoint.defaultCovariance)
        }
        let found = tracker.update(points: slab, cameraPosition: Vector3(0, 0, 1.6), timestamp: 0).planes
        let plane = try #require(found.first)
        #expect(found.count == 1 && abs(plane.offset - 0.80) < 1e-9)
        session.planes = tracker
        session.newestPlanePoints = Self.points(atHeight: 0.74)
        session.applyPlaneChanges(PlaneChanges(planes: [plane]), T_A_W: .identity, time: 0)
        session.applyPlaneChanges(PlaneChanges(planes: [plane]), T_A_W: .identity, time: 1.0)
        #expect(session.planeAnchors[plane.id] == nil)
        let moved = try #require(session.planes?.planes[plane.id])
        #expect(abs(moved.offset - 0.74) < 1e-9)
        #expect(abs((session.pendingPlanes[plane.id]?.offset ?? 0) - 0.74) < 1e-9)
        #expect(moved.boundary.allSatisfy { abs($0.z - 0.74) < 1e-9 })
        // Held there for a second with the points agreeing: announced.
        session.applyPlaneChanges(PlaneChanges(planes: [moved]), T_A_W: .identity, time: 2.0)
        #expect(session.planeAnchors[plane.id] != nil)
        // A wall is only made to wait, not moved.
        var wall = DetectedPlane(id: 40, alignment: .vertical, normal: Vector3(1, 0, 0), offset: 2.0, boundary: [],
                                 inlierCount: 50, classification: .wall, firstSeen: 0)
        let corners = [Vector3(2, -1, 0), Vector3(2, 1, 0), Vector3(2, 1, 2), Vector3(2, -1, 2)]
        wall.boundary = ConvexPolygon.hull(corners.map(wall.planar)).map(wall.spatial)
        session.newestPlanePoints = (0..<16).map { Vector3(1.93, -0.8 + 0.5 * Double($0 % 4), 0.2 + 0.5 * Double($0 / 4)) }
        session.applyPlaneChanges(PlaneChanges(planes: [wall]), T_A_W: .identity, time: 3.0)
        session.applyPlaneChanges(PlaneChanges(planes: [wall]), T_A_W: .identity, time: 4.0)
        #expect(session.planeAnchors[40] == nil)
        #expect(session.pendingPlanes[40]?.offset == 2.0 && session.pendingPlanes[40]?.since == 4.0)
    }

    /// Points that agree within the tolerance, points too few to tell, points outside the plane's
    /// outline or beyond the band (another surface) do not hold a plane back.
    @Test func theCheckOnlyDecidesOnPointsOverThePlane() throws {
        for (id, points) in [(11, Self.points(atHeight: 1.015)),                       // agree (1.5 cm)
                             (12, Array(Self.points(atHeight: 1.10).prefix(5))),       // too few
                             (13, Self.points(atHeight: 1.10).map { $0 + Vector3(3, 0, 0) }), // beside it
                             (14, Self.points(atHeight: 1.30))] {                      // beyond the band
            let session = try Self.session()
            session.newestPlanePoints = points
            session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(id, offset: 1.0)]), T_A_W: .identity, time: 0)
            session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(id, offset: 1.0)]), T_A_W: .identity, time: 1.0)
            #expect(session.planeAnchors[id] != nil, "plane \(id)")
        }
        // The median decides: a few stray points do not.
        let session = try Self.session()
        session.newestPlanePoints = Self.points(atHeight: 1.005) + Self.points(atHeight: 1.12, count: 5)
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(15, offset: 1.0)]), T_A_W: .identity, time: 0)
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(15, offset: 1.0)]), T_A_W: .identity, time: 1.0)
        #expect(session.planeAnchors[15] != nil)
    }

    /// With the ground-truth pose source nothing waits: the poses have no scale to settle.
    @Test func knownPosesAnnounceAtOnce() throws {
        let session = try Session(datasetAt: TestData.sample)
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(2, offset: 0.1)]), T_A_W: .identity, time: 0)
        #expect(session.planeAnchors[2] != nil && session.pendingPlanes.isEmpty)
    }
}

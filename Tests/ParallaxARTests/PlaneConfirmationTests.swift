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

    /// With the ground-truth pose source nothing waits: the poses have no scale to settle.
    @Test func knownPosesAnnounceAtOnce() throws {
        let session = try Session(datasetAt: TestData.sample)
        session.applyPlaneChanges(PlaneChanges(planes: [Self.plane(2, offset: 0.1)]), T_A_W: .identity, time: 0)
        #expect(session.planeAnchors[2] != nil && session.pendingPlanes.isEmpty)
    }
}

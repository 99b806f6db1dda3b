import Foundation
import ParallaxMath

extension Session {
    /// Points in the session's bounded 3D map (for benchmarks and diagnostics).
    public var mapPointCount: Int { landmarks.count }

    /// Merges the frame's points into the bounded ``LandmarkMap`` (unless relocalizing) and, while
    /// tracking is normal, updates the planes when the map changed (a frame that moved no point
    /// refits nothing).
    func updatePlanes(_ output: SourceOutput, cameraPose T_W_C: RigidTransform?, time: Double) {
        // A session that is relocalizing does not know where it is in the map's world (a loaded
        // map not yet found, a tracker reset): its points have no world position yet, and left in
        // the map they would found planes where nothing is.
        guard output.trackingState != .limited(.relocalizing) else { return }
        var admitted = output.featurePoints
        if let centre = T_W_C?.translation {
            let limit = maximumPlanePointRelativeSigma
            admitted = admitted.filter { p in p.sigma <= limit * (p.position - centre).norm }
        }
        landmarks.insert(admitted)
        newestPlanePoints = admitted.map(\.position)
        guard output.trackingState == .normal, let T_A_W = worldTransform, var tracker = planes, let T_W_C else { return }
        // Planes that have held still long enough are announced even on a frame that refits nothing.
        defer { announceSettledPlanes(at: time, T_A_W: T_A_W) }
        pointsSeenSincePlaneUpdate.formUnion(output.featurePoints.map(\.id))
        guard landmarks.revision != lastPlaneRevision else { return }
        if let last = lastPlaneUpdate, time - last < planeUpdateInterval - 1e-6 { return }
        lastPlaneRevision = landmarks.revision
        lastPlaneUpdate = time
        let visible = pointsSeenSincePlaneUpdate
        pointsSeenSincePlaneUpdate = []
        let changes = tracker.update(points: landmarks.points(), visible: visible,
                                     cameraPosition: T_W_C.translation, timestamp: time)
        planes = tracker
        applyPlaneChanges(changes, T_A_W: T_A_W, time: time)
    }

    /// Turns tracker changes into anchors and tells the delegate (removed, added, updated). A plane
    /// without an anchor yet waits until its equation has held for ``planeConfirmationTime`` and
    /// the newest points over it agree (``planeAgreementTolerance``)
    /// (`time`: data time of the change; nil, as for planes a loop closure moved, updates the
    /// announced planes only).
    func applyPlaneChanges(_ changes: PlaneChanges, T_A_W: RigidTransform, time: Double? = nil) {
        var added: [any Anchor] = [], updated: [any Anchor] = [], removed: [any Anchor] = []
        for id in changes.removed {
            pendingPlanes[id] = nil
            if let a = planeAnchors.removeValue(forKey: id) { removed.append(a) }
        }
        for plane in changes.planes {
            let existing = planeAnchors[plane.id]
            if existing == nil {
                // A loop closure moving the map (no time) announces nothing new.
                guard let time, hasSettled(plane, at: time) else { continue }
            }
            pendingPlanes[plane.id] = nil
            let anchor = PlaneAnchorBuilder.anchor(for: plane, T_A_W: T_A_W,
                                                   identifier: existing?.identifier ?? makeIdentifier())
            planeAnchors[plane.id] = anchor
            if existing == nil { added.append(anchor) } else { updated.append(anchor) }
        }
        if !removed.isEmpty { delegate?.session(self, didRemove: removed) }
        if !added.isEmpty { delegate?.session(self, didAdd: added) }
        if !updated.isEmpty { delegate?.session(self, didUpdate: updated) }
    }

    /// Whether a plane not yet announced (with estimated poses) has held its equation (offset and normal within
    /// ``planeConfirmationTolerance``) for ``planeConfirmationTime`` and the newest points over it
    /// agree with it; starts or restarts its wait otherwise (from where ``disagreeingNewestPoints(_:)``
    /// puts it when they disagree). The comparison is with the start of the current wait, not the
    /// previous update, so a plane creeping by a few millimetres per update still waits.
    private func hasSettled(_ plane: DetectedPlane, at time: Double) -> Bool {
        // Known poses (the ground-truth source) have no scale to settle: nothing to wait for.
        guard planeConfirmationTime > 0, replayOptions.source != .groundTruth else { return true }
        var waiting = plane
        if let wait = pendingPlanes[plane.id] {
            let turned = (plane.normal - wait.normal).norm
            if abs(plane.offset - wait.offset) <= planeConfirmationTolerance, turned <= planeConfirmationTolerance {
                guard waitIsOver(since: wait.since, at: time) else { return false }
                guard let contradicted = disagreeingNewestPoints(plane) else { return true }
                waiting = contradicted
            }
        }
        pendingPlanes[plane.id] = (time, waiting.offset, waiting.normal)
        return false
    }

    /// Announces the waiting planes whose wait is over although no refit touched them this frame.
    private func announceSettledPlanes(at time: Double, T_A_W: RigidTransform) {
        guard !pendingPlanes.isEmpty, let tracker = planes else { return }
        let due = pendingPlanes.filter { waitIsOver(since: $0.value.since, at: time) }.keys.sorted()
        var settled: [DetectedPlane] = []
        for id in due {
            guard let plane = tracker.planes[id] else {
                pendingPlanes[id] = nil
                continue
            }
            if let waiting = disagreeingNewestPoints(plane) {
                pendingPlanes[id] = (time, waiting.offset, waiting.normal)
            } else {
                settled.append(plane)
            }
        }
        guard !settled.isEmpty else { return }
        applyPlaneChanges(PlaneChanges(planes: settled), T_A_W: T_A_W, time: time)
    }

    /// Nil when the newest frame's plane-map points over `plane`'s outline, within
    /// ``planeAgreementBand`` of it, lie on it (their median signed distance within
    /// ``planeAgreementTolerance``) or are fewer than ``planeAgreementMinimumPoints`` (nothing to
    /// tell); otherwise the plane to wait from: moved onto their median when horizontal
    /// (``move(_:by:)``), as it is when not. The median, because a single frame's points include a
    /// few mistriangulated ones.
    func disagreeingNewestPoints(_ plane: DetectedPlane) -> DetectedPlane? {
        guard planeAgreementTolerance.isFinite, let median = newestPointsMedianDistance(to: plane),
              abs(median) > planeAgreementTolerance else { return nil }
        return plane.alignment == .horizontal ? move(plane, by: median) : plane
    }

    /// Median signed distance (m) from `plane` of the newest frame's plane-map points over its
    /// outline and within ``planeAgreementBand`` of it; nil with fewer than
    /// ``planeAgreementMinimumPoints`` of them.
    func newestPointsMedianDistance(to plane: DetectedPlane) -> Double? {
        let outline = plane.planarBoundary
        var distances: [Double] = []
        for p in newestPlanePoints {
            let d = p.dot(plane.normal) - plane.offset
            guard abs(d) < planeAgreementBand, ConvexPolygon.distance(plane.planar(p), toConvex: outline) <= 0 else { continue }
            distances.append(d)
        }
        guard distances.count >= max(1, planeAgreementMinimumPoints) else { return nil }
        distances.sort()
        return distances[distances.count / 2]
    }

    /// A waiting horizontal plane the newest points disagree with, moved `distance` along its
    /// normal onto their median (in the plane tracker too, whose next refit then takes its inliers
    /// around the new offset) and returned. Why: the points that held it in place are stale, and
    /// left where it is it waits until enough new points outweigh them. The room2 ceiling above
    /// waited 8.8 s that way; moved, 1.5 s. Horizontal only: a wall is
    /// mostly seen head-on, so one frame's points scatter along its normal by their depth error.
    /// Against the check alone, on 48 walks: moving walls too, 8 better and 3 worse (two walls
    /// 0.7 and 1.5 cm further off); horizontal planes only, 4 better and 1 worse. Announced
    /// planes are never moved so: one frame's points are noisier than a plane's whole support
    /// (docs/ar-session.md, stop 69).
    func move(_ plane: DetectedPlane, by distance: Double) -> DetectedPlane {
        var moved = plane
        moved.offset += distance
        moved.boundary = plane.boundary.map { $0 + plane.normal * distance }
        planes?.setPlane(moved)
        return moved
    }

    /// Whether a wait begun at `since` has lasted ``planeConfirmationTime`` at `time`.
    private func waitIsOver(since: Double, at time: Double) -> Bool {
        time - since >= planeConfirmationTime - 1e-9
    }
}

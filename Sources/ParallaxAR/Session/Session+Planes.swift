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
        if let centre = T_W_C?.translation {
            let limit = maximumPlanePointRelativeSigma
            landmarks.insert(output.featurePoints.filter { p in
                p.sigma <= limit * (p.position - centre).norm
            })
        } else {
            landmarks.insert(output.featurePoints)
        }
        guard output.trackingState == .normal, let T_A_W = worldTransform, var tracker = planes, let T_W_C else { return }
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
        applyPlaneChanges(changes, T_A_W: T_A_W)
    }

    /// Turns tracker changes into anchors and tells the delegate (removed, added, updated).
    func applyPlaneChanges(_ changes: PlaneChanges, T_A_W: RigidTransform) {
        var added: [any Anchor] = [], updated: [any Anchor] = [], removed: [any Anchor] = []
        for id in changes.removed {
            if let a = planeAnchors.removeValue(forKey: id) { removed.append(a) }
        }
        for plane in changes.planes {
            let existing = planeAnchors[plane.id]
            let anchor = PlaneAnchorBuilder.anchor(for: plane, T_A_W: T_A_W,
                                                   identifier: existing?.identifier ?? makeIdentifier())
            planeAnchors[plane.id] = anchor
            if existing == nil { added.append(anchor) } else { updated.append(anchor) }
        }
        if !removed.isEmpty { delegate?.session(self, didRemove: removed) }
        if !added.isEmpty { delegate?.session(self, didAdd: added) }
        if !updated.isEmpty { delegate?.session(self, didUpdate: updated) }
    }
}

import Foundation
import ParallaxMath

/// Free-space evidence: a plane is an opaque surface, so a point the camera sees *through* it
/// (the sight line from the camera to the point crosses the plane inside its boundary, and the
/// point lies beyond it) contradicts the plane. A plane seen through by at least as many distinct
/// points as support it is a phantom: it is removed, and its points found no plane again. On a
/// tiled ceiling, aliased feature tracks triangulate into a thin slab 15 cm in front of the real
/// surface; it hides nothing in reality, so the camera keeps seeing the true ceiling's points
/// through it.
///
/// The points seen through a real plane are not refuted in turn: with a drifting mono tracker, a
/// wall seen again a few centimetres behind its first fit is the same wall, and refusing those
/// points froze the first fit's error (hits within 2 cm on the V1_01 flight, mono, 66 → 58 %).
///
/// The test is the visibility constraint of free-space carving (space between a camera and a
/// point it sees is empty), applied only to the sight lines of the current frame.
extension PlaneTracker {
    /// Records the sight lines of the points seen in this frame (`visible[i]`) from `camera`
    /// through every plane.
    mutating func recordSightLines(_ points: [Vector3], ids: [UInt64], visible: [Bool], covariances: [Matrix3],
                                   camera: Vector3) {
        // Sightings count only while their points are in the map, like a plane's support: over a
        // long session the few mistriangulated points seen through a real wall must not add up.
        let present = Set(ids)
        for id in planes.keys.sorted() {
            guard let plane = planes[id], plane.boundary.count >= 3 else { continue }
            let cameraSide = plane.normal.dot(camera) - plane.offset
            guard abs(cameraSide) > seeThroughMargin else { continue }
            let hull = plane.planarBoundary
            let orientation: Double = ConvexPolygon.signedArea(hull) >= 0 ? 1 : -1
            var sightings = (seenThrough[id] ?? []).intersection(present)
            // The plane's own points lie within its band, nearer than the margin: the geometric
            // tests reject them first, so their id set is built only if a sighting needs it.
            var own: Set<UInt64>?
            for i in points.indices where visible[i] {
                let pointSide = plane.normal.dot(points[i]) - plane.offset
                // Beyond the plane by more than the margin and the point's own uncertainty (3σ).
                let sigma = plane.normal.dot(covariances[i] * plane.normal).squareRoot()
                guard pointSide * cameraSide < 0, abs(pointSide) > max(seeThroughMargin, 3 * sigma) else { continue }
                let crossing = camera + (points[i] - camera) * (cameraSide / (cameraSide - pointSide))
                guard ConvexPolygon.insideDepth(plane.planar(crossing), inConvex: hull, orientation: orientation) >= seeThroughInset
                else { continue }
                if own == nil { own = Set(support[id]?.ids ?? []) }
                if own?.contains(ids[i]) == false { sightings.insert(ids[i]) }
            }
            seenThrough[id] = sightings
        }
    }

    /// Removes the planes seen through by at least ``minimumSightings`` distinct points and by at
    /// least as many as support them; returns their ids. Their support points are refuted, so the
    /// same slab is not found again from them.
    mutating func removeSeenThroughPlanes() -> [Int] {
        var removed: [Int] = []
        for id in planes.keys.sorted() {
            guard let plane = planes[id], let sightings = seenThrough[id]?.count, sightings >= minimumSightings else { continue }
            let supportCount = support[id]?.ids.count ?? plane.inlierCount
            guard sightings >= supportCount else { continue }
            refutedIDs.formUnion(support[id]?.ids ?? [])
            forget(planeID: id)
            removed.append(id)
        }
        return removed
    }
}

import Foundation
import ParallaxMath

/// A plane found by ``PlaneTracker``, in the estimator's z-up world `W`.
struct DetectedPlane: Equatable {
    /// Tracker-local identity (detection order).
    var id: Int
    /// Horizontal or vertical.
    var alignment: PlaneAlignment
    /// Unit normal, pointing to the side the camera saw the plane from.
    var normal: Vector3
    /// Plane equation `normal · p = offset`.
    var offset: Double
    /// Convex boundary on the plane (W), counter-clockwise seen from the normal's side.
    var boundary: [Vector3]
    /// Points supporting the plane at the last update.
    var inlierCount: Int
    /// Floor, table, wall, ceiling or none.
    var classification: PlaneClassification
    /// Dataset time of the first detection (s).
    var firstSeen: Double

    /// In-plane coordinates of a point.
    func planar(_ p: Vector3) -> Vector2 {
        let (e1, e2) = ConvexPolygon.basis(ofPlaneWithNormal: normal)
        return Vector2(p.dot(e1), p.dot(e2))
    }

    /// The 3D point of in-plane coordinates.
    func spatial(_ q: Vector2) -> Vector3 {
        let (e1, e2) = ConvexPolygon.basis(ofPlaneWithNormal: normal)
        return normal * offset + e1 * q.x + e2 * q.y
    }

    /// Boundary in in-plane coordinates (counter-clockwise).
    var planarBoundary: [Vector2] { boundary.map(planar) }

    /// Boundary area (m²).
    var area: Double { abs(ConvexPolygon.signedArea(planarBoundary)) }
}

/// What changed in one ``PlaneTracker`` update.
struct PlaneChanges {
    /// Planes added or changed (their full new state).
    var planes: [DetectedPlane] = []
    /// Identifiers of planes removed (merged into another).
    var removed: [Int] = []
}

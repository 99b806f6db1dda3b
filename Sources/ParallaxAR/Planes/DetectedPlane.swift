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

    /// An in-plane basis `(e1, e2)` with `e1 × e2 = normal`: for vertical planes `e2` is up.
    static func basis(_ n: Vector3) -> (Vector3, Vector3) {
        if abs(n.z) < 0.9 {
            let e2 = (Vector3(0, 0, 1) - n * n.z).normalized
            return (e2.cross(n), e2)
        }
        let e1 = (Vector3(1, 0, 0) - n * n.x).normalized
        return (e1, n.cross(e1))
    }

    /// In-plane coordinates of a point.
    func planar(_ p: Vector3) -> Vector2 {
        let (e1, e2) = Self.basis(normal)
        return Vector2(p.dot(e1), p.dot(e2))
    }

    /// The 3D point of in-plane coordinates.
    func spatial(_ q: Vector2) -> Vector3 {
        let (e1, e2) = Self.basis(normal)
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

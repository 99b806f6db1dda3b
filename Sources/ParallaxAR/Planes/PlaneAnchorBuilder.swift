import Foundation
import ParallaxMath

/// Turns a ``DetectedPlane`` (estimator world `W`) into a ``PlaneAnchor`` (AR world `A`).
///
/// Anchor frame: origin at the boundary's area centroid, y = the plane normal, x = the in-plane
/// basis vector `e1` (for vertical planes: horizontal; for horizontal planes: along W's x),
/// z = x × y. ``PlaneAnchor/extent`` is the minimum-area rectangle of the boundary, its axes
/// turned by `rotationOnYAxis` about y (x′ = (cos θ, 0, −sin θ), z′ = (sin θ, 0, cos θ)).
/// The mesh is a triangle fan over the convex boundary.
enum PlaneAnchorBuilder {
    static func anchor(for plane: DetectedPlane, T_A_W: RigidTransform, identifier: UUID) -> PlaneAnchor {
        let (e1, _) = ConvexPolygon.basis(ofPlaneWithNormal: plane.normal)
        let hull = plane.planarBoundary
        let c2 = ConvexPolygon.centroid(hull)
        let origin = plane.spatial(c2)
        // Anchor axes in W: x = e1, y = n, z = e1 × n = −e2.
        let R_W_P = Matrix3(columns: e1, plane.normal, e1.cross(plane.normal))
        let T_W_P = RigidTransform(rotationMatrix: R_W_P, translation: origin)
        let T_A_P = T_A_W * T_W_P
        // Local coordinates: x = (q − c)·e1, z = −(q − c)·e2.
        func local(_ q: Vector2) -> Vector3 { Vector3(q.x - c2.x, 0, -(q.y - c2.y)) }
        let boundary = hull.map(local)
        // Counter-clockwise about n in (e1, e2) stays counter-clockwise seen from +y in (x, z).
        var triangles: [Int] = []
        if boundary.count >= 3 {
            for i in 1..<(boundary.count - 1) { triangles += [0, i, i + 1] }
        }
        let geometry = PlaneGeometry(boundaryVertices: boundary, vertices: boundary, triangleIndices: triangles)
        // Minimum-area rectangle in (x, z) local coordinates.
        let xz = boundary.map { Vector2($0.x, $0.z) }
        let rect = ConvexPolygon.minimumAreaRectangle(ConvexPolygon.hull(xz))
        // Rectangle axis u = (cos a, sin a) in (x, z) is x′ = (cos θ, 0, −sin θ) with θ = −a.
        var extent = PlaneExtent(width: rect.size.x, height: rect.size.y, rotationOnYAxis: -rect.angle)
        if extent.rotationOnYAxis <= -Double.pi / 2 { extent.rotationOnYAxis += Double.pi }
        if extent.rotationOnYAxis > Double.pi / 2 { extent.rotationOnYAxis -= Double.pi }
        return PlaneAnchor(identifier: identifier, transform: T_A_P.matrix,
                           alignment: plane.alignment, center: Vector3(rect.centre.x, 0, rect.centre.y),
                           extent: extent, geometry: geometry, classification: plane.classification)
    }
}

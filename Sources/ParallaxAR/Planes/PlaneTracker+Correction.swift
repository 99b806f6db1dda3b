import Foundation
import ParallaxMath

extension PlaneTracker {
    /// Moves every plane with the map when a loop closure corrects it: each plane by the rigid
    /// transform `correction` gives at its boundary's centroid (a loop closure's 4-DoF correction
    /// of the keyframes nearest to it), with its boundary, its retired hull and its support
    /// positions. Returns the planes that moved.
    ///
    /// Why: the session's points and planes live in the map's world. A loop closure moves the
    /// keyframes and the live estimate, so every point seen afterwards arrives corrected. Planes
    /// and points left where they were then disagree with the new points by the correction (a few
    /// millimetres to centimetres per closure, adding up over a long walk) and a wall is found
    /// again beside itself. ARKit and ARCore move their plane anchors when their map is corrected.
    /// The correction is yaw and translation only, so horizontal planes stay horizontal and walls
    /// vertical.
    mutating func move(by correction: (Vector3) -> RigidTransform) -> [DetectedPlane] {
        var moved: [DetectedPlane] = []
        for id in planes.keys.sorted() {
            guard var plane = planes[id], !plane.boundary.isEmpty else { continue }
            let centroid = plane.boundary.reduce(Vector3.zero, +) / Double(plane.boundary.count)
            let T = correction(centroid)
            let onPlane = T * (plane.normal * plane.offset)
            if plane.alignment == .vertical {
                // Exactly horizontal, as the vertical fit makes it (the turn is about z only).
                let n = T.rotate(plane.normal)
                plane.normal = Vector3(n.x, n.y, 0) / Vector2(n.x, n.y).norm
            }
            plane.offset = plane.normal.dot(onPlane)
            plane.boundary = plane.boundary.map { T * $0 }
            setPlane(plane)
            retired[id] = retired[id]?.map { T * $0 }
            if var s = support[id] {
                s.positions = s.positions.map { T * $0 }
                support[id] = s
            }
            moved.append(plane)
        }
        return moved
    }
}

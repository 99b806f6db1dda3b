import Foundation
import ParallaxMath

/// Ray intersections shared by hit tests and raycasts (AR world).
enum RayGeometry {
    /// Ray parameter of the intersection with the plane through `p0` with normal `n` (nil when
    /// parallel or behind the origin).
    static func intersect(origin o: Vector3, direction d: Vector3, planePoint p0: Vector3, normal n: Vector3) -> Double? {
        let denom = d.dot(n)
        guard abs(denom) > 1e-9 else { return nil }
        let t = (p0 - o).dot(n) / denom
        return t > 1e-6 ? t : nil
    }

    /// A rotation whose y axis is `n` (x chosen horizontal-ish, deterministic).
    static func frame(normal n: Vector3, position p: Vector3) -> Matrix4 {
        let helper = abs(n.z) < 0.9 ? Vector3(0, 0, 1) : Vector3(1, 0, 0)
        let x = n.cross(helper).normalized
        let z = x.cross(n)
        return Matrix4(rotation: Matrix3(columns: x, n, z), translation: p)
    }

    /// Whether the anchor-local point `(x, 0, z)` lies inside the anchor's extent rectangle.
    static func insideExtent(_ local: Vector3, of plane: PlaneAnchor) -> Bool {
        let q = local - plane.center
        let th = plane.extent.rotationOnYAxis
        // Rectangle axes x′ = (cos θ, 0, −sin θ), z′ = (sin θ, 0, cos θ).
        let a = q.x * cos(th) - q.z * sin(th), b = q.x * sin(th) + q.z * cos(th)
        return abs(a) <= plane.extent.width / 2 + 1e-9 && abs(b) <= plane.extent.height / 2 + 1e-9
    }

    /// Whether the anchor-local point lies inside the (convex) boundary polygon.
    static func insideGeometry(_ local: Vector3, of plane: PlaneAnchor) -> Bool {
        // Boundary is counter-clockwise seen from +y, i.e. in (z, x) coordinates.
        let poly = plane.geometry.boundaryVertices.map { Vector2($0.z, $0.x) }
        guard poly.count >= 3 else { return false }
        return ConvexPolygon.distance(Vector2(local.z, local.x), toConvex: poly) == 0
    }

    /// A plane estimated from feature points near the ray: the points whose perpendicular
    /// distance to the ray is within 4° of it (at least 3 for horizontal, 5 for vertical).
    /// Horizontal: the median height along `up`; vertical: the least-variance horizontal
    /// direction of the points (PCA), as normal facing the camera.
    static func estimatedPlane(origin o: Vector3, direction d: Vector3, points: [Vector3], up: Vector3,
                               vertical: Bool) -> (point: Vector3, normal: Vector3)? {
        let near = points.filter { p in
            let v = p - o
            let t = v.dot(d)
            return t > 0.05 && (v - d * t).norm / t < tan(4 * Double.pi / 180)
        }
        if !vertical {
            guard near.count >= 3 else { return nil }
            let heights = near.map { $0.dot(up) }.sorted()
            let h = heights[heights.count / 2]
            return (up * h, up)
        }
        guard near.count >= 5 else { return nil }
        let c = near.reduce(Vector3.zero, +) / Double(near.count)
        // Horizontal basis (a, b) orthogonal to up.
        let a = (abs(up.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 0, 1)).cross(up).normalized
        let b = up.cross(a)
        var saa = 0.0, sab = 0.0, sbb = 0.0
        for p in near {
            let x = (p - c).dot(a), y = (p - c).dot(b)
            saa += x * x; sab += x * y; sbb += y * y
        }
        guard saa + sbb > 1e-6 else { return nil }
        let theta = 0.5 * atan2(2 * sab, saa - sbb)
        var n = a * (-sin(theta)) + b * cos(theta)
        if n.dot(o - c) < 0 { n = -n }
        return (c, n.normalized)
    }
}

extension Frame {
    /// Hit test through a normalised image point ((0,0) top-left, (1,1) bottom-right of the
    /// captured image), results sorted by distance (`ARFrame.hitTest(_:types:)`).
    public func hitTest(_ point: Vector2, types: HitTestResultType) -> [HitTestResult] {
        let (o, d) = camera.ray(throughNormalized: point)
        var results: [HitTestResult] = []
        // Points whose depth is still doubtful (a hand-held start) answer no hit test; plane-only
        // queries need no points.
        let pointTypes: HitTestResultType = [.featurePoint, .estimatedHorizontalPlane, .estimatedVerticalPlane]
        let points = types.isDisjoint(with: pointTypes) ? [] : rawFeaturePoints?.confidentPoints(from: o) ?? []
        if types.contains(.featurePoint) {
            // The feature closest in angle to the ray, within 1°; hit at its projection on the ray.
            var best: (angle: Double, t: Double)?
            for p in points {
                let v = p - o
                let t = v.dot(d)
                guard t > 0.05 else { continue }
                let angle = atan2((v - d * t).norm, t)
                if angle < Double.pi / 180, angle < best?.angle ?? .infinity { best = (angle, t) }
            }
            if let best {
                let w = Matrix4(rotation: .identity, translation: o + d * best.t)
                results.append(HitTestResult(type: .featurePoint, distance: best.t, worldTransform: w,
                                             localTransform: w, anchor: nil))
            }
        }
        for (kind, vertical) in [(HitTestResultType.estimatedHorizontalPlane, false), (.estimatedVerticalPlane, true)]
        where types.contains(kind) {
            if let plane = RayGeometry.estimatedPlane(origin: o, direction: d, points: points, up: worldUp, vertical: vertical),
               let t = RayGeometry.intersect(origin: o, direction: d, planePoint: plane.point, normal: plane.normal) {
                let w = RayGeometry.frame(normal: plane.normal, position: o + d * t)
                results.append(HitTestResult(type: kind, distance: t, worldTransform: w, localTransform: w, anchor: nil))
            }
        }
        let planeTypes: [HitTestResultType] = [.existingPlane, .existingPlaneUsingExtent, .existingPlaneUsingGeometry]
        if !types.isDisjoint(with: HitTestResultType(planeTypes)) {
            for plane in planeAnchors {
                guard let t = RayGeometry.intersect(origin: o, direction: d, planePoint: plane.origin, normal: plane.normal)
                else { continue }
                let hit = o + d * t
                var w = plane.transform
                w.columns.3 = Vector4(hit.x, hit.y, hit.z, 1)
                let local = RigidTransform(matrix: plane.transform).inverse.matrix * w
                let localPoint = local.column(3).xyz
                for kind in planeTypes where types.contains(kind) {
                    let inside: Bool
                    switch kind {
                    case .existingPlaneUsingExtent: inside = RayGeometry.insideExtent(localPoint, of: plane)
                    case .existingPlaneUsingGeometry: inside = RayGeometry.insideGeometry(localPoint, of: plane)
                    default: inside = true
                    }
                    if inside {
                        results.append(HitTestResult(type: kind, distance: t, worldTransform: w,
                                                     localTransform: local, anchor: plane))
                    }
                }
            }
        }
        // Sort by distance; ties keep type order (bit order), so the output is deterministic.
        return results.enumerated().sorted {
            $0.element.distance != $1.element.distance ? $0.element.distance < $1.element.distance
                : $0.element.type.rawValue != $1.element.type.rawValue ? $0.element.type.rawValue < $1.element.type.rawValue
                : $0.offset < $1.offset
        }.map(\.element)
    }
}

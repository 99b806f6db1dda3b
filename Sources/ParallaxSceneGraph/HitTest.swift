import Foundation
import ParallaxMath

/// One intersection of a ray with a node's geometry (SceneKit's `SCNHitTestResult`).
public struct HitTestResult {
    /// The node hit.
    public let node: Node
    /// The hit point in world coordinates.
    public let worldCoordinates: Vector3f
    /// The unit surface normal at the hit, world coordinates: the vertex normals interpolated
    /// with the hit's barycentric weights (the face normal for flat faces).
    public let worldNormal: Vector3f
    /// Distance from the ray origin along the (normalised) ray, metres.
    public let distance: Float
    /// The hit point in the node's local coordinates.
    public let localCoordinates: Vector3f
    /// Index of the element hit (`nil` for the analytic floor).
    public let elementIndex: Int?
    /// Index of the triangle within that element.
    public let faceIndex: Int?
}

/// Möller–Trumbore ray–triangle intersection ("Fast, Minimum Storage Ray/Triangle
/// Intersection", Journal of Graphics Tools 2(1), 1997). Returns the ray parameter t ≥ 0,
/// both sides counted.
@inlinable public func rayTriangleIntersection(origin o: Vector3f, direction d: Vector3f,
                                               _ a: Vector3f, _ b: Vector3f, _ c: Vector3f) -> Float? {
    rayTriangleBarycentric(origin: o, direction: d, a, b, c)?.t
}

/// Möller–Trumbore returning the ray parameter `t` and the barycentric weights `u` (of b) and
/// `v` (of c) of the hit point.
@inlinable public func rayTriangleBarycentric(origin o: Vector3f, direction d: Vector3f,
                                              _ a: Vector3f, _ b: Vector3f, _ c: Vector3f) -> (t: Float, u: Float, v: Float)? {
    let e1 = b - a, e2 = c - a
    let p = d.cross(e2)
    let det = e1.dot(p)
    guard abs(det) > 1e-12 else { return nil }   // ray parallel to the triangle
    let inv = 1 / det
    let s = o - a
    let u = s.dot(p) * inv
    guard u >= 0, u <= 1 else { return nil }
    let q = s.cross(e1)
    let v = d.dot(q) * inv
    guard v >= 0, u + v <= 1 else { return nil }
    let t = e2.dot(q) * inv
    return t >= 0 ? (t, u, v) : nil
}

extension Node {
    /// Casts a world-space ray against this node and its visible descendants. Meshes are
    /// intersected triangle by triangle (after a bounding-box test in local coordinates);
    /// an infinite floor is intersected analytically. Sorted nearest first.
    public func hitTest(rayOrigin: Vector3f, direction: Vector3f) -> [HitTestResult] {
        let dir = direction.normalized
        guard rayOrigin.isFinite, dir.isFinite, dir.squaredNorm > 0 else { return [] }
        var results: [HitTestResult] = []
        var stack: [(Node, Matrix4f)] = [(self, parent?.worldTransform ?? .identity)]
        while let (node, parentWorld) = stack.popLast() {
            guard !node.isHidden else { continue }
            let world = parentWorld * node.transform
            if let g = node.geometry { results += node.intersect(g, world: world, origin: rayOrigin, direction: dir) }
            for child in node.childNodes { stack.append((child, world)) }
        }
        return results.sorted { $0.distance < $1.distance }
    }

    private func intersect(_ g: Geometry, world: Matrix4f, origin: Vector3f, direction: Vector3f) -> [HitTestResult] {
        guard let inv = world.inverse else { return [] }
        let lo = inv.transformPoint(origin), ld = inv.transformDirection(direction)
        let normalMatrix = inv.transpose
        func result(_ t: Float, _ localNormal: Vector3f, _ element: Int?, _ face: Int?) -> HitTestResult? {
            let local = lo + ld * t
            let wp = world.transformPoint(local)
            let n = normalMatrix.transformDirection(localNormal).normalized
            guard wp.isFinite, n.isFinite else { return nil }
            return HitTestResult(node: self, worldCoordinates: wp, worldNormal: n, distance: (wp - origin).norm,
                                 localCoordinates: local, elementIndex: element, faceIndex: face)
        }
        if g.isInfinite {
            guard abs(ld.y) > 1e-12 else { return [] }
            let t = -lo.y / ld.y
            return t >= 0 ? [result(t, Vector3f(0, 1, 0), nil, nil)].compactMap { $0 } : []
        }
        let mesh = g.mesh
        guard mesh.boundingBox.intersect(origin: lo, direction: ld) != nil else { return [] }
        var out: [(localT: Float, result: HitTestResult)] = []
        for (e, element) in mesh.elements.enumerated() {
            let idx = element.indices
            for f in 0..<(idx.count / 3) {
                let i0 = Int(idx[3 * f]), i1 = Int(idx[3 * f + 1]), i2 = Int(idx[3 * f + 2])
                let a = mesh.positions[i0], b = mesh.positions[i1], c = mesh.positions[i2]
                guard let (t, u, v) = rayTriangleBarycentric(origin: lo, direction: ld, a, b, c) else { continue }
                var n = (b - a).cross(c - a)
                if mesh.normals.count == mesh.positions.count {
                    let smooth = mesh.normals[i0] * (1 - u - v) + mesh.normals[i1] * u + mesh.normals[i2] * v
                    if smooth.squaredNorm > 1e-12 { n = smooth }
                }
                // A ray through a shared edge or vertex meets several triangles at one point:
                // report that surface point once.
                if out.contains(where: { abs($0.localT - t) <= 1e-5 * max(1, t) }) { continue }
                if let r = result(t, n, e, f) { out.append((t, r)) }
            }
        }
        return out.map(\.result)
    }
}

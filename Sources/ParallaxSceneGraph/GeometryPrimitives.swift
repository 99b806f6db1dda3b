import Foundation
import ParallaxMath

extension Geometry {
    /// A box of `width` (x) × `height` (y) × `length` (z) centred at the origin. With a
    /// `chamferRadius` > 0, edges and corners are rounded with `chamferSegments` steps: every
    /// face grid point p is pushed to c + r·normalize(p − c), c = p clamped to the inner box.
    public static func box(width: Float = 1, height: Float = 1, length: Float = 1, chamferRadius: Float = 0,
                           chamferSegments: Int = 4, material: Material = Material()) -> Geometry {
        let h = Vector3f(abs(width), abs(height), abs(length)) / 2
        let r = min(max(chamferRadius, 0), h.min())
        let cs = r > 0 ? clampSegments(chamferSegments) : 0
        let inner = h - Vector3f(repeating: r)
        func coords(_ e: Float) -> [Float] {
            guard cs > 0 else { return [-e, e] }
            let left = (0...cs).map { -e + r * Float($0) / Float(cs) }
            let right = left.reversed().map { -$0 }
            return left + (e - r > 1e-7 ? right : Array(right.dropFirst()))
        }
        var b = MeshBuilder()
        // Each face: normal axis, sign, and the two in-plane axes (u, v).
        let faces: [(Int, Float, Int, Int)] = [(0, 1, 2, 1), (0, -1, 2, 1), (1, 1, 0, 2), (1, -1, 0, 2), (2, 1, 0, 1), (2, -1, 0, 1)]
        for (axis, sign, ua, va) in faces {
            let us = coords(h[ua]), vs = coords(h[va])
            var faceNormal = Vector3f.zero; faceNormal[axis] = sign
            let start = b.positions.count
            b.grid(us.count - 1, vs.count - 1) { u, v in
                var p = Vector3f.zero
                p[axis] = sign * h[axis]
                p[ua] = us[Int((u * Float(us.count - 1)).rounded())]
                p[va] = vs[Int((v * Float(vs.count - 1)).rounded())]
                guard r > 0 else { return (p, faceNormal) }
                let c = p.clamped(lowerBound: -inner, upperBound: inner)
                let d = p - c
                let n = d.squaredNorm > 0 ? d.normalized : faceNormal
                return (c + r * n, n)
            }
            // Texture coordinates from the flat face position, so the image is not mirrored
            // seen from outside and its top is at +y on the side faces.
            let flipU = (axis == 0 && sign > 0) || (axis == 2 && sign < 0) || (axis == 1 && sign < 0)
            let flipV = axis != 1
            var k = start
            for j in 0..<vs.count {
                for i in 0..<us.count {
                    var u = (us[i] + h[ua]) / (2 * h[ua]), v = (vs[j] + h[va]) / (2 * h[va])
                    if flipU { u = 1 - u }
                    if flipV { v = 1 - v }
                    b.texcoords[k] = Vector2f(u.isFinite ? u : 0, v.isFinite ? v : 0)
                    k += 1
                }
            }
        }
        return Geometry(kind: .box(width: width, height: height, length: length, chamferRadius: r), mesh: b.mesh(), materials: [material])
    }

    /// A UV sphere of `radius` with `segments` around the equator (half as many pole to pole).
    public static func sphere(radius: Float = 0.5, segments: Int = 48, material: Material = Material()) -> Geometry {
        let s = clampSegments(segments, minimum: 3)
        var b = MeshBuilder()
        b.grid(s, max(s / 2, 2)) { u, v in
            let phi = u * 2 * .pi, theta = v * .pi   // v = 0 at the north pole (+y)
            let n = Vector3f(sin(theta) * cos(phi), cos(theta), -sin(theta) * sin(phi))
            return (n * radius, n)
        }
        return Geometry(kind: .sphere(radius: radius), mesh: b.mesh(), materials: [material])
    }

    /// A `width` × `height` rectangle in the XY plane facing +z (SceneKit's `SCNPlane`).
    public static func plane(width: Float = 1, height: Float = 1, widthSegments: Int = 1, heightSegments: Int = 1,
                             material: Material = Material()) -> Geometry {
        var b = MeshBuilder()
        b.grid(clampSegments(widthSegments), clampSegments(heightSegments)) { u, v in
            (Vector3f((u - 0.5) * width, (0.5 - v) * height, 0), Vector3f(0, 0, 1))
        }
        return Geometry(kind: .plane(width: width, height: height), mesh: b.mesh(), materials: [material])
    }

    /// A square-based pyramid: base `width` × `length` at y = 0, apex at (0, height, 0).
    public static func pyramid(width: Float = 1, height: Float = 1, length: Float = 1, material: Material = Material()) -> Geometry {
        let w = width / 2, l = length / 2
        let apex = Vector3f(0, height, 0)
        let base = [Vector3f(-w, 0, l), Vector3f(w, 0, l), Vector3f(w, 0, -l), Vector3f(-w, 0, -l)]
        var b = MeshBuilder()
        for i in 0..<4 {
            let p0 = base[i], p1 = base[(i + 1) % 4]
            let n = (p1 - p0).cross(apex - p0).normalized
            let a = b.vertex(p0, n, Vector2f(0, 1)), c = b.vertex(p1, n, Vector2f(1, 1)), d = b.vertex(apex, n, Vector2f(0.5, 0))
            b.triangle(a, c, d)
        }
        let down = Vector3f(0, -1, 0)
        let q = base.enumerated().map { b.vertex($1, down, Vector2f($0 == 0 || $0 == 3 ? 0 : 1, $0 < 2 ? 1 : 0)) }
        b.triangle(q[0], q[1], q[2]); b.triangle(q[0], q[2], q[3])
        return Geometry(kind: .pyramid(width: width, height: height, length: length), mesh: b.mesh(), materials: [material])
    }

    /// The infinite floor: the y = 0 plane facing +y. The mesh is a finite square of
    /// `extent` metres (texture repeating every metre) for backends that cannot draw to the
    /// horizon; ``isInfinite`` is true and hit tests intersect the unbounded plane.
    public static func floor(extent: Float = 200, material: Material = Material()) -> Geometry {
        var b = MeshBuilder()
        let e = min(max(extent, 1), GeometryLimits.maxSize)
        b.grid(1, 1) { u, v in (Vector3f((u - 0.5) * e, 0, (v - 0.5) * e), Vector3f(0, 1, 0)) }
        b.texcoords = b.texcoords.map { $0 * e }
        return Geometry(kind: .floor, mesh: b.mesh(), materials: [material])
    }
}

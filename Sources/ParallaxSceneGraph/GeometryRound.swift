import Foundation
import ParallaxMath

extension Geometry {
    /// A cylinder of `radius` along y from -height/2 to +height/2, with caps.
    public static func cylinder(radius: Float = 0.5, height: Float = 1, radialSegments: Int = 48, heightSegments: Int = 1,
                                material: Material = Material()) -> Geometry {
        var g = cone(topRadius: radius, bottomRadius: radius, height: height, radialSegments: radialSegments,
                     heightSegments: heightSegments, material: material)
        g.kind = .cylinder(radius: radius, height: height)
        return g
    }

    /// A (truncated) cone along y from -height/2 (bottomRadius) to +height/2 (topRadius).
    /// Side normals tilt by the slope: n ∝ (cos φ · h, r_bottom − r_top, sin φ · h).
    public static func cone(topRadius: Float = 0, bottomRadius: Float = 0.5, height: Float = 1, radialSegments: Int = 48,
                            heightSegments: Int = 1, material: Material = Material()) -> Geometry {
        let rs = clampSegments(radialSegments, minimum: 3), hs = clampSegments(heightSegments)
        let rt = max(topRadius, 0), rb = max(bottomRadius, 0)
        var b = MeshBuilder()
        b.grid(rs, hs) { u, v in
            let phi = -u * 2 * .pi   // u grows counter-clockwise seen from outside
            let r = rt + (rb - rt) * v, y = height / 2 - height * v
            let n = Vector3f(cos(phi) * height, rb - rt, sin(phi) * height).normalized
            return (Vector3f(r * cos(phi), y, r * sin(phi)), n)
        }
        if rt > 0 { b.disc(radius: rt, y: height / 2, up: true, segments: rs) }
        if rb > 0 { b.disc(radius: rb, y: -height / 2, up: false, segments: rs) }
        return Geometry(kind: .cone(topRadius: rt, bottomRadius: rb, height: height), mesh: b.mesh(), materials: [material])
    }

    /// A torus around the y axis: the pipe's centre circle has `ringRadius`.
    public static func torus(ringRadius: Float = 0.5, pipeRadius: Float = 0.15, ringSegments: Int = 48, pipeSegments: Int = 24,
                             material: Material = Material()) -> Geometry {
        var b = MeshBuilder()
        b.grid(clampSegments(ringSegments, minimum: 3), clampSegments(pipeSegments, minimum: 3)) { u, v in
            let phi = -u * 2 * .pi, theta = v * 2 * .pi
            let ring = Vector3f(cos(phi), 0, sin(phi))
            let n = ring * cos(theta) + Vector3f(0, sin(theta), 0)
            return (ring * ringRadius + n * pipeRadius, n)
        }
        return Geometry(kind: .torus(ringRadius: ringRadius, pipeRadius: pipeRadius), mesh: b.mesh(), materials: [material])
    }

    /// A capsule along y of total `height` (≥ 2·capRadius): a cylinder with hemispherical caps.
    public static func capsule(capRadius: Float = 0.25, height: Float = 1, radialSegments: Int = 48, capSegments: Int = 12,
                               material: Material = Material()) -> Geometry {
        let r = max(capRadius, 0), half = max(height / 2 - r, 0)
        let cs = clampSegments(capSegments, minimum: 2)
        // Latitude rows: a north cap (cs rows), then a south cap (cs rows); the straight part
        // is the band between the last north row and the first south row.
        var b = MeshBuilder()
        let rows = 2 * cs + 1
        b.grid(clampSegments(radialSegments, minimum: 3), rows) { u, v in
            let phi = -u * 2 * .pi
            let k = Int((v * Float(rows)).rounded())
            let theta: Float, yOffset: Float
            if k <= cs { theta = Float(k) / Float(cs) * .pi / 2; yOffset = half }
            else { theta = .pi / 2 + Float(k - cs - 1) / Float(cs) * .pi / 2; yOffset = -half }
            let n = Vector3f(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi))
            return (n * r + Vector3f(0, yOffset, 0), n)
        }
        return Geometry(kind: .capsule(capRadius: r, height: max(height, 2 * r)), mesh: b.mesh(), materials: [material])
    }
}

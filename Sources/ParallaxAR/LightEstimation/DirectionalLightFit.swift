import Foundation
import ParallaxMath

/// Shading measured on one planar surface: its unit normal and the (robust) linear radiance
/// the camera saw on it.
public struct PlaneShadingSample: Sendable, Equatable {
    /// Identifier of the plane (for reports).
    public var id: String
    /// Unit normal in the world frame (pointing out of the surface, towards the viewer side).
    public var normal: Vector3
    /// Median linear radiance (0…1 of the image's linear range) over the plane's pixels.
    public var radiance: Double
    /// Median linear R, G, B (equal for grey images).
    public var radianceRGB: Vector3
    /// Pixels that contributed.
    public var pixelCount: Int

    /// Creates a sample.
    public init(id: String, normal: Vector3, radiance: Double, radianceRGB: Vector3? = nil, pixelCount: Int) {
        self.id = id; self.normal = normal; self.radiance = radiance
        self.radianceRGB = radianceRGB ?? Vector3(radiance, radiance, radiance); self.pixelCount = pixelCount
    }
}

/// An ambient + directional light model fitted to plane shading.
public struct DirectionalLightFit: Sendable, Equatable {
    /// Unit vector pointing *towards* the light (world frame).
    public var towardLight: Vector3
    /// Radiance contributed by the uniform ambient light (the a of E = a + b·max(n·l, 0)).
    public var ambient: Double
    /// Radiance contributed by the directional light at normal incidence (b).
    public var directional: Double
    /// Root-mean-square residual of the fit (radiance units).
    public var rmsResidual: Double
    /// Number of distinct normals used.
    public var normalCount: Int

    /// The direction the light travels (ARKit/ARCore's `primaryLightDirection`).
    public var lightTravelDirection: Vector3 { -towardLight }

    /// Fits E(n) = a + b·max(n·l, 0) to Lambertian planes (same albedo assumed, so the radiance
    /// is proportional to irradiance). Least squares in (a, b) is linear for a fixed l, so l is
    /// found by exhaustive search over a Fibonacci sphere (2000 directions, ~4.5° apart) then
    /// refined on shrinking tangent-plane grids down to 0.05°. Needs at least three distinct normals
    /// (the model has four parameters but a, b are linear); returns nil otherwise or when the
    /// data show no directional component.
    public static func fit(_ samples: [PlaneShadingSample]) -> DirectionalLightFit? {
        let usable = samples.filter { $0.pixelCount > 0 && $0.radiance.isFinite && $0.normal.norm > 0.5 }
        // Merge near-identical normals: the model cannot tell them apart, they only add weight.
        var distinct: [Vector3] = []
        for s in usable where !distinct.contains(where: { $0.dot(s.normal.normalized) > 0.996 }) { distinct.append(s.normal.normalized) }
        guard distinct.count >= 3 else { return nil }
        let normals = usable.map { $0.normal.normalized }
        let values = usable.map(\.radiance)
        let weights = usable.map { Double($0.pixelCount).squareRoot() }

        func solve(_ l: Vector3) -> (a: Double, b: Double, cost: Double) {
            // Weighted linear least squares for E = a + b·c with c = max(n·l, 0); b ≥ 0.
            var s00 = 0.0, s01 = 0.0, s11 = 0.0, r0 = 0.0, r1 = 0.0
            for i in 0..<values.count {
                let c = max(normals[i].dot(l), 0), w = weights[i]
                s00 += w; s01 += w * c; s11 += w * c * c; r0 += w * values[i]; r1 += w * c * values[i]
            }
            let det = s00 * s11 - s01 * s01
            var a = r0 / s00, b = 0.0
            if det > 1e-12 * s00 * s00 {
                a = (s11 * r0 - s01 * r1) / det
                b = (s00 * r1 - s01 * r0) / det
                if b < 0 { a = r0 / s00; b = 0 }
            }
            var cost = 0.0
            for i in 0..<values.count {
                let e = values[i] - a - b * max(normals[i].dot(l), 0)
                cost += weights[i] * e * e
            }
            return (a, b, cost)
        }

        var best = (l: Vector3(0, 1, 0), fit: solve(Vector3(0, 1, 0)))
        let n = 2000, golden = Double.pi * (3 - 5.0.squareRoot())
        for i in 0..<n {
            let y = 1 - 2 * (Double(i) + 0.5) / Double(n)
            let r = (1 - y * y).squareRoot(), phi = golden * Double(i)
            let l = Vector3(r * cos(phi), y, r * sin(phi))
            let f = solve(l)
            if f.cost < best.fit.cost { best = (l, f) }
        }
        var step = 3.0 * Double.pi / 180
        while step > 0.0005 {
            let l0 = best.l
            let u = (abs(l0.y) < 0.9 ? Vector3(0, 1, 0) : Vector3(1, 0, 0)).cross(l0).normalized
            let v = l0.cross(u)
            for i in -4...4 {
                for j in -4...4 where i != 0 || j != 0 {
                    let l = (l0 + u * (Double(i) * step) + v * (Double(j) * step)).normalized
                    let f = solve(l)
                    if f.cost < best.fit.cost { best = (l, f) }
                }
            }
            step *= 0.35
        }
        guard best.fit.b > 0 else { return nil }
        let totalWeight = weights.reduce(0, +)
        return DirectionalLightFit(towardLight: best.l, ambient: best.fit.a, directional: best.fit.b,
                                   rmsResidual: (best.fit.cost / totalWeight).squareRoot(), normalCount: distinct.count)
    }
}

import Foundation
import ParallaxMath

/// Real spherical harmonics up to order 2 (9 functions), as used for irradiance environment maps
/// (Ramamoorthi & Hanrahan, "An Efficient Representation for Irradiance Environment Maps",
/// SIGGRAPH 2001). Order of the coefficients: (l, m) = (0,0), (1,−1), (1,0), (1,1), (2,−2),
/// (2,−1), (2,0), (2,1), (2,2); direction components are those of the AR world (y up).
public enum SphericalHarmonics {
    /// Number of coefficients per channel.
    public static let count = 9

    /// The 9 basis functions at the unit direction `d` (Ramamoorthi & Hanrahan, eq. 3).
    public static func basis(_ d: Vector3) -> [Double] {
        let x = d.x, y = d.y, z = d.z
        return [
            0.282095,
            0.488603 * y, 0.488603 * z, 0.488603 * x,
            1.092548 * x * y, 1.092548 * y * z, 0.315392 * (3 * z * z - 1), 1.092548 * x * z,
            0.546274 * (x * x - y * y),
        ]
    }

    /// Convolution weights Â_l of the clamped cosine: π, 2π/3, π/4 for l = 0, 1, 2 (eq. 8), so
    /// that irradiance E(n) = Σ Â_l L_lm Y_lm(n).
    public static let cosineLobe: [Double] = [.pi, 2 * .pi / 3, 2 * .pi / 3, 2 * .pi / 3, .pi / 4, .pi / 4, .pi / 4, .pi / 4, .pi / 4]

    /// Radiance coefficients of uniform radiance `ambient` plus a distant light of irradiance
    /// `directional` (at normal incidence) arriving *from* the unit direction `towardLight`.
    /// The uniform part projects onto Y00 only (∫Y00 dω = √(4π)); the directional part is a
    /// delta whose coefficients are the basis values at its direction.
    public static func project(ambientRadiance ambient: Double, directional: Double, towardLight: Vector3) -> [Double] {
        var c = basis(towardLight).map { $0 * directional }
        c[0] += ambient * (4 * Double.pi).squareRoot()
        return c
    }

    /// Irradiance at a surface with unit normal `n` from radiance coefficients `c` (eq. 7).
    public static func irradiance(_ c: [Double], normal n: Vector3) -> Double {
        let y = basis(n)
        var e = 0.0
        for i in 0..<min(9, c.count) { e += cosineLobe[i] * c[i] * y[i] }
        return e
    }

    /// The dominant light direction of a set of coefficients: the direction of the linear band
    /// (L_11, L_1−1, L_10) → (x, y, z) (Sloan, "Stupid Spherical Harmonics Tricks", GDC 2008).
    public static func dominantDirection(_ c: [Double]) -> Vector3? {
        guard c.count >= 4 else { return nil }
        let v = Vector3(c[3], c[1], c[2])
        let n = v.norm
        return n > 1e-12 ? v / n : nil
    }
}

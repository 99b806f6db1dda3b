import Foundation
import ParallaxMath

/// Environmental HDR-style lighting (ARCore's `EnvironmentalHdr` mode): a primary directional
/// light and second-order spherical harmonics of the ambient light.
public struct EnvironmentLightEstimate: Sendable, Equatable {
    /// Unit direction the primary light travels (AR world).
    public var primaryLightDirection: Vector3
    /// Primary light intensity in lumens on the ambient-intensity scale (1000 = the neutral level).
    public var primaryLightIntensity: Double
    /// Ambient (uniform) part in lumens on the same scale.
    public var ambientIntensity: Double
    /// 27 radiance coefficients `[c0_r, c0_g, c0_b, c1_r, …]`, in units of the neutral level
    /// (``SphericalHarmonics`` order), covering ambient and primary light together.
    public var sphericalHarmonicsCoefficients: [Double]
    /// The underlying fit.
    public var fit: DirectionalLightFit

    /// Builds the estimate from a fit; `referenceLinearLuminance` maps radiance to the 1000 lm scale
    /// and `colorRatios` (linear RGB / luminance of the scene) tints the coefficients.
    public init(fit: DirectionalLightFit, referenceLinearLuminance: Double, colorRatios: Vector3 = Vector3(1, 1, 1)) {
        self.fit = fit
        let scale = 1 / referenceLinearLuminance
        primaryLightDirection = fit.lightTravelDirection
        primaryLightIntensity = 1000 * fit.directional * scale
        ambientIntensity = 1000 * fit.ambient * scale
        // Uniform radiance L gives irradiance πL, so the ambient radiance is a/π.
        let c = SphericalHarmonics.project(ambientRadiance: fit.ambient / .pi * scale, directional: fit.directional * scale,
                                           towardLight: fit.towardLight)
        var out: [Double] = []
        for k in c { out += [k * colorRatios.x, k * colorRatios.y, k * colorRatios.z] }
        sphericalHarmonicsCoefficients = out
    }

    /// Fits planes' shading and builds the estimate (nil when the fit is not possible).
    public static func estimate(samples: [PlaneShadingSample], referenceLinearLuminance: Double) -> EnvironmentLightEstimate? {
        guard let fit = DirectionalLightFit.fit(samples) else { return nil }
        var rgb = Vector3.zero, lum = 0.0
        for s in samples { rgb += s.radianceRGB * Double(s.pixelCount); lum += s.radiance * Double(s.pixelCount) }
        let ratios = lum > 0 ? rgb / lum : Vector3(1, 1, 1)
        return EnvironmentLightEstimate(fit: fit, referenceLinearLuminance: referenceLinearLuminance, colorRatios: ratios)
    }
}

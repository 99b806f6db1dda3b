import Foundation
import ParallaxImaging
import ParallaxMath

/// Scene lighting estimated from one frame (`ARLightEstimate` / `ARDirectionalLightEstimate`).
public struct LightEstimate: Sendable, Equatable {
    /// Ambient intensity in lumens; 1000 = neutral (ARKit's meaning).
    public var ambientIntensity: Double
    /// Colour temperature in kelvin; 6500 = neutral white.
    public var ambientColorTemperature: Double
    /// Direction the dominant light travels, unit vector in the AR world (nil when unknown).
    public var primaryLightDirection: Vector3?
    /// Intensity of the dominant light in lumens (nil when unknown).
    public var primaryLightIntensity: Double?
    /// Second-order spherical-harmonics coefficients of the ambient light, 9 per colour channel,
    /// laid out `[c0_r, c0_g, c0_b, c1_r, …]` (27 values), AR world axes; empty when not estimated.
    public var sphericalHarmonicsCoefficients: [Double]

    /// Creates an estimate.
    public init(ambientIntensity: Double, ambientColorTemperature: Double,
                primaryLightDirection: Vector3? = nil, primaryLightIntensity: Double? = nil,
                sphericalHarmonicsCoefficients: [Double] = []) {
        self.ambientIntensity = ambientIntensity
        self.ambientColorTemperature = ambientColorTemperature
        self.primaryLightDirection = primaryLightDirection
        self.primaryLightIntensity = primaryLightIntensity
        self.sphericalHarmonicsCoefficients = sphericalHarmonicsCoefficients
    }

    /// Neutral light: 1000 lm, 6500 K.
    public static let neutral = LightEstimate(ambientIntensity: 1000, ambientColorTemperature: 6500)
}

/// Estimates lighting from a frame. Implemented by ParallaxARView's estimator; the session calls
/// it once per frame when ``WorldTrackingConfiguration/isLightEstimationEnabled`` is set.
/// Implementations may keep state (temporal smoothing), hence `mutating`.
public protocol LightEstimator: Sendable {
    /// The estimate for `image` (the frame's captured image), seen by `camera`, with the planes
    /// currently known.
    mutating func estimate(image: AnyImage, camera: Camera, planes: [PlaneAnchor]) -> LightEstimate
}

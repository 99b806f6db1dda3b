import Foundation
import ParallaxMath

/// A light source attached to a node (SceneKit's `SCNLight`). Directional and spot lights shine
/// along the node's -z axis; omni lights radiate from the node's position.
public struct Light: Sendable {
    /// Kinds of light.
    public enum LightType: String, Sendable, CaseIterable {
        /// Uniform light from everywhere (no position, no shadow).
        case ambient
        /// Parallel rays along the node's -z (the sun).
        case directional
        /// A point light.
        case omni
        /// A cone of light along the node's -z.
        case spot
    }

    /// The kind.
    public var type: LightType
    /// Luminous intensity in lumens, SceneKit's unit: 1000 = neutral.
    public var intensity: Float = 1000
    /// Linear RGB colour (ignored when `temperature` is set).
    public var color = Vector3f(1, 1, 1)
    /// Colour temperature in kelvin (6500 = neutral white); overrides `color` when set.
    public var temperature: Float?
    /// Omni/spot: distance where falloff starts (full intensity before), metres.
    public var attenuationStartDistance: Float = 0
    /// Omni/spot: distance where the light reaches zero; 0 = no attenuation (SceneKit's default).
    public var attenuationEndDistance: Float = 0
    /// Omni/spot: exponent of the falloff curve between start and end (2 = quadratic).
    public var attenuationFalloffExponent: Float = 2
    /// Spot: full-intensity cone angle, degrees (whole angle, SceneKit's meaning).
    public var spotInnerAngle: Float = 0
    /// Spot: the cone angle beyond which there is no light, degrees (whole angle).
    public var spotOuterAngle: Float = 45
    /// Whether this light casts shadows (directional, spot and omni).
    public var castsShadow = false
    /// Shadow map edge length in texels.
    public var shadowMapSize = 1024
    /// Shadow softness: PCF filter radius in texels.
    public var shadowRadius: Float = 1.5
    /// Number of PCF samples per fragment.
    public var shadowSampleCount = 8
    /// Depth bias against shadow acne, in shadow-map depth units scaled by the slope.
    public var shadowBias: Float = 0.005
    /// Directional shadows: half-height of the orthographic shadow volume, metres.
    public var orthographicScale: Float = 10
    /// Shadow camera near / far planes, metres.
    public var zNear: Float = 0.1, zFar: Float = 100

    /// Creates a light.
    public init(type: LightType, intensity: Float = 1000, color: Vector3f = Vector3f(1, 1, 1)) {
        self.type = type; self.intensity = intensity; self.color = color
    }

    /// The colour actually used: from `temperature` when set, otherwise `color`.
    public var effectiveColor: Vector3f { temperature.map(Light.linearRGB(kelvin:)) ?? color }

    /// Colour × intensity / 1000: the linear radiance scale the shader multiplies by.
    public var scaledColor: Vector3f { effectiveColor * (intensity / 1000) }

    /// Linear RGB of a black body at `kelvin`, normalised so 6500 K = (1, 1, 1).
    ///
    /// Uses Tanner Helland's curve fit to Mitchell Charity's black-body table ("How to Convert
    /// Temperature (K) to RGB: Algorithm and Sample Code", tannerhelland.com, 2012), which returns
    /// sRGB 0…255 for 1000–40000 K; we decode sRGB to linear (IEC 61966-2-1) and divide by the
    /// value at 6500 K so the documented neutral really is white. Accuracy is a few percent,
    /// plenty for lighting.
    public static func linearRGB(kelvin: Float) -> Vector3f {
        func helland(_ k: Float) -> Vector3f {
            let t = min(max(k, 1000), 40000) / 100
            let r: Float = t <= 66 ? 255 : 329.698727446 * pow(t - 60, -0.1332047592)
            let g: Float = t <= 66 ? 99.4708025861 * log(t) - 161.1195681661 : 288.1221695283 * pow(t - 60, -0.0755148492)
            let b: Float = t >= 66 ? 255 : (t <= 19 ? 0 : 138.5177312231 * log(t - 10) - 305.0447927307)
            let srgb = Vector3f(r, g, b).clamped(lowerBound: .zero, upperBound: Vector3f(255, 255, 255)) / 255
            return Vector3f(srgbToLinear(srgb.x), srgbToLinear(srgb.y), srgbToLinear(srgb.z))
        }
        return helland(kelvin) / helland(6500)
    }
}

/// sRGB transfer function decode (IEC 61966-2-1).
public func srgbToLinear(_ c: Float) -> Float { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
/// sRGB transfer function encode (IEC 61966-2-1).
public func linearToSRGB(_ c: Float) -> Float { c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055 }

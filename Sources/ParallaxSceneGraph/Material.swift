import Foundation
import ParallaxImaging
import ParallaxMath

/// A texture: an RGBA image plus sampling state. `identity` names the pixels so a renderer can
/// cache one GPU texture per identity (same identity ⇒ same pixels).
public struct Texture: Sendable {
    /// How coordinates outside 0…1 are treated.
    public enum WrapMode: String, Sendable, CaseIterable { case `repeat`, clamp, mirror }
    /// Sampling filter.
    public enum FilterMode: String, Sendable, CaseIterable { case nearest, linear }

    /// The pixels (row 0 = top; texture coordinate v = 0 is the top row).
    public var image: Image<RGBA8>
    /// Cache key: a file path, a procedural recipe, or a fresh UUID.
    public let identity: String
    /// Wrap mode along u.
    public var wrapS: WrapMode = .repeat
    /// Wrap mode along v.
    public var wrapT: WrapMode = .repeat
    /// Magnification / minification filter.
    public var filter: FilterMode = .linear
    /// Whether mipmaps should be generated and used for minification.
    public var mipmapped = true
    /// True for colour data stored in sRGB (base colour, emission); false for data textures
    /// (normal, metalness, roughness, occlusion) that must not be linearised.
    public var isSRGB = true

    /// Creates a texture; without `identity` a unique one is made.
    public init(image: Image<RGBA8>, identity: String? = nil) {
        self.image = image
        self.identity = identity ?? "texture-\(UUID().uuidString)"
    }
}

/// The value of one material slot: a constant colour, a texture or a scalar.
public struct MaterialProperty: Sendable {
    /// What the slot holds.
    public enum Contents: Sendable {
        /// Linear RGBA.
        case color(Vector4f)
        /// A texture sampled at the mesh's texture coordinates.
        case texture(Texture)
        /// A scalar (shininess, metalness, roughness, …).
        case scalar(Float)
    }

    /// The contents.
    public var contents: Contents
    /// Multiplier applied to the contents (normal-map strength, emission strength…).
    public var intensity: Float = 1
    /// Texture-coordinate scale (tiling), SceneKit's `contentsTransform` restricted to a scale.
    public var textureScale = Vector2f(1, 1)
    /// For scalar slots (metalness, roughness, occlusion…) holding a texture: the channel to
    /// read, 0 = red … 3 = alpha. glTF packs roughness in green (1) and metalness in blue (2).
    public var textureChannel = 0

    /// Creates a property.
    public init(_ contents: Contents, intensity: Float = 1) { self.contents = contents; self.intensity = intensity }
    /// A colour property.
    public static func color(_ c: Vector4f) -> MaterialProperty { MaterialProperty(.color(c)) }
    /// An opaque colour property from linear RGB.
    public static func color(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) -> MaterialProperty { MaterialProperty(.color(Vector4f(r, g, b, a))) }
    /// A scalar property.
    public static func scalar(_ v: Float) -> MaterialProperty { MaterialProperty(.scalar(v)) }
    /// A texture property.
    public static func texture(_ t: Texture) -> MaterialProperty { MaterialProperty(.texture(t)) }

    /// The texture when the slot holds one.
    public var texture: Texture? { if case .texture(let t) = contents { return t }; return nil }
    /// The colour when the slot holds one (a scalar `s` reads as `(s, s, s, 1)`; a texture as white).
    public var colorValue: Vector4f {
        switch contents {
        case .color(let c): return c * Vector4f(intensity, intensity, intensity, 1)
        case .scalar(let s): return Vector4f(s * intensity, s * intensity, s * intensity, 1)
        case .texture: return Vector4f(1, 1, 1, 1)
        }
    }
    /// The scalar when the slot holds one (a colour reads as its red channel; a texture as 1).
    public var scalarValue: Float {
        switch contents {
        case .scalar(let s): return s * intensity
        case .color(let c): return c.x * intensity
        case .texture: return intensity
        }
    }
}

/// The appearance of a surface (SceneKit's `SCNMaterial`). A value type: copy and modify.
public struct Material: Sendable {
    /// How light is computed.
    public enum LightingModel: String, Sendable, CaseIterable {
        /// Unlit: diffuse + emission only.
        case constant
        /// Diffuse only.
        case lambert
        /// Diffuse + Blinn–Phong specular (half vector).
        case blinn
        /// Diffuse + Phong specular (reflection vector).
        case phong
        /// Metallic–roughness PBR (Cook–Torrance GGX, as glTF).
        case physicallyBased
    }
    /// How the fragment is combined with the framebuffer when not opaque.
    public enum BlendMode: String, Sendable, CaseIterable {
        /// Standard "over" with premultiplied coverage: `src·a + dst·(1 − a)`.
        case alpha
        /// Additive: `src·a + dst`.
        case add
    }
    /// Which colour channels are written.
    public struct ColorMask: OptionSet, Sendable, Hashable {
        /// Bits.
        public let rawValue: UInt8
        /// Creates a mask.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Red.
        public static let red = ColorMask(rawValue: 1)
        /// Green.
        public static let green = ColorMask(rawValue: 2)
        /// Blue.
        public static let blue = ColorMask(rawValue: 4)
        /// Alpha.
        public static let alpha = ColorMask(rawValue: 8)
        /// All channels.
        public static let all: ColorMask = [.red, .green, .blue, .alpha]
    }

    /// Optional name (scene files refer to materials by name).
    public var name: String?
    /// Lighting model.
    public var lightingModel: LightingModel = .blinn
    /// Base colour (albedo); its alpha is the surface coverage.
    public var diffuse: MaterialProperty = .color(0.8, 0.8, 0.8)
    /// Specular colour (blinn/phong).
    public var specular: MaterialProperty = .color(0.5, 0.5, 0.5)
    /// Specular exponent (blinn/phong).
    public var shininess: MaterialProperty = .scalar(32)
    /// Tangent-space normal map (texture) – a colour or scalar here means "none".
    public var normal: MaterialProperty?
    /// Emitted linear colour.
    public var emission: MaterialProperty = .color(0, 0, 0)
    /// Metalness 0…1 (physicallyBased).
    public var metalness: MaterialProperty = .scalar(0)
    /// Perceptual roughness 0…1 (physicallyBased).
    public var roughness: MaterialProperty = .scalar(0.5)
    /// Ambient occlusion 0…1 (1 = unoccluded).
    public var ambientOcclusion: MaterialProperty = .scalar(1)
    /// Transparency 0…1 multiplied into the alpha (1 = opaque, SceneKit's meaning).
    public var transparency: Float = 1
    /// Blend mode used when the material is not opaque.
    public var blendMode: BlendMode = .alpha
    /// When true, back faces are drawn too (and lit with the flipped normal).
    public var isDoubleSided = false
    /// Whether fragments write depth.
    public var writesToDepthBuffer = true
    /// Whether fragments are depth-tested.
    public var readsFromDepthBuffer = true
    /// Colour channels written; empty = depth-only occluder.
    public var colorBufferWriteMask: ColorMask = .all

    /// Creates a material with SceneKit-like defaults.
    public init(name: String? = nil, lightingModel: LightingModel = .blinn, diffuse: MaterialProperty = .color(0.8, 0.8, 0.8)) {
        self.name = name; self.lightingModel = lightingModel; self.diffuse = diffuse
    }

    /// An invisible material that only writes depth: virtual content behind it is hidden, as
    /// AR apps do with real surfaces (walls, tables) reconstructed as occlusion geometry.
    public static func occluder(name: String? = "occluder") -> Material {
        var m = Material(name: name, lightingModel: .constant, diffuse: .color(0, 0, 0))
        m.colorBufferWriteMask = []
        return m
    }

    /// True when blending is needed (transparency or a translucent base colour).
    public var isTranslucent: Bool {
        if transparency < 1 { return true }
        if case .color(let c) = diffuse.contents { return c.w < 1 }
        return false
    }

    /// Every texture this material uses, for upload.
    public var textures: [Texture] {
        [diffuse, specular, shininess, emission, metalness, roughness, ambientOcclusion].compactMap(\.texture)
            + (normal?.texture.map { [$0] } ?? [])
    }
}

import Foundation
import ParallaxImaging
import ParallaxMath

/// Loads PNG textures for scene and mesh files, once per path, with size checks before decoding.
/// It also carries the ``SceneFileAccess`` rule through nested loads (scene → OBJ → MTL → PNG).
final class TextureCache {
    private var cache: [String: Texture] = [:]
    /// Which files may be referenced.
    let access: SceneFileAccess

    init(access: SceneFileAccess) { self.access = access }

    /// Resolves `reference` against `base` under ``access``, then loads it.
    func load(reference: String, relativeTo base: URL, file: String, field: String) throws -> Texture {
        try load(access.resolve(reference, relativeTo: base, file: file, field: field, what: "texture file"), file: file, field: field)
    }

    func load(_ url: URL, file: String, field: String) throws -> Texture {
        let key = url.standardizedFileURL.path
        if let t = cache[key] { return t }
        guard FileManager.default.fileExists(atPath: key) else {
            throw SceneError(file: file, field: field, "texture file \(url.lastPathComponent) not found (looked at \(key))")
        }
        let image: Image<RGBA8>
        do {
            let info = try PNG.readInfo(contentsOf: url)
            let size = "texture \(url.lastPathComponent) is \(info.width)×\(info.height)"
            guard info.width <= SceneLimits.maxTextureSize, info.height <= SceneLimits.maxTextureSize else {
                throw SceneError(file: file, field: field, "\(size); each side may be at most \(SceneLimits.maxTextureSize) pixels")
            }
            guard info.width * info.height <= SceneLimits.maxTexturePixels else {
                throw SceneError(file: file, field: field,
                                 "\(size) = \(info.width * info.height) pixels; at most \(SceneLimits.maxTexturePixels) pixels in all")
            }
            image = try PNG.read(contentsOf: url).toRGBA8()
        } catch let e as SceneError { throw e } catch {
            throw SceneError(file: file, field: field, "cannot read texture \(url.lastPathComponent): \(error)")
        }
        let t = Texture(image: image, identity: "file:" + key)
        cache[key] = t
        return t
    }
}

/// The material and texture part of the JSON scene reader.
struct MaterialReader {
    let baseURL: URL
    let textures: TextureCache
    var named: [String: Material] = [:]

    static let materialKeys: Set<String> = ["name", "lightingModel", "diffuse", "specular", "shininess", "normal", "emission", "metalness",
                                            "roughness", "ambientOcclusion", "transparency", "blendMode", "doubleSided", "writesDepth",
                                            "readsDepth", "colorWriteMask", "occluder"]

    /// A material given inline (object) or by name (string).
    func material(_ f: JSONField) throws -> Material {
        if case .string(let name) = f.value {
            guard let m = named[name] else {
                throw f.error("unknown material \"\(name)\"; defined: \(named.keys.sorted().joined(separator: ", "))")
            }
            return m
        }
        guard case .object = f.value else {
            throw f.error("expected a material object or a material name, found \(f.value.typeName)")
        }
        try f.checkKeys(Self.materialKeys)
        var m = try f.bool("occluder") == true ? Material.occluder() : Material()
        m.name = try f.string("name") ?? m.name
        if let lm = f.child("lightingModel") { m.lightingModel = try lm.oneOf(Material.LightingModel.self) }
        if let p = f.child("diffuse") { m.diffuse = try property(p, srgbTexture: true) }
        if let p = f.child("specular") { m.specular = try property(p, srgbTexture: true) }
        if let p = f.child("shininess") { m.shininess = try property(p, srgbTexture: false) }
        if let p = f.child("normal") { m.normal = try property(p, srgbTexture: false) }
        if let p = f.child("emission") { m.emission = try property(p, srgbTexture: true) }
        if let p = f.child("metalness") { m.metalness = try property(p, srgbTexture: false) }
        if let p = f.child("roughness") { m.roughness = try property(p, srgbTexture: false) }
        if let p = f.child("ambientOcclusion") { m.ambientOcclusion = try property(p, srgbTexture: false) }
        m.transparency = try f.float("transparency", in: 0...1) ?? m.transparency
        if let b = f.child("blendMode") { m.blendMode = try b.oneOf(Material.BlendMode.self) }
        m.isDoubleSided = try f.bool("doubleSided") ?? m.isDoubleSided
        m.writesToDepthBuffer = try f.bool("writesDepth") ?? m.writesToDepthBuffer
        m.readsFromDepthBuffer = try f.bool("readsDepth") ?? m.readsFromDepthBuffer
        if let mask = f.child("colorWriteMask") { m.colorBufferWriteMask = try colorMask(mask) }
        return m
    }

    func colorMask(_ f: JSONField) throws -> Material.ColorMask {
        if case .string(let s) = f.value {
            switch s { case "all": return .all; case "none": return []; default: throw f.error("expected \"all\", \"none\" or an array of channels") }
        }
        var mask: Material.ColorMask = []
        for c in try f.array() {
            switch try c.string() {
            case "red": mask.insert(.red); case "green": mask.insert(.green); case "blue": mask.insert(.blue); case "alpha": mask.insert(.alpha)
            default: throw c.error("expected red, green, blue or alpha")
            }
        }
        return mask
    }

    /// A material slot: number (scalar), colour (array or "#rrggbb"), or an object with
    /// `color`, `texture` (PNG path) or `procedural` plus sampling options.
    func property(_ f: JSONField, srgbTexture: Bool) throws -> MaterialProperty {
        switch f.value {
        case .number: return .scalar(try f.float())
        case .array, .string: return .color(try Self.color(f))
        default: break
        }
        try f.checkKeys(["color", "texture", "procedural", "size", "cells", "color1", "color2", "seed", "wrap", "filter", "scale", "intensity", "value", "mipmaps"])
        var p: MaterialProperty
        if let c = f.child("color") {
            p = .color(try Self.color(c))
        } else if let v = f.child("value") {
            p = .scalar(try v.float())
        } else if let path = f.child("texture") {
            p = .texture(try textures.load(reference: try path.string(), relativeTo: baseURL, file: f.file, field: path.path))
        } else if let kind = f.child("procedural") {
            var recipe = ProceduralTexture(pattern: try kind.oneOf(ProceduralTexture.Pattern.self))
            recipe.size = try f.int("size", in: 1...ProceduralTexture.maxSize) ?? recipe.size
            recipe.cells = try f.int("cells", in: 1...512) ?? recipe.cells
            if let c = f.child("color1") { let v = try Self.color(c, linear: false); recipe.color1 = Vector3f(v.x, v.y, v.z) }
            if let c = f.child("color2") { let v = try Self.color(c, linear: false); recipe.color2 = Vector3f(v.x, v.y, v.z) }
            recipe.seed = UInt32(try f.int("seed", in: 0...Int(UInt32.max)) ?? 1)
            p = .texture(recipe.makeTexture())
        } else {
            throw f.error("expected one of color, value, texture or procedural")
        }
        if var t = p.texture {
            if let w = f.child("wrap") { let mode = try w.oneOf(Texture.WrapMode.self); t.wrapS = mode; t.wrapT = mode }
            if let fl = f.child("filter") { t.filter = try fl.oneOf(Texture.FilterMode.self) }
            t.mipmapped = try f.bool("mipmaps") ?? true
            t.isSRGB = srgbTexture
            p = .texture(t)
        }
        p.intensity = try f.float("intensity") ?? 1
        if let s = f.child("scale") {
            if case .number = s.value { let k = try s.float(); p.textureScale = Vector2f(k, k) }
            else { let v = try s.floats(count: 2...2); p.textureScale = Vector2f(v[0], v[1]) }
            guard p.textureScale.x != 0, p.textureScale.y != 0 else { throw s.error("texture scale must be non-zero") }
        }
        return p
    }

    /// A colour: `[r, g, b]` / `[r, g, b, a]` in linear 0…1 (0…∞ for emission), or `"#rrggbb"` /
    /// `"#rrggbbaa"` in sRGB, converted to linear. With `linear: false` both forms stay sRGB.
    static func color(_ f: JSONField, linear: Bool = true) throws -> Vector4f {
        if case .string(let s) = f.value {
            let hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
            guard hex.count == 6 || hex.count == 8, let n = UInt32(hex, radix: 16) else { throw f.error("expected a colour \"#rrggbb\" or \"#rrggbbaa\", found \"\(s)\"") }
            let v = hex.count == 6 ? (n << 8) | 0xFF : n
            let c = Vector4f(Float(v >> 24 & 0xFF), Float(v >> 16 & 0xFF), Float(v >> 8 & 0xFF), Float(v & 0xFF)) / 255
            return linear ? Vector4f(srgbToLinear(c.x), srgbToLinear(c.y), srgbToLinear(c.z), c.w) : c
        }
        let v = try f.floats(count: 3...4)
        guard v.allSatisfy({ $0 >= 0 }) else { throw f.error("colour components must not be negative") }
        return Vector4f(v[0], v[1], v[2], v.count == 4 ? v[3] : 1)
    }
}

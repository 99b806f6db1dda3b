import Foundation
import ParallaxImaging
import ParallaxMath

/// A glTF 2.0 reader (`.gltf` with external or base64 `data:` buffers, and binary `.glb`).
///
/// Why our own instead of tinygltf or assimp: both are C++ and would be the only C++ in the
/// package (a toolchain and bridging burden on Linux); glTF is JSON, so Swift's `Codable`
/// covers the schema in ~80 lines of structs, and we need only a subset: triangle meshes
/// (indexed or not, every accessor component type, normalised and sparse accessors), the
/// node hierarchy, PBR metallic-roughness materials with PNG textures, cameras and
/// `KHR_lights_punctual`. Skins, morph targets and animation are ignored.
public enum GLTFLoader {
    /// Light units: glTF gives directional lights in lux and point/spot lights in candela;
    /// glTF viewers multiply the light colour by that number, while our shaders multiply by
    /// `intensity / 1000` (SceneKit's relative lumens, 1000 = neutral). So we convert with
    /// `lumens = 1000 × (lux or candela)`: a glTF light of intensity 1 renders as a neutral
    /// SceneKit light. (A photometric lumen figure, 4π·cd for an isotropic point, is not what
    /// SceneKit's unit means, so it is not used.)
    public static let lumensPerGLTFUnit: Float = 1000

    /// Loads the default scene of a glTF file as a node tree.
    /// - Parameter access: which files buffer and image `uri`s may name; nil means only files
    ///   inside the glTF file's folder.
    public static func load(contentsOf url: URL, access: SceneFileAccess? = nil) throws -> Node {
        try load(contentsOf: url, textures: TextureCache(access: access ?? .folder(of: url)))
    }

    static func load(contentsOf url: URL, textures: TextureCache) throws -> Node {
        let name = displayName(url)
        let data = try readFile(url, displayName: name)
        var json = data
        var binChunk: Data?
        if url.pathExtension.lowercased() == "glb" || data.starts(with: [0x67, 0x6C, 0x54, 0x46]) {
            (json, binChunk) = try splitGLB(data, name: name)
        }
        let doc: GLTFDocument
        do { doc = try JSONDecoder().decode(GLTFDocument.self, from: json) } catch let e as DecodingError {
            if case .dataCorrupted(let c) = e, c.codingPath.isEmpty {
                throw SceneError(file: name, "invalid JSON at \(JSONSyntaxError.describe(json))")
            }
            let (field, message) = describe(e)
            throw SceneError(file: name, field: field, message)
        }
        if let duplicate = JSONDuplicateKeys.first(in: json) { throw SceneError(file: name, JSONDuplicateKeys.message(duplicate)) }
        guard doc.asset.version.hasPrefix("2.") else { throw SceneError(file: name, field: "asset.version", "only glTF 2.x is supported, found \(doc.asset.version)") }
        let supported: Set<String> = ["KHR_lights_punctual", "KHR_materials_emissive_strength"]
        if let req = doc.extensionsRequired?.first(where: { !supported.contains($0) }) {
            throw SceneError(file: name, field: "extensionsRequired", "extension \(req) is required but not supported")
        }
        var reader = GLTFReader(doc: doc, name: name, baseURL: url.deletingLastPathComponent(), bin: binChunk,
                                fileTextures: textures)
        return try reader.buildScene(rootName: OBJLoader.baseName(name))
    }

    /// Splits a GLB container into its JSON and BIN chunks (glTF 2.0 spec §4.4).
    static func splitGLB(_ data: Data, name: String) throws -> (Data, Data?) {
        let bytes = [UInt8](data)
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        guard bytes.count >= 20, u32(0) == 0x4654_6C67 else { throw SceneError(file: name, "not a GLB file (bad magic)") }
        guard u32(4) == 2 else { throw SceneError(file: name, "GLB version \(u32(4)) is not 2") }
        guard u32(8) <= bytes.count else { throw SceneError(file: name, "GLB header length \(u32(8)) exceeds the file size \(bytes.count)") }
        var offset = 12
        var json: Data?, bin: Data?
        while offset + 8 <= bytes.count {
            let length = u32(offset), type = u32(offset + 4)
            guard length >= 0, offset + 8 + length <= bytes.count else { throw SceneError(file: name, "GLB chunk at byte \(offset) runs past the end") }
            let chunk = Data(bytes[(offset + 8)..<(offset + 8 + length)])
            if type == 0x4E4F_534A { json = json ?? chunk } else if type == 0x004E_4942 { bin = bin ?? chunk }
            offset += 8 + ((length + 3) & ~3)
        }
        guard let json else { throw SceneError(file: name, "GLB has no JSON chunk") }
        return (json, bin)
    }
}

/// Resolves buffers, accessors, materials and nodes of one glTF document.
struct GLTFReader {
    let doc: GLTFDocument
    let name: String
    let baseURL: URL
    let bin: Data?
    var buffers: [Int: [UInt8]] = [:]
    var textureCache: [Int: Texture] = [:]
    var materialCache: [Int: Material] = [:]
    let fileTextures: TextureCache

    init(doc: GLTFDocument, name: String, baseURL: URL, bin: Data?, fileTextures: TextureCache) {
        self.doc = doc; self.name = name; self.baseURL = baseURL; self.bin = bin; self.fileTextures = fileTextures
    }

    func fail(_ field: String, _ message: String) -> SceneError { SceneError(file: name, field: field, message) }

    mutating func buffer(_ i: Int) throws -> [UInt8] {
        if let b = buffers[i] { return b }
        guard let list = doc.buffers, list.indices.contains(i) else { throw fail("buffers[\(i)]", "no such buffer") }
        let desc = list[i]
        let bytes: [UInt8]
        if let uri = desc.uri {
            bytes = try loadURI(uri, field: "buffers[\(i)].uri")
        } else {
            guard let bin else { throw fail("buffers[\(i)]", "has no uri and the file has no GLB binary chunk") }
            bytes = [UInt8](bin)
        }
        guard bytes.count >= desc.byteLength else { throw fail("buffers[\(i)].byteLength", "declares \(desc.byteLength) bytes but holds \(bytes.count)") }
        buffers[i] = bytes
        return bytes
    }

    /// Bytes of a `data:` URI (base64) or of a file relative to the glTF file.
    func loadURI(_ uri: String, field: String) throws -> [UInt8] {
        if uri.hasPrefix("data:") {
            guard let comma = uri.firstIndex(of: ","), uri[..<comma].hasSuffix(";base64"),
                  let d = Data(base64Encoded: String(uri[uri.index(after: comma)...])) else {
                throw fail(field, "malformed base64 data URI")
            }
            return [UInt8](d)
        }
        let url = try fileTextures.access.resolve(uri.removingPercentEncoding ?? uri, relativeTo: baseURL, file: name, field: field)
        return [UInt8](try readFile(url, displayName: name, field: field))
    }

    /// The bytes of a buffer view and its stride.
    mutating func view(_ i: Int, field: String) throws -> (bytes: [UInt8], offset: Int, length: Int, stride: Int?) {
        guard let views = doc.bufferViews, views.indices.contains(i) else { throw fail(field, "bufferView \(i) does not exist") }
        let v = views[i]
        let b = try buffer(v.buffer)
        let off = v.byteOffset ?? 0
        guard off >= 0, v.byteLength >= 0, off + v.byteLength <= b.count else { throw fail("bufferViews[\(i)]", "range \(off)+\(v.byteLength) exceeds buffer \(v.buffer) (\(b.count) bytes)") }
        return (b, off, v.byteLength, v.byteStride)
    }
}

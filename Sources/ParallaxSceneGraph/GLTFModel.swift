import Foundation

// The subset of the glTF 2.0 JSON schema we read (Khronos, "glTF 2.0 Specification", 2021).
// Plain Codable structs: the JSON decoder checks types, and its coding path names the field
// in error messages.

struct GLTFDocument: Decodable {
    struct Asset: Decodable { var version: String }
    struct Buffer: Decodable { var uri: String?; var byteLength: Int }
    struct BufferView: Decodable { var buffer: Int; var byteOffset: Int?; var byteLength: Int; var byteStride: Int? }
    struct Sparse: Decodable {
        struct Indices: Decodable { var bufferView: Int; var byteOffset: Int?; var componentType: Int }
        struct Values: Decodable { var bufferView: Int; var byteOffset: Int? }
        var count: Int; var indices: Indices; var values: Values
    }
    struct Accessor: Decodable {
        var bufferView: Int?; var byteOffset: Int?; var componentType: Int; var normalized: Bool?
        var count: Int; var type: String; var sparse: Sparse?
    }
    struct Primitive: Decodable { var attributes: [String: Int]; var indices: Int?; var material: Int?; var mode: Int? }
    struct Mesh: Decodable { var name: String?; var primitives: [Primitive] }
    struct Node: Decodable {
        var name: String?; var children: [Int]?; var mesh: Int?; var camera: Int?
        var matrix: [Double]?; var translation: [Double]?; var rotation: [Double]?; var scale: [Double]?
        var extensions: NodeExtensions?
    }
    struct NodeExtensions: Decodable {
        struct LightRef: Decodable { var light: Int }
        var KHR_lights_punctual: LightRef?
    }
    struct TextureInfo: Decodable { var index: Int; var texCoord: Int?; var scale: Double?; var strength: Double? }
    struct PBR: Decodable {
        var baseColorFactor: [Double]?; var baseColorTexture: TextureInfo?
        var metallicFactor: Double?; var roughnessFactor: Double?; var metallicRoughnessTexture: TextureInfo?
    }
    struct Material: Decodable {
        var name: String?; var pbrMetallicRoughness: PBR?; var normalTexture: TextureInfo?; var occlusionTexture: TextureInfo?
        var emissiveTexture: TextureInfo?; var emissiveFactor: [Double]?; var alphaMode: String?; var doubleSided: Bool?
    }
    struct Texture: Decodable { var sampler: Int?; var source: Int? }
    struct ImageRef: Decodable { var uri: String?; var bufferView: Int?; var mimeType: String? }
    struct Sampler: Decodable { var magFilter: Int?; var minFilter: Int?; var wrapS: Int?; var wrapT: Int? }
    struct Camera: Decodable {
        struct Perspective: Decodable { var yfov: Double; var znear: Double; var zfar: Double?; var aspectRatio: Double? }
        struct Orthographic: Decodable { var xmag: Double; var ymag: Double; var znear: Double; var zfar: Double }
        var type: String; var perspective: Perspective?; var orthographic: Orthographic?
    }
    struct Light: Decodable {
        struct Spot: Decodable { var innerConeAngle: Double?; var outerConeAngle: Double? }
        var name: String?; var type: String; var color: [Double]?; var intensity: Double?; var range: Double?; var spot: Spot?
    }
    struct Extensions: Decodable {
        struct Lights: Decodable { var lights: [Light] }
        var KHR_lights_punctual: Lights?
    }
    struct SceneRef: Decodable { var nodes: [Int]? }

    var asset: Asset
    var scene: Int?
    var scenes: [SceneRef]?
    var nodes: [Node]?
    var meshes: [Mesh]?
    var accessors: [Accessor]?
    var bufferViews: [BufferView]?
    var buffers: [Buffer]?
    var materials: [Material]?
    var textures: [Texture]?
    var images: [ImageRef]?
    var samplers: [Sampler]?
    var cameras: [Camera]?
    var extensions: Extensions?
    var extensionsRequired: [String]?
}

/// Reads a glTF `DecodingError` as "field.path: message".
func describe(_ error: DecodingError) -> (String, String) {
    func path(_ keys: [CodingKey]) -> String {
        keys.reduce("") { acc, k in
            if let i = k.intValue { return acc + "[\(i)]" }
            return acc.isEmpty ? k.stringValue : acc + "." + k.stringValue
        }
    }
    switch error {
    case .typeMismatch(let t, let c): return (path(c.codingPath), "expected \(t) (\(c.debugDescription))")
    case .valueNotFound(let t, let c): return (path(c.codingPath), "missing \(t)")
    case .keyNotFound(let k, let c): return (path(c.codingPath + [k]), "required field missing")
    case .dataCorrupted(let c):
        let detail = (c.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? c.debugDescription
        return (path(c.codingPath), "invalid JSON: \(detail)")
    @unknown default: return ("", "\(error)")
    }
}

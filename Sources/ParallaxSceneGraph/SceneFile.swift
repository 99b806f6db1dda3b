import Foundation
import ParallaxImaging
import ParallaxMath

extension Scene {
    /// Loads a scene from a JSON scene file (format: `Scenes/README.md`), a glTF 2.0 file
    /// (`.gltf`, `.glb`) or a Wavefront OBJ file (`.obj`), chosen by extension.
    /// - Parameter access: which files the scene may reference; nil means only files inside
    ///   the scene file's folder (``SceneFileAccess/folder(of:)``).
    public static func load(contentsOf url: URL, access: SceneFileAccess? = nil) throws -> Scene {
        let textures = TextureCache(access: access ?? .folder(of: url))
        let scene: Scene
        switch url.pathExtension.lowercased() {
        case "gltf", "glb":
            scene = Scene()
            scene.rootNode.addChildNode(try GLTFLoader.load(contentsOf: url, textures: textures))
        case "obj":
            scene = Scene()
            scene.rootNode.addChildNode(try OBJLoader.load(contentsOf: url, textures: textures))
        default:
            var reader = SceneFileReader(url: url, includeDepth: 0, textures: textures)
            scene = try reader.read()
        }
        scene.sourceURL = url
        return scene
    }
}

/// Reads the JSON scene format. Every accessor throws a ``SceneError`` naming the field.
struct SceneFileReader {
    /// The value of the optional top-level `format` field.
    static let formatName = "parallax-scene"
    let url: URL
    let name: String
    let includeDepth: Int
    var materials: MaterialReader

    init(url: URL, includeDepth: Int, textures: TextureCache) {
        self.url = url
        self.name = displayName(url)
        self.includeDepth = includeDepth
        self.materials = MaterialReader(baseURL: url.deletingLastPathComponent(), textures: textures)
    }

    mutating func read() throws -> Scene {
        let root = try JSONValue.parse(try readFile(url, displayName: name), file: name)
        _ = try root.object()
        try root.checkKeys(["format", "version", "background", "fog", "materials", "nodes", "description"])
        if let v = root.child("version") { _ = try v.int(in: 1...1) }
        if let format = root.child("format"), try format.string() != Self.formatName {
            throw format.error("unknown format \"\(try format.string())\"; expected \"\(Self.formatName)\"")
        }
        // `child` treats null as absent; a top-level list set to null is more likely a mistake.
        for key in ["nodes", "materials"] where root.isNull(key) {
            throw SceneError(file: name, field: key, "expected \(key == "nodes" ? "an array" : "an object"), found null")
        }
        let scene = Scene()
        if let mats = root.child("materials") {
            for (key, f) in try mats.object().sorted(by: { $0.key < $1.key }) {
                var m = try materials.material(f)
                m.name = m.name ?? key
                materials.named[key] = m
            }
        }
        if let bg = root.child("background") { scene.background = try background(bg) }
        if let fog = root.child("fog") {
            try fog.checkKeys(["start", "end", "color"])
            let start = try fog.child("start")?.float(in: 0...1e6) ?? 10
            let end = try fog.child("end")?.float(in: 0...1e6) ?? 100
            guard end > start else { throw fog.error("end (\(end)) must be greater than start (\(start))") }
            let c = try fog.child("color").map { try MaterialReader.color($0) } ?? Vector4f(0.7, 0.7, 0.7, 1)
            scene.fog = Fog(startDistance: start, endDistance: end, color: Vector3f(c.x, c.y, c.z))
        }
        if let nodes = root.child("nodes") {
            for n in try nodes.array() { scene.rootNode.addChildNode(try node(n, depth: 1)) }
        }
        return scene
    }

    func background(_ f: JSONField) throws -> Background {
        if case .object = f.value, f.has("texture") || f.has("procedural") {
            guard let t = try materials.property(f, srgbTexture: true).texture else { throw f.error("expected a texture") }
            return .image(t)
        }
        if case .object = f.value, let c = f.child("color") { return .color(try MaterialReader.color(c)) }
        return .color(try MaterialReader.color(f))
    }

    static let nodeKeys: Set<String> = ["name", "position", "rotation", "quaternion", "eulerDegrees", "lookAt", "scale", "matrix",
                                        "geometry", "light", "camera", "mesh", "gltf", "children", "hidden", "opacity",
                                        "castsShadow", "renderingOrder"]

    func node(_ f: JSONField, depth: Int) throws -> Node {
        guard depth <= SceneLimits.maxDepth else { throw f.error("nodes nested deeper than \(SceneLimits.maxDepth) levels") }
        _ = try f.object()
        try f.checkKeys(Self.nodeKeys)
        let n = Node(name: try f.string("name"))
        try transform(f, into: n)
        if let g = f.child("geometry") { n.geometry = try geometry(g) }
        if let l = f.child("light") { n.light = try light(l) }
        if let c = f.child("camera") { n.camera = try camera(c) }
        n.isHidden = try f.bool("hidden") ?? false
        n.opacity = try f.float("opacity", in: 0...1) ?? 1
        n.castsShadow = try f.bool("castsShadow") ?? true
        n.renderingOrder = try f.int("renderingOrder", in: -1_000_000...1_000_000) ?? 0
        for key in ["mesh", "gltf"] {
            guard let ref = f.child(key) else { continue }
            guard includeDepth < SceneLimits.maxIncludeDepth else { throw ref.error("files referenced more than \(SceneLimits.maxIncludeDepth) levels deep") }
            let fileURL = try materials.textures.access.resolve(try ref.string(), relativeTo: url.deletingLastPathComponent(),
                                                                file: name, field: ref.path, what: "\(key) file")
            let loaded: Node
            do {
                switch fileURL.pathExtension.lowercased() {
                case "obj": loaded = try OBJLoader.load(contentsOf: fileURL, textures: materials.textures)
                case "gltf", "glb": loaded = try GLTFLoader.load(contentsOf: fileURL, textures: materials.textures)
                default: throw ref.error("unsupported mesh file type .\(fileURL.pathExtension); expected .obj, .gltf or .glb")
                }
            } catch let e as SceneError where e.file != name {
                throw SceneError(file: name, field: ref.path, "in \(e.description)")
            }
            n.addChildNode(loaded)
        }
        if let children = f.child("children") {
            for c in try children.array() { n.addChildNode(try node(c, depth: depth + 1)) }
        }
        return n
    }

    func transform(_ f: JSONField, into n: Node) throws {
        if let m = f.child("matrix") {
            for other in ["position", "rotation", "quaternion", "eulerDegrees", "scale", "lookAt"] where f.has(other) {
                throw m.error("give either matrix or position/rotation/scale, not both (\(other) is set)")
            }
            let v = try m.floats(count: 16...16)
            let mat = Matrix4(rowMajor: v.map(Double.init)).float
            guard abs(mat.double.upperLeft3x3.determinant) > 1e-12 else { throw m.error("matrix is singular") }
            n.transform = mat
            return
        }
        n.position = try f.vector3("position") ?? .zero
        let rotationKeys = ["rotation", "quaternion", "eulerDegrees", "lookAt"].filter { f.has($0) }
        guard rotationKeys.count <= 1 else { throw f.error("give at most one of \(rotationKeys.joined(separator: ", "))") }
        if let r = f.child("rotation") {
            try r.checkKeys(["axis", "degrees"])
            guard let axis = try r.vector3("axis"), axis.norm > 0 else { throw r.error("needs a non-zero \"axis\"") }
            guard let deg = try r.float("degrees") else { throw r.error("needs \"degrees\"") }
            n.orientation = Quaternionf(axis: axis, angle: deg * .pi / 180)
        } else if let q = f.child("quaternion") {
            let v = try q.floats(count: 4...4)
            let quat = Quaternionf(w: v[0], x: v[1], y: v[2], z: v[3])
            let norm = (v.map { $0 * $0 }.reduce(0, +)).squareRoot()
            guard norm > 1e-6 else { throw q.error("quaternion [w, x, y, z] must not be zero") }
            n.orientation = quat.normalized
        } else if let e = f.child("eulerDegrees") {
            let v = try e.vector3() * (.pi / 180)
            // SceneKit's eulerAngles order: roll (z) first, then pitch (x), then yaw (y).
            n.orientation = Quaternionf(axis: Vector3f(0, 1, 0), angle: v.y) * Quaternionf(axis: Vector3f(1, 0, 0), angle: v.x)
                * Quaternionf(axis: Vector3f(0, 0, 1), angle: v.z)
        } else if let t = f.child("lookAt") {
            let target = try t.vector3()
            guard (target - n.position).norm > 1e-6 else { throw t.error("target coincides with position") }
            n.look(at: target)
        }
        if let s = f.child("scale") {
            if case .number = s.value { let k = try s.float(); n.scale = Vector3f(k, k, k) } else { n.scale = try s.vector3() }
            guard n.scale.x != 0, n.scale.y != 0, n.scale.z != 0 else { throw s.error("scale must not be zero") }
        }
    }
}

import Foundation
import ParallaxMath

/// Wavefront OBJ + MTL reader (Wavefront "Advanced Visualizer" appendix B1/B2 formats).
///
/// Supported: `v`, `vt`, `vn`, `f` with `v`, `v/vt`, `v//vn`, `v/vt/vn` (negative = relative
/// indices), polygons fan-triangulated, `usemtl` (one mesh element per material), `mtllib`
/// with `newmtl`, `Kd`, `Ks`, `Ke`, `Ns`, `d`, `Tr`, `map_Kd`. Ignored: groups, smoothing
/// groups, lines, free-form surfaces. Texture v is flipped (OBJ's origin is bottom-left, ours
/// top-left).
public enum OBJLoader {
    /// Most vertices/faces accepted (guards against absurd files).
    public static let maxElements = 20_000_000

    /// Loads an OBJ file into a node with one custom geometry.
    /// - Parameter access: which files `mtllib` and `map_Kd` may name; nil means only files
    ///   inside the OBJ file's folder.
    public static func load(contentsOf url: URL, access: SceneFileAccess? = nil) throws -> Node {
        try load(contentsOf: url, textures: TextureCache(access: access ?? .folder(of: url)))
    }

    static func load(contentsOf url: URL, textures: TextureCache) throws -> Node {
        let name = displayName(url)
        guard let text = String(data: try readFile(url, displayName: name), encoding: .utf8) else {
            throw SceneError(file: name, "not UTF-8 text")
        }
        return try parse(text, name: name, baseURL: url.deletingLastPathComponent(), textures: textures)
    }

    static func parse(_ text: String, name: String, baseURL: URL, textures: TextureCache) throws -> Node {
        var v: [Vector3f] = [], vt: [Vector2f] = [], vn: [Vector3f] = []
        var positions: [Vector3f] = [], texcoords: [Vector2f] = [], normals: [Vector3f] = []
        var hasNormals = true
        var remap: [SIMD3<Int32>: UInt32] = [:]
        var materials: [String: Material] = [:]
        var order: [String] = []          // material names in first-use order
        var usemtlLine: [String: Int] = [:]   // where each material was first named, for errors
        var elements: [String: [UInt32]] = [:]
        var current = ""

        func floats(_ parts: [Substring], _ count: Int, _ line: Int) throws -> [Float] {
            guard parts.count >= count + 1 else { throw SceneError(file: name, field: "line \(line)", "expected \(count) numbers after \(parts[0])") }
            return try (1...count).map { i in
                guard let f = Float(parts[i]), f.isFinite else { throw SceneError(file: name, field: "line \(line)", "\"\(parts[i])\" is not a finite number") }
                return f
            }
        }
        func resolve(_ s: Substring, _ count: Int, _ line: Int) throws -> Int32 {
            guard let i = Int(s), i != 0 else { throw SceneError(file: name, field: "line \(line)", "bad index \"\(s)\"") }
            let k = i > 0 ? i - 1 : count + i
            guard k >= 0, k < count else { throw SceneError(file: name, field: "line \(line)", "index \(i) out of range (\(count) defined)") }
            return Int32(k)
        }

        var lineNo = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNo += 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = parts.first else { continue }
            switch keyword {
            case "v": let f = try floats(parts, 3, lineNo); v.append(Vector3f(f[0], f[1], f[2]))
            case "vt":
                guard parts.count >= 2 else { throw SceneError(file: name, field: "line \(lineNo)", "vt needs at least one number") }
                let f = try floats(parts, min(parts.count - 1, 2), lineNo)
                vt.append(Vector2f(f[0], 1 - (f.count > 1 ? f[1] : 0)))
            case "vn": let f = try floats(parts, 3, lineNo); vn.append(Vector3f(f[0], f[1], f[2]).normalized)
            case "f":
                guard parts.count >= 4 else { throw SceneError(file: name, field: "line \(lineNo)", "a face needs at least 3 vertices") }
                var corner: [UInt32] = []
                for token in parts.dropFirst() {
                    let idx = token.split(separator: "/", omittingEmptySubsequences: false)
                    guard idx.count <= 3 else { throw SceneError(file: name, field: "line \(lineNo)", "bad face vertex \"\(token)\"") }
                    let pi = try resolve(idx[0], v.count, lineNo)
                    let ti = idx.count > 1 && !idx[1].isEmpty ? try resolve(idx[1], vt.count, lineNo) : -1
                    let ni = idx.count > 2 && !idx[2].isEmpty ? try resolve(idx[2], vn.count, lineNo) : -1
                    if ni < 0 { hasNormals = false }
                    let key = SIMD3(pi, ti, ni)
                    if let existing = remap[key] { corner.append(existing); continue }
                    guard positions.count < maxElements else { throw SceneError(file: name, field: "line \(lineNo)", "more than \(maxElements) vertices") }
                    positions.append(v[Int(pi)])
                    texcoords.append(ti >= 0 ? vt[Int(ti)] : .zero)
                    normals.append(ni >= 0 ? vn[Int(ni)] : .zero)
                    remap[key] = UInt32(positions.count - 1)
                    corner.append(UInt32(positions.count - 1))
                }
                if elements[current] == nil { order.append(current); elements[current] = [] }
                for i in 1..<(corner.count - 1) { elements[current]! += [corner[0], corner[i], corner[i + 1]] }
                guard elements[current]!.count / 3 < maxElements else { throw SceneError(file: name, field: "line \(lineNo)", "more than \(maxElements) faces") }
            case "usemtl":
                current = parts.dropFirst().joined(separator: " ")
                if usemtlLine[current] == nil { usemtlLine[current] = lineNo }
            case "mtllib":
                let file = parts.dropFirst().joined(separator: " ")
                let mtlURL = try textures.access.resolve(file, relativeTo: baseURL, file: name, field: "line \(lineNo)",
                                                         what: "material library")
                for (k, m) in try parseMTL(contentsOf: mtlURL, textures: textures) { materials[k] = m }
            default: continue
            }
        }
        guard !order.isEmpty else { throw SceneError(file: name, "no faces") }
        if let missing = order.first(where: { !$0.isEmpty && materials[$0] == nil }) {
            throw SceneError(file: name, field: "line \(usemtlLine[missing] ?? 0)", "usemtl \(missing) names a material that no mtllib defines")
        }
        let mats = order.map { materials[$0] ?? Material(name: $0.isEmpty ? nil : $0) }
        let els = order.enumerated().map { MeshElement(indices: elements[$1] ?? [], materialIndex: $0) }
        var mesh: Mesh
        do { mesh = try Mesh(positions: positions, normals: hasNormals ? normals : nil, texcoords: texcoords, elements: els) }
        catch { throw SceneError(file: name, "\(error)") }
        if !vt.isEmpty { mesh.generateTangents() }
        let node = Node(geometry: Geometry(mesh: mesh, materials: mats), name: baseName(name))
        return node
    }

    static func baseName(_ name: String) -> String { ((name as NSString).lastPathComponent as NSString).deletingPathExtension }

    /// Parses an MTL material library.
    static func parseMTL(contentsOf url: URL, textures: TextureCache) throws -> [String: Material] {
        let name = displayName(url)
        guard let text = String(data: try readFile(url, displayName: name), encoding: .utf8) else { throw SceneError(file: name, "not UTF-8 text") }
        var out: [String: Material] = [:]
        var current: String?
        var lineNo = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNo += 1
            let parts = (raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let key = parts.first else { continue }
            if key == "newmtl" {
                let n = parts.dropFirst().joined(separator: " ")
                current = n; out[n] = Material(name: n, lightingModel: .blinn)
                continue
            }
            guard let cur = current else { continue }
            func nums(_ count: Int) throws -> [Float] {
                guard parts.count > count else { throw SceneError(file: name, field: "line \(lineNo)", "\(key) needs \(count) numbers") }
                return try (1...count).map { i in
                    guard let f = Float(parts[i]), f.isFinite else { throw SceneError(file: name, field: "line \(lineNo)", "\"\(parts[i])\" is not a finite number") }
                    return f
                }
            }
            switch key {
            case "Kd": let c = try nums(3); out[cur]?.diffuse = .color(c[0], c[1], c[2])
            case "Ks": let c = try nums(3); out[cur]?.specular = .color(c[0], c[1], c[2])
            case "Ke": let c = try nums(3); out[cur]?.emission = .color(c[0], c[1], c[2])
            case "Ns": out[cur]?.shininess = .scalar(max(try nums(1)[0], 0))
            case "d": out[cur]?.transparency = min(max(try nums(1)[0], 0), 1)
            case "Tr": out[cur]?.transparency = 1 - min(max(try nums(1)[0], 0), 1)
            case "map_Kd":
                // Options such as -s or -o precede the file name; the name is the last token.
                guard let file = parts.last, parts.count > 1 else { throw SceneError(file: name, field: "line \(lineNo)", "map_Kd needs a file") }
                let t = try textures.load(reference: String(file), relativeTo: url.deletingLastPathComponent(), file: name, field: "line \(lineNo)")
                out[cur]?.diffuse = .texture(t)
            default: continue
            }
        }
        return out
    }
}

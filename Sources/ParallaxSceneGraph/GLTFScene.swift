import Foundation
import ParallaxImaging
import ParallaxMath

extension GLTFReader {
    mutating func buildScene(rootName: String) throws -> Node {
        let root = Node(name: rootName)
        let nodeCount = doc.nodes?.count ?? 0
        try validateHierarchy()
        var roots: [Int]
        if let scenes = doc.scenes, !scenes.isEmpty {
            let s = doc.scene ?? 0
            guard scenes.indices.contains(s) else { throw fail("scene", "scene \(s) does not exist") }
            roots = scenes[s].nodes ?? []
        } else {
            // No scene: every node that is nobody's child is a root.
            let children = Set((doc.nodes ?? []).flatMap { $0.children ?? [] })
            roots = (0..<nodeCount).filter { !children.contains($0) }
        }
        var visited = Set<Int>()
        for r in roots { root.addChildNode(try node(r, visited: &visited, depth: 0)) }
        return root
    }

    /// The spec requires the nodes to form disjoint strict trees: every child index valid, at
    /// most one parent per node, no cycles.
    func validateHierarchy() throws {
        let nodes = doc.nodes ?? []
        var parent = [Int?](repeating: nil, count: nodes.count)
        for (i, n) in nodes.enumerated() {
            for (k, c) in (n.children ?? []).enumerated() {
                guard nodes.indices.contains(c) else { throw fail("nodes[\(i)].children[\(k)]", "node \(c) does not exist") }
                guard parent[c] == nil else { throw fail("nodes[\(c)]", "node hierarchy has a cycle or a node with two parents") }
                parent[c] = i
            }
        }
        for start in nodes.indices {
            var p = parent[start], steps = 0
            while let q = p {
                steps += 1
                guard q != start, steps <= nodes.count else { throw fail("nodes[\(start)]", "node hierarchy has a cycle or a node with two parents") }
                p = parent[q]
            }
        }
    }

    mutating func node(_ i: Int, visited: inout Set<Int>, depth: Int) throws -> Node {
        let field = "nodes[\(i)]"
        guard let nodes = doc.nodes, nodes.indices.contains(i) else { throw fail(field, "node \(i) does not exist") }
        guard depth < 256, visited.insert(i).inserted else { throw fail(field, "node hierarchy has a cycle or a node with two parents") }
        let g = nodes[i]
        let n = Node(name: g.name)
        if let m = g.matrix {
            guard m.count == 16, m.allSatisfy(\.isFinite) else { throw fail("\(field).matrix", "expected 16 finite numbers") }
            let transform = Matrix4f(columns: Vector4f(Float(m[0]), Float(m[1]), Float(m[2]), Float(m[3])), Vector4f(Float(m[4]), Float(m[5]), Float(m[6]), Float(m[7])),
                                     Vector4f(Float(m[8]), Float(m[9]), Float(m[10]), Float(m[11])), Vector4f(Float(m[12]), Float(m[13]), Float(m[14]), Float(m[15])))
            guard abs(transform.double.upperLeft3x3.determinant) > 1e-12 else { throw fail("\(field).matrix", "matrix is singular") }
            n.transform = transform
        } else {
            func vec(_ a: [Double]?, _ count: Int, _ key: String) throws -> [Float]? {
                guard let a else { return nil }
                guard a.count == count, a.allSatisfy(\.isFinite) else { throw fail("\(field).\(key)", "expected \(count) finite numbers") }
                return a.map(Float.init)
            }
            if let t = try vec(g.translation, 3, "translation") { n.position = Vector3f(t[0], t[1], t[2]) }
            if let r = try vec(g.rotation, 4, "rotation") {
                guard r.map({ $0 * $0 }).reduce(0, +) > 1e-12 else { throw fail("\(field).rotation", "quaternion must not be zero") }
                n.orientation = Quaternionf(w: r[3], x: r[0], y: r[1], z: r[2]).normalized  // glTF stores x, y, z, w
            }
            if let s = try vec(g.scale, 3, "scale") { n.scale = Vector3f(s[0], s[1], s[2]) }
        }
        if let m = g.mesh { n.geometry = try mesh(m) }
        if let c = g.camera { n.camera = try camera(c) }
        if let l = g.extensions?.KHR_lights_punctual?.light { n.light = try light(l) }
        for c in g.children ?? [] { n.addChildNode(try node(c, visited: &visited, depth: depth + 1)) }
        return n
    }

    mutating func mesh(_ i: Int) throws -> Geometry {
        let field = "meshes[\(i)]"
        guard let meshes = doc.meshes, meshes.indices.contains(i) else { throw fail(field, "mesh \(i) does not exist") }
        var positions: [Vector3f] = [], normals: [Vector3f] = [], uvs: [Vector2f] = [], colors: [Vector4f] = []
        var anyColors = false, allNormals = true
        var elements: [MeshElement] = []
        var materials: [Material] = []
        for (p, prim) in meshes[i].primitives.enumerated() {
            let pf = "\(field).primitives[\(p)]"
            let mode = prim.mode ?? 4
            guard (0...6).contains(mode) else { throw fail("\(pf).mode", "\(mode) is not a primitive mode (0…6)") }
            guard mode == 4 else { continue }   // points, lines, strips and fans are not drawn
            guard let pa = prim.attributes["POSITION"] else { throw fail("\(pf).attributes", "POSITION is required") }
            let (pos, pn) = try floats(pa, field: "\(pf).attributes.POSITION")
            guard pn == 3 else { throw fail("\(pf).attributes.POSITION", "must be VEC3") }
            guard pos.allSatisfy(\.isFinite) else { throw fail("\(pf).attributes.POSITION", "contains NaN or infinity") }
            let count = pos.count / 3
            let base = UInt32(positions.count)
            positions += (0..<count).map { Vector3f(pos[3 * $0], pos[3 * $0 + 1], pos[3 * $0 + 2]) }
            if let na = prim.attributes["NORMAL"] {
                let (v, n) = try floats(na, field: "\(pf).attributes.NORMAL")
                guard n == 3, v.count == pos.count else { throw fail("\(pf).attributes.NORMAL", "must be VEC3 with one entry per position") }
                normals += (0..<count).map { Vector3f(v[3 * $0], v[3 * $0 + 1], v[3 * $0 + 2]).normalized }
            } else { allNormals = false; normals += Array(repeating: .zero, count: count) }
            if let ta = prim.attributes["TEXCOORD_0"] {
                let (v, n) = try floats(ta, field: "\(pf).attributes.TEXCOORD_0")
                guard n == 2, v.count == count * 2 else { throw fail("\(pf).attributes.TEXCOORD_0", "must be VEC2 with one entry per position") }
                uvs += (0..<count).map { Vector2f(v[2 * $0], v[2 * $0 + 1]) }
            } else { uvs += Array(repeating: .zero, count: count) }
            if let ca = prim.attributes["COLOR_0"] {
                let (v, n) = try floats(ca, field: "\(pf).attributes.COLOR_0")
                guard n == 3 || n == 4, v.count == count * n else { throw fail("\(pf).attributes.COLOR_0", "must be VEC3 or VEC4 with one entry per position") }
                colors += (0..<count).map { Vector4f(v[n * $0], v[n * $0 + 1], v[n * $0 + 2], n == 4 ? v[n * $0 + 3] : 1) }
                anyColors = true
            } else { colors += Array(repeating: Vector4f(1, 1, 1, 1), count: count) }
            var idx: [UInt32]
            if let ia = prim.indices { idx = try indices(ia, vertexCount: count, field: "\(pf).indices") } else { idx = (0..<UInt32(count)).map { $0 } }
            idx = Array(idx.prefix(idx.count / 3 * 3)).map { $0 + base }
            elements.append(MeshElement(indices: idx, materialIndex: materials.count))
            materials.append(try prim.material.map { try material($0) } ?? Material(name: nil, lightingModel: .physicallyBased, diffuse: .color(1, 1, 1)))
        }
        var m: Mesh
        do { m = try Mesh(positions: positions, normals: nil, texcoords: uvs, colors: anyColors ? colors : nil, elements: elements) }
        catch { throw fail(field, "\(error)") }
        if allNormals { m.normals = normals }
        if !positions.isEmpty { m.generateTangents() }
        var g = Geometry(kind: .custom, mesh: m, materials: materials)
        g.name = meshes[i].name
        return g
    }

    mutating func material(_ i: Int) throws -> Material {
        if let m = materialCache[i] { return m }
        let field = "materials[\(i)]"
        guard let list = doc.materials, list.indices.contains(i) else { throw fail(field, "material \(i) does not exist") }
        let g = list[i]
        var m = Material(name: g.name, lightingModel: .physicallyBased, diffuse: .color(1, 1, 1))
        let pbr = g.pbrMetallicRoughness
        func color(_ a: [Double]?, _ n: Int, _ key: String, default d: [Float]) throws -> [Float] {
            guard let a else { return d }
            guard a.count == n, a.allSatisfy(\.isFinite) else { throw fail("\(field).\(key)", "expected \(n) finite numbers") }
            return a.map(Float.init)
        }
        let base = try color(pbr?.baseColorFactor, 4, "pbrMetallicRoughness.baseColorFactor", default: [1, 1, 1, 1])
        m.diffuse = .color(base[0], base[1], base[2], base[3])
        if let t = pbr?.baseColorTexture {
            // glTF multiplies texture and factor; a property holds one or the other, so the
            // factor's mean RGB becomes the intensity (exact for grey factors, the common case).
            m.diffuse = .texture(try texture(t.index, srgb: true, field: "\(field).pbrMetallicRoughness.baseColorTexture"))
            m.diffuse.intensity = (base[0] + base[1] + base[2]) / 3
        }
        m.metalness = .scalar(Float(pbr?.metallicFactor ?? 1))
        m.roughness = .scalar(Float(pbr?.roughnessFactor ?? 1))
        if let t = pbr?.metallicRoughnessTexture {
            // glTF packs roughness in G and metalness in B of one texture; the renderer samples those channels.
            let tex = try texture(t.index, srgb: false, field: "\(field).pbrMetallicRoughness.metallicRoughnessTexture")
            m.metalness = .texture(tex); m.metalness.intensity = Float(pbr?.metallicFactor ?? 1); m.metalness.textureChannel = 2
            m.roughness = .texture(tex); m.roughness.intensity = Float(pbr?.roughnessFactor ?? 1); m.roughness.textureChannel = 1
        }
        if let t = g.normalTexture {
            m.normal = .texture(try texture(t.index, srgb: false, field: "\(field).normalTexture")); m.normal?.intensity = Float(t.scale ?? 1)
        }
        if let t = g.occlusionTexture {
            m.ambientOcclusion = .texture(try texture(t.index, srgb: false, field: "\(field).occlusionTexture")); m.ambientOcclusion.intensity = Float(t.strength ?? 1)
        }
        let e = try color(g.emissiveFactor, 3, "emissiveFactor", default: [0, 0, 0])
        m.emission = .color(e[0], e[1], e[2])
        if let t = g.emissiveTexture { m.emission = .texture(try texture(t.index, srgb: true, field: "\(field).emissiveTexture")) }
        switch g.alphaMode ?? "OPAQUE" {
        case "OPAQUE": if case .color(var c) = m.diffuse.contents { c.w = 1; m.diffuse.contents = .color(c) }
        case "BLEND", "MASK": m.blendMode = .alpha
        default: throw fail("\(field).alphaMode", "expected OPAQUE, MASK or BLEND")
        }
        m.isDoubleSided = g.doubleSided ?? false
        materialCache[i] = m
        return m
    }

    mutating func texture(_ i: Int, srgb: Bool, field: String) throws -> Texture {
        guard let list = doc.textures, list.indices.contains(i) else { throw fail(field, "texture \(i) does not exist") }
        if let s = list[i].sampler, !(doc.samplers?.indices.contains(s) ?? false) {
            throw fail("textures[\(i)].sampler", "sampler \(s) does not exist")
        }
        var tex: Texture
        if let cached = textureCache[i] { tex = cached } else {
            guard let src = list[i].source, let images = doc.images, images.indices.contains(src) else { throw fail("textures[\(i)].source", "missing or invalid image") }
            let img = images[src]
            let imgField = "images[\(src)]"
            let bytes: [UInt8]
            if let uri = img.uri {
                if !uri.hasPrefix("data:") {
                    tex = try fileTextures.load(reference: uri.removingPercentEncoding ?? uri, relativeTo: baseURL,
                                                file: name, field: "\(imgField).uri")
                    textureCache[i] = tex
                    return configured(tex, sampler: list[i].sampler, srgb: srgb)
                }
                bytes = try loadURI(uri, field: "\(imgField).uri")
            } else if let bv = img.bufferView {
                let v = try view(bv, field: "\(imgField).bufferView")
                bytes = Array(v.bytes[v.offset..<(v.offset + v.length)])
            } else { throw fail(imgField, "needs a uri or a bufferView") }
            guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw fail(imgField, "only PNG images are supported") }
            let decoded: Image<RGBA8>
            do { decoded = try PNG.decode(bytes, name: "\(name) \(imgField)").toRGBA8() } catch { throw fail(imgField, "cannot decode PNG: \(error)") }
            guard decoded.width <= SceneLimits.maxTextureSize, decoded.height <= SceneLimits.maxTextureSize else { throw fail(imgField, "image too large") }
            tex = Texture(image: decoded, identity: "gltf:\(name)#image\(src)")
            textureCache[i] = tex
        }
        return configured(tex, sampler: list[i].sampler, srgb: srgb)
    }

    func configured(_ t: Texture, sampler: Int?, srgb: Bool) -> Texture {
        var t = t
        t.isSRGB = srgb
        guard let s = sampler, let samplers = doc.samplers, samplers.indices.contains(s) else { return t }
        let sm = samplers[s]
        func wrap(_ w: Int?) -> Texture.WrapMode { w == 33071 ? .clamp : (w == 33648 ? .mirror : .repeat) }
        t.wrapS = wrap(sm.wrapS); t.wrapT = wrap(sm.wrapT)
        t.filter = sm.magFilter == 9728 ? .nearest : .linear
        t.mipmapped = sm.minFilter.map { $0 >= 9984 } ?? true
        return t
    }

    func camera(_ i: Int) throws -> Camera {
        let field = "cameras[\(i)]"
        guard let list = doc.cameras, list.indices.contains(i) else { throw fail(field, "camera \(i) does not exist") }
        let g = list[i]
        var c = Camera()
        if g.type == "perspective", let p = g.perspective {
            guard p.yfov > 0, p.yfov < .pi, p.znear > 0 else { throw fail("\(field).perspective", "needs 0 < yfov < π and znear > 0") }
            c.fieldOfView = Float(p.yfov * 180 / .pi); c.zNear = Float(p.znear); c.zFar = Float(p.zfar ?? 1000)
        } else if g.type == "orthographic", let o = g.orthographic {
            c.usesOrthographicProjection = true; c.orthographicScale = Float(o.ymag); c.zNear = Float(o.znear); c.zFar = Float(o.zfar)
        } else { throw fail("\(field).type", "expected perspective or orthographic with its parameters") }
        guard c.zFar > c.zNear else { throw fail(field, "zfar must exceed znear") }
        return c
    }

    func light(_ i: Int) throws -> Light {
        let field = "extensions.KHR_lights_punctual.lights[\(i)]"
        guard let list = doc.extensions?.KHR_lights_punctual?.lights, list.indices.contains(i) else { throw fail(field, "light \(i) does not exist") }
        let g = list[i]
        let type: Light.LightType
        switch g.type { case "directional": type = .directional; case "point": type = .omni; case "spot": type = .spot
        default: throw fail("\(field).type", "expected directional, point or spot") }
        var l = Light(type: type, intensity: Float(g.intensity ?? 1) * GLTFLoader.lumensPerGLTFUnit)
        if let c = g.color, c.count == 3 { l.color = Vector3f(Float(c[0]), Float(c[1]), Float(c[2])) }
        if let r = g.range, r > 0 { l.attenuationEndDistance = Float(r) }
        if let s = g.spot {
            // glTF cone angles are half-angles in radians; ours are whole angles in degrees.
            l.spotInnerAngle = Float((s.innerConeAngle ?? 0) * 2 * 180 / .pi)
            l.spotOuterAngle = Float((s.outerConeAngle ?? .pi / 4) * 2 * 180 / .pi)
        }
        l.castsShadow = type != .omni
        return l
    }
}

import COpenGL
import ParallaxImaging
import ParallaxMath
import ParallaxSceneGraph

/// One mesh uploaded to the GPU: an interleaved vertex buffer, one index buffer and a VAO.
///
/// Layout per vertex (floats): position 3, normal 3, texcoord 2, colour 4 (if any), tangent 4 (if any), bound to
/// the fixed attribute slots 0…4 that ``ShaderProgram`` assigns. Missing attributes use constant values
/// (white colour, zero tangent) set with `glVertexAttrib4f`.
final class MeshBuffers {
    /// A contiguous index range drawn with one material.
    struct Range {
        let offset: Int
        let count: Int
        let elementIndex: Int
    }
    private(set) var vao: GLuint = 0
    private var vbo: GLuint = 0
    private var ebo: GLuint = 0
    let ranges: [Range]
    let hasColors: Bool
    let hasTangents: Bool
    let triangleCount: Int
    var lastUsedFrame = 0

    init(mesh: Mesh) throws {
        let hasColors = mesh.colors?.count == mesh.positions.count
        let hasTangents = mesh.tangents?.count == mesh.positions.count
        self.hasColors = hasColors
        self.hasTangents = hasTangents
        let stride = 8 + (hasColors ? 4 : 0) + (hasTangents ? 4 : 0)
        let n = mesh.positions.count
        let hasNormals = mesh.normals.count == n
        let hasUV = mesh.texcoords.count == n
        var data = [Float](repeating: 0, count: n * stride)
        data.withUnsafeMutableBufferPointer { d in
            for i in 0..<n {
                var o = i * stride
                let p = mesh.positions[i]
                d[o] = p.x; d[o + 1] = p.y; d[o + 2] = p.z
                if hasNormals { let v = mesh.normals[i]; d[o + 3] = v.x; d[o + 4] = v.y; d[o + 5] = v.z } else { d[o + 4] = 1 }
                if hasUV { let t = mesh.texcoords[i]; d[o + 6] = t.x; d[o + 7] = t.y }
                o += 8
                if hasColors, let c = mesh.colors?[i] { d[o] = c.x; d[o + 1] = c.y; d[o + 2] = c.z; d[o + 3] = c.w; o += 4 }
                if hasTangents, let t = mesh.tangents?[i] { d[o] = t.x; d[o + 1] = t.y; d[o + 2] = t.z; d[o + 3] = t.w }
            }
        }
        var indices: [UInt32] = []
        var ranges: [Range] = []
        for (e, element) in mesh.elements.enumerated() {
            let valid = element.indices.count / 3 * 3
            ranges.append(Range(offset: indices.count, count: valid, elementIndex: e))
            indices.append(contentsOf: element.indices.prefix(valid))
        }
        self.ranges = ranges
        triangleCount = indices.count / 3
        if let bad = indices.first(where: { Int($0) >= n }) {
            throw RenderError.invalidConfiguration("mesh index \(bad) out of range (\(n) vertices)")
        }

        glGenVertexArrays(1, &vao)
        glBindVertexArray(vao)
        glGenBuffers(1, &vbo)
        glBindBuffer(GLenum(gl: GL_ARRAY_BUFFER), vbo)
        data.withUnsafeBytes {
            glBufferData(GLenum(gl: GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(gl: GL_STATIC_DRAW))
        }
        glGenBuffers(1, &ebo)
        glBindBuffer(GLenum(gl: GL_ELEMENT_ARRAY_BUFFER), ebo)
        indices.withUnsafeBytes {
            glBufferData(GLenum(gl: GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(gl: GL_STATIC_DRAW))
        }
        let bytes = GLsizei(stride * 4)
        func attribute(_ slot: GLuint, _ size: GLint, _ offset: Int) {
            glEnableVertexAttribArray(slot)
            glVertexAttribPointer(slot, size, GLenum(gl: GL_FLOAT), GLboolean(GL_FALSE), bytes, UnsafeRawPointer(bitPattern: offset))
        }
        attribute(0, 3, 0)
        attribute(1, 3, 12)
        attribute(2, 2, 24)
        var offset = 32
        if hasColors { attribute(3, 4, offset); offset += 16 }
        if hasTangents { attribute(4, 4, offset) }
        glBindVertexArray(0)
        try GLInfo.check("uploading a mesh of \(n) vertices")
    }

    deinit {
        glDeleteVertexArrays(1, &vao)
        glDeleteBuffers(1, &vbo)
        glDeleteBuffers(1, &ebo)
    }

    /// Binds the VAO and sets the constant values of absent attributes.
    func bind() {
        glBindVertexArray(vao)
        if !hasColors { glVertexAttrib4f(3, 1, 1, 1, 1) }
        if !hasTangents { glVertexAttrib4f(4, 0, 0, 0, 1) }
    }

    /// Draws index range `range`.
    func draw(_ range: Range) {
        glDrawElements(
            GLenum(gl: GL_TRIANGLES), GLsizei(range.count), GLenum(gl: GL_UNSIGNED_INT),
            UnsafeRawPointer(bitPattern: range.offset * 4))
    }
}

/// A 2D texture uploaded from an `RGBAImage`.
final class GPUTexture {
    private(set) var id: GLuint = 0
    var lastUsedFrame = 0

    /// Uploads `image`; `srgb` selects `GL_SRGB8_ALPHA8` so sampling returns linear colour.
    init(image: RGBAImage, srgb: Bool, wrapS: Texture.WrapMode = .repeat, wrapT: Texture.WrapMode = .repeat,
         filter: Texture.FilterMode = .linear, mipmapped: Bool = true) throws {
        guard image.width > 0, image.height > 0 else { throw RenderError.invalidConfiguration("empty texture image") }
        glGenTextures(1, &id)
        let target = GLenum(gl: GL_TEXTURE_2D)
        // Upload on a scratch unit so that textures already bound for the current draw stay bound.
        glActiveTexture(GLenum(gl: GL_TEXTURE0) + 15)
        glBindTexture(target, id)
        glPixelStorei(GLenum(gl: GL_UNPACK_ALIGNMENT), 1)
        image.pixels.withUnsafeBytes {
            glTexImage2D(
                target, 0, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0,
                GLenum(gl: GL_RGBA), GLenum(gl: GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        func wrap(_ mode: Texture.WrapMode) -> GLint {
            switch mode {
            case .repeat: return GL_REPEAT
            case .clamp: return GL_CLAMP_TO_EDGE
            case .mirror: return GL_MIRRORED_REPEAT
            }
        }
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_WRAP_S), wrap(wrapS))
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_WRAP_T), wrap(wrapT))
        let linear = filter == .linear
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_MAG_FILTER), linear ? GL_LINEAR : GL_NEAREST)
        if mipmapped {
            glGenerateMipmap(target)
            glTexParameteri(target, GLenum(gl: GL_TEXTURE_MIN_FILTER), linear ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST)
        } else {
            glTexParameteri(target, GLenum(gl: GL_TEXTURE_MIN_FILTER), linear ? GL_LINEAR : GL_NEAREST)
        }
        try GLInfo.check("uploading a \(image.width)x\(image.height) texture")
    }

    deinit { glDeleteTextures(1, &id) }
}

/// GPU copies of meshes and textures, keyed by identity so that a scene drawn many times uploads once.
/// Entries unused for ``evictAfterFrames`` frames are released.
final class ResourceCache {
    private var meshes: [MeshKey: MeshBuffers] = [:]
    private var textures: [String: GPUTexture] = [:]
    private(set) var frame = 0
    /// Frames an unused resource survives.
    let evictAfterFrames = 120

    /// Number of cached meshes and textures (for tests and statistics).
    var counts: (meshes: Int, textures: Int) { (meshes.count, textures.count) }

    func beginFrame() { frame += 1 }

    func mesh(for geometry: Geometry) throws -> MeshBuffers {
        let key = MeshKey(geometry.mesh)
        if let hit = meshes[key] {
            hit.lastUsedFrame = frame
            return hit
        }
        let buffers = try MeshBuffers(mesh: geometry.mesh)
        buffers.lastUsedFrame = frame
        meshes[key] = buffers
        return buffers
    }

    func texture(for texture: Texture, srgb: Bool) throws -> GPUTexture {
        let key = "\(texture.identity)|\(srgb ? "srgb" : "linear")|\(texture.wrapS)|\(texture.wrapT)|\(texture.filter)|\(texture.mipmapped)"
        if let hit = textures[key] {
            hit.lastUsedFrame = frame
            return hit
        }
        let gpu = try GPUTexture(
            image: texture.image, srgb: srgb, wrapS: texture.wrapS, wrapT: texture.wrapT, filter: texture.filter,
            mipmapped: texture.mipmapped)
        gpu.lastUsedFrame = frame
        textures[key] = gpu
        return gpu
    }

    /// Releases resources not used recently.
    func evict() {
        meshes = meshes.filter { frame - $0.value.lastUsedFrame <= evictAfterFrames }
        textures = textures.filter { frame - $0.value.lastUsedFrame <= evictAfterFrames }
    }
}

/// The identity of a mesh for caching: its sizes plus a hash of up to 64 evenly spaced vertices and indices.
///
/// Hashing every vertex each frame would cost milliseconds for large meshes; the sampled hash catches
/// replaced or regenerated geometry, and equal keys are confirmed by comparing the sampled values.
struct MeshKey: Hashable {
    let vertexCount: Int
    let indexCount: Int
    let elementCount: Int
    let samples: [Float]
    let indexSamples: [UInt32]

    init(_ mesh: Mesh) {
        vertexCount = mesh.positions.count
        elementCount = mesh.elements.count
        indexCount = mesh.elements.reduce(0) { $0 + $1.indices.count }
        let step = max(1, vertexCount / 64)
        var s: [Float] = []
        var i = 0
        while i < vertexCount {
            let p = mesh.positions[i]
            s += [p.x, p.y, p.z]
            if i < mesh.normals.count { let n = mesh.normals[i]; s += [n.x, n.y, n.z] }
            if i < mesh.texcoords.count { s += [mesh.texcoords[i].x, mesh.texcoords[i].y] }
            if let c = mesh.colors, i < c.count { s += [c[i].x, c[i].y, c[i].z, c[i].w] }
            i += step
        }
        samples = s
        var idx: [UInt32] = []
        for element in mesh.elements {
            let n = element.indices.count
            let istep = max(1, n / 16)
            var j = 0
            while j < n { idx.append(element.indices[j]); j += istep }
            idx.append(UInt32(truncatingIfNeeded: element.materialIndex))
        }
        indexSamples = idx
    }
}

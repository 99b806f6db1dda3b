import COpenGL
import Foundation
import ParallaxMath

/// A linked GLSL program built from two files of the shader library, with cached uniform locations.
final class ShaderProgram {
    /// The GL program object.
    let id: GLuint
    /// "vertex.vert + fragment.frag", for messages.
    let name: String
    private var locations: [String: GLint] = [:]
    /// The frame whose per-frame uniforms (camera, lights, fog) were last set on this program.
    var frameStamp = -1

    /// Compiles and links `vertex` and `fragment`; optional `defines` are inserted after `#version`.
    /// - Throws: ``RenderError/shader(_:)`` with the driver's log mapped to file:line.
    init(vertex: String, fragment: String, defines: [String] = []) throws {
        name = "\(vertex) + \(fragment)"
        let vs = try Self.compile(vertex, type: GLenum(gl: GL_VERTEX_SHADER), defines: defines)
        defer { glDeleteShader(vs) }
        let fs = try Self.compile(fragment, type: GLenum(gl: GL_FRAGMENT_SHADER), defines: defines)
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        // Fixed attribute slots shared by every mesh VAO (see MeshBuffers).
        for (index, attribute) in ["aPosition", "aNormal", "aTexcoord", "aColor", "aTangent"].enumerated() {
            glBindAttribLocation(program, GLuint(index), attribute)
        }
        glLinkProgram(program)
        var ok: GLint = 0
        glGetProgramiv(program, GLenum(gl: GL_LINK_STATUS), &ok)
        guard ok != 0 else {
            let log = Self.infoLog(program, isProgram: true)
            glDeleteProgram(program)
            throw RenderError.shader("linking \(vertex) + \(fragment) failed:\n\(log)")
        }
        id = program
    }

    deinit { glDeleteProgram(id) }

    private static func compile(_ file: String, type: GLenum, defines: [String]) throws -> GLuint {
        var pre = try PreprocessedShader(named: file)
        if !defines.isEmpty { pre = pre.inserting(defines: defines) }
        let shader = glCreateShader(type)
        pre.source.withCString { pointer in
            var p: UnsafePointer<GLchar>? = pointer
            glShaderSource(shader, 1, &p, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, GLenum(gl: GL_COMPILE_STATUS), &ok)
        guard ok != 0 else {
            let log = pre.annotate(log: infoLog(shader, isProgram: false))
            glDeleteShader(shader)
            throw RenderError.shader("compiling \(file) failed:\n\(log)")
        }
        return shader
    }

    private static func infoLog(_ object: GLuint, isProgram: Bool) -> String {
        var length: GLint = 0
        if isProgram { glGetProgramiv(object, GLenum(gl: GL_INFO_LOG_LENGTH), &length) } else {
            glGetShaderiv(object, GLenum(gl: GL_INFO_LOG_LENGTH), &length)
        }
        guard length > 1 else { return "(no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        if isProgram { glGetProgramInfoLog(object, length, nil, &buffer) } else {
            glGetShaderInfoLog(object, length, nil, &buffer)
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Uniforms

    /// The location of `uniform` (-1 when the driver optimised it away, which GL ignores on set).
    func location(_ uniform: String) -> GLint {
        if let cached = locations[uniform] { return cached }
        let location = glGetUniformLocation(id, uniform)
        locations[uniform] = location
        return location
    }

    func set(_ uniform: String, _ value: Float) { glUniform1f(location(uniform), value) }
    func set(_ uniform: String, _ value: Int32) { glUniform1i(location(uniform), value) }
    func set(_ uniform: String, _ value: Bool) { glUniform1i(location(uniform), value ? 1 : 0) }
    func set(_ uniform: String, _ v: Vector2f) { glUniform2f(location(uniform), v.x, v.y) }
    func set(_ uniform: String, _ v: Vector3f) { glUniform3f(location(uniform), v.x, v.y, v.z) }
    func set(_ uniform: String, _ v: Vector4f) { glUniform4f(location(uniform), v.x, v.y, v.z, v.w) }
    func set(_ uniform: String, _ m: Matrix4f) {
        let values = m.columnMajor
        values.withUnsafeBufferPointer { glUniformMatrix4fv(location(uniform), 1, GLboolean(GL_FALSE), $0.baseAddress) }
    }
    /// Sets the upper-left 3×3 of `m` (normal matrices).
    func set3x3(_ uniform: String, _ m: Matrix4f) {
        let c = [m.columns.0, m.columns.1, m.columns.2].flatMap { [$0.x, $0.y, $0.z] }
        c.withUnsafeBufferPointer { glUniformMatrix3fv(location(uniform), 1, GLboolean(GL_FALSE), $0.baseAddress) }
    }
}

extension PreprocessedShader {
    /// Inserts `#define` lines right after the `#version` line (keeping the line map right).
    func inserting(defines: [String]) -> PreprocessedShader {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var origins = self.origins
        let at = (lines.firstIndex { $0.hasPrefix("#version") } ?? -1) + 1
        lines.insert(contentsOf: defines.map { "#define \($0)" }, at: at)
        origins.insert(contentsOf: defines.map { _ in ("(defines)", 0) }, at: at)
        return PreprocessedShader(source: lines.joined(separator: "\n"), origins: origins)
    }
}

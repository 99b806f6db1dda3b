import COpenGL

/// The framebuffers of one output size: a multisampled linear (RGBA16F) target that the scene is drawn into,
/// a single-sample texture it is resolved into with `glBlitFramebuffer`, and an 8-bit sRGB-encoded target that
/// the present pass writes and `glReadPixels` reads.
///
/// Lighting and blending happen in linear light in 16-bit float; only the final pass encodes sRGB, so MSAA
/// resolve and alpha blending average linear values (as they should) and the readback bytes are unambiguous.
final class RenderTargets {
    let width: Int
    let height: Int
    let samples: Int
    /// The sample count asked for (before clamping).
    let requestedSamples: Int
    private(set) var sceneFBO: GLuint = 0
    private var sceneColor: GLuint = 0
    private var sceneDepth: GLuint = 0
    private(set) var resolveFBO: GLuint = 0
    private(set) var resolveTexture: GLuint = 0
    private(set) var outputFBO: GLuint = 0
    private var outputColor: GLuint = 0
    /// A single-sample depth target the scene's depth is copied into for ``readDepth()`` (made on first use).
    private var depthReadFBO: GLuint = 0
    private var depthReadBuffer: GLuint = 0

    /// Creates the targets; `samples` is clamped to the driver's `GL_MAX_SAMPLES` (1 = no MSAA).
    init(width: Int, height: Int, samples requested: Int) throws {
        self.width = width
        self.height = height
        requestedSamples = requested
        var maxSamples: GLint = 1
        glGetIntegerv(GLenum(gl: GL_MAX_SAMPLES), &maxSamples)
        samples = max(1, min(requested, Int(maxSamples)))
        let w = GLsizei(width)
        let h = GLsizei(height)
        let msaa = GLsizei(samples > 1 ? samples : 0)

        glGenFramebuffers(1, &sceneFBO)
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), sceneFBO)
        glGenRenderbuffers(1, &sceneColor)
        glBindRenderbuffer(GLenum(gl: GL_RENDERBUFFER), sceneColor)
        glRenderbufferStorageMultisample(GLenum(gl: GL_RENDERBUFFER), msaa, GLenum(gl: GL_RGBA16F), w, h)
        glFramebufferRenderbuffer(GLenum(gl: GL_FRAMEBUFFER), GLenum(gl: GL_COLOR_ATTACHMENT0), GLenum(gl: GL_RENDERBUFFER), sceneColor)
        glGenRenderbuffers(1, &sceneDepth)
        glBindRenderbuffer(GLenum(gl: GL_RENDERBUFFER), sceneDepth)
        glRenderbufferStorageMultisample(GLenum(gl: GL_RENDERBUFFER), msaa, GLenum(gl: GL_DEPTH_COMPONENT24), w, h)
        glFramebufferRenderbuffer(GLenum(gl: GL_FRAMEBUFFER), GLenum(gl: GL_DEPTH_ATTACHMENT), GLenum(gl: GL_RENDERBUFFER), sceneDepth)
        try Self.checkComplete("scene (\(width)x\(height), \(samples) samples)")

        glGenFramebuffers(1, &resolveFBO)
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), resolveFBO)
        glGenTextures(1, &resolveTexture)
        glBindTexture(GLenum(gl: GL_TEXTURE_2D), resolveTexture)
        glTexImage2D(GLenum(gl: GL_TEXTURE_2D), 0, GL_RGBA16F, w, h, 0, GLenum(gl: GL_RGBA), GLenum(gl: GL_HALF_FLOAT), nil)
        glTexParameteri(GLenum(gl: GL_TEXTURE_2D), GLenum(gl: GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(gl: GL_TEXTURE_2D), GLenum(gl: GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glFramebufferTexture2D(GLenum(gl: GL_FRAMEBUFFER), GLenum(gl: GL_COLOR_ATTACHMENT0), GLenum(gl: GL_TEXTURE_2D), resolveTexture, 0)
        try Self.checkComplete("resolve")

        glGenFramebuffers(1, &outputFBO)
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), outputFBO)
        glGenRenderbuffers(1, &outputColor)
        glBindRenderbuffer(GLenum(gl: GL_RENDERBUFFER), outputColor)
        glRenderbufferStorage(GLenum(gl: GL_RENDERBUFFER), GLenum(gl: GL_RGBA8), w, h)
        glFramebufferRenderbuffer(GLenum(gl: GL_FRAMEBUFFER), GLenum(gl: GL_COLOR_ATTACHMENT0), GLenum(gl: GL_RENDERBUFFER), outputColor)
        try Self.checkComplete("output")
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), 0)
        try GLInfo.check("creating \(width)x\(height) render targets")
    }

    deinit {
        glDeleteFramebuffers(1, &sceneFBO)
        glDeleteFramebuffers(1, &resolveFBO)
        glDeleteFramebuffers(1, &outputFBO)
        glDeleteRenderbuffers(1, &sceneColor)
        glDeleteRenderbuffers(1, &sceneDepth)
        glDeleteRenderbuffers(1, &outputColor)
        glDeleteTextures(1, &resolveTexture)
        if depthReadFBO != 0 {
            glDeleteFramebuffers(1, &depthReadFBO)
            glDeleteRenderbuffers(1, &depthReadBuffer)
        }
    }

    /// Resolves the multisampled scene into `resolveTexture` (averaging samples in linear light).
    func resolve() {
        glBindFramebuffer(GLenum(gl: GL_READ_FRAMEBUFFER), sceneFBO)
        glBindFramebuffer(GLenum(gl: GL_DRAW_FRAMEBUFFER), resolveFBO)
        let w = GLint(width)
        let h = GLint(height)
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(gl: GL_NEAREST))
    }

    /// Reads the 8-bit output, flipping rows so that row 0 is the top of the image.
    func readOutput() -> [UInt8] {
        glBindFramebuffer(GLenum(gl: GL_READ_FRAMEBUFFER), outputFBO)
        glPixelStorei(GLenum(gl: GL_PACK_ALIGNMENT), 1)
        let rowBytes = width * 4
        var raw = [UInt8](repeating: 0, count: rowBytes * height)
        raw.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(gl: GL_RGBA), GLenum(gl: GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        var flipped = [UInt8](repeating: 0, count: raw.count)
        raw.withUnsafeBytes { src in
            flipped.withUnsafeMutableBytes { dst in
                for y in 0..<height {
                    let from = src.baseAddress! + (height - 1 - y) * rowBytes
                    (dst.baseAddress! + y * rowBytes).copyMemory(from: from, byteCount: rowBytes)
                }
            }
        }
        return flipped
    }

    /// Reads the scene's window-space depth (0 at the near plane, 1 at the far plane and where nothing was
    /// drawn), row 0 at the top. A multisampled depth buffer is copied to a single-sample one first; the blit
    /// picks one sample's depth per pixel rather than averaging, so edges keep a depth some surface has.
    func readDepth() throws -> [Float] {
        if depthReadFBO == 0 {
            glGenFramebuffers(1, &depthReadFBO)
            glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), depthReadFBO)
            glGenRenderbuffers(1, &depthReadBuffer)
            glBindRenderbuffer(GLenum(gl: GL_RENDERBUFFER), depthReadBuffer)
            // The same format as the scene's depth: a depth blit requires matching formats.
            glRenderbufferStorage(GLenum(gl: GL_RENDERBUFFER), GLenum(gl: GL_DEPTH_COMPONENT24), GLsizei(width), GLsizei(height))
            glFramebufferRenderbuffer(GLenum(gl: GL_FRAMEBUFFER), GLenum(gl: GL_DEPTH_ATTACHMENT), GLenum(gl: GL_RENDERBUFFER), depthReadBuffer)
            glDrawBuffer(GLenum(gl: GL_NONE))
            glReadBuffer(GLenum(gl: GL_NONE))
            try Self.checkComplete("depth readback (\(width)x\(height))")
        }
        glBindFramebuffer(GLenum(gl: GL_READ_FRAMEBUFFER), sceneFBO)
        glBindFramebuffer(GLenum(gl: GL_DRAW_FRAMEBUFFER), depthReadFBO)
        let w = GLint(width), h = GLint(height)
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GLbitfield(GL_DEPTH_BUFFER_BIT), GLenum(gl: GL_NEAREST))
        glBindFramebuffer(GLenum(gl: GL_READ_FRAMEBUFFER), depthReadFBO)
        glPixelStorei(GLenum(gl: GL_PACK_ALIGNMENT), 4)
        var raw = [Float](repeating: 1, count: width * height)
        raw.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(gl: GL_DEPTH_COMPONENT), GLenum(gl: GL_FLOAT), $0.baseAddress)
        }
        try GLInfo.check("reading the depth buffer")
        var flipped = [Float](repeating: 1, count: raw.count)
        for y in 0..<height {
            let from = (height - 1 - y) * width
            flipped[(y * width)..<((y + 1) * width)] = raw[from..<(from + width)]
        }
        return flipped
    }

    static func checkComplete(_ what: String) throws {
        let status = glCheckFramebufferStatus(GLenum(gl: GL_FRAMEBUFFER))
        guard status == GLenum(gl: GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderError.gl(String(format: "framebuffer '%@' incomplete (status 0x%04X)", what, status))
        }
    }
}

/// A depth-only 2D texture array holding one shadow map per shadow-casting light, sampled with hardware
/// depth comparison (`sampler2DArrayShadow`, bilinear PCF per tap).
final class ShadowMaps {
    let size: Int
    let layers: Int
    private(set) var texture: GLuint = 0
    private(set) var fbo: GLuint = 0

    init(size: Int, layers: Int) throws {
        self.size = size
        self.layers = layers
        glGenTextures(1, &texture)
        glBindTexture(GLenum(gl: GL_TEXTURE_2D_ARRAY), texture)
        glTexImage3D(
            GLenum(gl: GL_TEXTURE_2D_ARRAY), 0, GL_DEPTH_COMPONENT24, GLsizei(size), GLsizei(size), GLsizei(layers), 0,
            GLenum(gl: GL_DEPTH_COMPONENT), GLenum(gl: GL_FLOAT), nil)
        let target = GLenum(gl: GL_TEXTURE_2D_ARRAY)
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_COMPARE_MODE), GL_COMPARE_REF_TO_TEXTURE)
        glTexParameteri(target, GLenum(gl: GL_TEXTURE_COMPARE_FUNC), GL_LEQUAL)
        glGenFramebuffers(1, &fbo)
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), fbo)
        glDrawBuffer(GLenum(gl: GL_NONE))
        glReadBuffer(GLenum(gl: GL_NONE))
        glFramebufferTextureLayer(GLenum(gl: GL_FRAMEBUFFER), GLenum(gl: GL_DEPTH_ATTACHMENT), texture, 0, 0)
        try RenderTargets.checkComplete("shadow maps (\(size)² × \(layers))")
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), 0)
    }

    deinit {
        glDeleteFramebuffers(1, &fbo)
        glDeleteTextures(1, &texture)
    }

    /// Binds layer `layer` as the depth target and clears it.
    func begin(layer: Int) {
        glBindFramebuffer(GLenum(gl: GL_FRAMEBUFFER), fbo)
        glFramebufferTextureLayer(GLenum(gl: GL_FRAMEBUFFER), GLenum(gl: GL_DEPTH_ATTACHMENT), texture, 0, GLint(layer))
        glViewport(0, 0, GLsizei(size), GLsizei(size))
        glClear(GLbitfield(GL_DEPTH_BUFFER_BIT))
    }
}

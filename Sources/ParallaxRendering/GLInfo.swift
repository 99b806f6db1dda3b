import COpenGL

/// Small helpers around raw OpenGL calls (the only place they are spelled out is this module).
enum GLInfo {
    /// `GL_RENDERER` and `GL_VERSION` of the current context.
    static func rendererString() -> String {
        func string(_ name: Int32) -> String {
            guard let p = glGetString(GLenum(name)) else { return "?" }
            return String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
        }
        return "\(string(GL_RENDERER)) (OpenGL \(string(GL_VERSION)))"
    }

    /// Throws when `glGetError` reports an error, naming `what` was being done.
    static func check(_ what: @autoclosure () -> String) throws {
        let code = glGetError()
        guard code != GLenum(GL_NO_ERROR) else { return }
        while glGetError() != GLenum(GL_NO_ERROR) {}
        let names: [Int32: String] = [
            GL_INVALID_ENUM: "GL_INVALID_ENUM", GL_INVALID_VALUE: "GL_INVALID_VALUE",
            GL_INVALID_OPERATION: "GL_INVALID_OPERATION", GL_OUT_OF_MEMORY: "GL_OUT_OF_MEMORY",
            GL_INVALID_FRAMEBUFFER_OPERATION: "GL_INVALID_FRAMEBUFFER_OPERATION",
        ]
        throw RenderError.gl("\(names[Int32(code)] ?? "error \(code)") while \(what())")
    }
}

extension GLenum {
    /// Converts the `Int32` constants Swift imports from the GL headers.
    @inline(__always) init(gl value: Int32) { self.init(UInt32(bitPattern: value)) }
}

extension GLInfo {
    /// Blocks until the GL has finished all commands.
    static func finish() { glFinish() }
}

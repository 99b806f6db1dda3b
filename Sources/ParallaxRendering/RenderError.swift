import Foundation

/// Errors of the rendering backend; each message says what failed and, where it helps, how to fix it.
public enum RenderError: Error, CustomStringConvertible, Sendable {
    /// No EGL display could be opened (missing driver packages are named in the message).
    case noDisplay(String)
    /// The OpenGL context could not be created or made current.
    case contextCreation(String)
    /// A shader file is missing, or failed to compile or link (message names the file and line).
    case shader(String)
    /// An OpenGL call failed (framebuffer incomplete, out of memory, ...).
    case gl(String)
    /// A setting or argument is invalid.
    case invalidConfiguration(String)
    /// Window creation or the window system failed.
    case window(String)

    /// The message.
    public var description: String {
        switch self {
        case .noDisplay(let m): return "no OpenGL display: \(m)"
        case .contextCreation(let m): return "OpenGL context: \(m)"
        case .shader(let m): return "shader: \(m)"
        case .gl(let m): return "OpenGL: \(m)"
        case .invalidConfiguration(let m): return m
        case .window(let m): return "window: \(m)"
        }
    }
}

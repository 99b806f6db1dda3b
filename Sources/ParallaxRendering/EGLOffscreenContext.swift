import CEGL
import Foundation

/// Which EGL platform opens the headless display.
///
/// - `surfaceless`: Mesa's `EGL_MESA_platform_surfaceless`; works without any GPU (llvmpipe).
/// - `device`: `EGL_EXT_platform_device` on a device found by `EGL_EXT_device_enumeration`
///   (the NVIDIA driver's way of rendering without an X server).
public enum EGLPlatform: String, Sendable, CaseIterable {
    /// Mesa's surfaceless platform (software rasteriser or Mesa GPU drivers).
    case surfaceless
    /// The EGL device platform (a GPU enumerated by `eglQueryDevicesEXT`).
    case device

    /// Reads `PARALLAX_EGL_PLATFORM` (`surfaceless` or `device`); `nil` when unset or `auto`.
    /// - Throws: ``RenderError/invalidConfiguration(_:)`` for any other value.
    public static func fromEnvironment() throws -> EGLPlatform? {
        guard let raw = ProcessInfo.processInfo.environment["PARALLAX_EGL_PLATFORM"], !raw.isEmpty, raw != "auto"
        else { return nil }
        guard let platform = EGLPlatform(rawValue: raw.lowercased()) else {
            throw RenderError.invalidConfiguration(
                "PARALLAX_EGL_PLATFORM='\(raw)' is not one of: auto, surfaceless, device")
        }
        return platform
    }
}

/// An OpenGL 3.3 core context without any window, made current only while rendering.
///
/// EGL contexts are bound to one thread at a time, so every use goes through ``withCurrent(_:)``,
/// which takes a lock, makes the context current on the calling thread and releases it afterwards.
/// That lets a renderer be called from any thread (Swift Testing runs tests concurrently).
final class EGLOffscreenContext: @unchecked Sendable {
    /// The platform that was opened.
    let platform: EGLPlatform
    /// A human-readable description of the device ("llvmpipe ...", "NVIDIA H100 ...").
    private(set) var rendererName = ""
    private let display: EGLDisplay
    private let context: EGLContext
    private let lock = NSRecursiveLock()

    /// Opens a display on `platform` (explicit, else `PARALLAX_EGL_PLATFORM`, else automatic) and creates the context.
    init(platform requested: EGLPlatform? = nil) throws {
        let requested = try requested ?? EGLPlatform.fromEnvironment()
        let (display, platform) = try Self.openDisplay(requested)
        self.display = display
        self.platform = platform
        guard eglBindAPI(EGLenum(EGL_OPENGL_API)) == EGLBoolean(EGL_TRUE) else {
            throw RenderError.contextCreation("eglBindAPI(EGL_OPENGL_API) failed: \(Self.errorString())")
        }
        self.context = try Self.createContext(display)
        try withCurrent { self.rendererName = GLInfo.rendererString() }
    }

    deinit {
        // The display is shared by every context of the process (EGL returns the same handle), so it is
        // not terminated here: that would invalidate other renderers' contexts.
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
    }

    /// Runs `body` with the context current on this thread, then releases it.
    func withCurrent<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer {
            eglMakeCurrent(display, nil, nil, nil)
            lock.unlock()
        }
        guard eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            throw RenderError.contextCreation("eglMakeCurrent failed: \(Self.errorString())")
        }
        return try body()
    }

    // MARK: - Display

    private static let missingPackages = """
        Install the Mesa EGL driver (Debian: apt-get install libegl-mesa0 libgl1-mesa-dri) for software rendering, \
        or the NVIDIA driver's EGL library (libnvidia-egl / libegl-nvidia0) for a GPU.
        """

    /// Chooses the platform: a hardware EGL device when one is enumerated, else Mesa surfaceless.
    private static func openDisplay(_ requested: EGLPlatform?) throws -> (EGLDisplay, EGLPlatform) {
        switch requested {
        case .surfaceless?:
            return (try surfacelessDisplay(), .surfaceless)
        case .device?:
            return (try deviceDisplay(hardwareOnly: false), .device)
        case nil:
            if let display = try? deviceDisplay(hardwareOnly: true) { return (display, .device) }
            do { return (try surfacelessDisplay(), .surfaceless) } catch {
                // Last resort: Mesa's software EGL device.
                if let display = try? deviceDisplay(hardwareOnly: false) { return (display, .device) }
                throw error
            }
        }
    }

    private static func surfacelessDisplay() throws -> EGLDisplay {
        guard let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
            throw RenderError.noDisplay(
                "EGL surfaceless platform (EGL_MESA_platform_surfaceless) unavailable: \(errorString()). \(missingPackages)")
        }
        try initialize(display, what: "surfaceless display")
        return display
    }

    /// Enumerates EGL devices and opens the first that initialises; `hardwareOnly` skips Mesa's software device.
    private static func deviceDisplay(hardwareOnly: Bool) throws -> EGLDisplay {
        guard let queryRaw = eglGetProcAddress("eglQueryDevicesEXT"),
            let stringRaw = eglGetProcAddress("eglQueryDeviceStringEXT")
        else {
            throw RenderError.noDisplay("EGL_EXT_device_enumeration is not supported. \(missingPackages)")
        }
        let queryDevices = unsafeBitCast(queryRaw, to: PFNEGLQUERYDEVICESEXTPROC.self)
        let queryString = unsafeBitCast(stringRaw, to: PFNEGLQUERYDEVICESTRINGEXTPROC.self)
        var count: EGLint = 0
        guard queryDevices(0, nil, &count) == EGLBoolean(EGL_TRUE), count > 0 else {
            throw RenderError.noDisplay("no EGL device found (eglQueryDevicesEXT). \(missingPackages)")
        }
        var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        _ = queryDevices(count, &devices, &count)
        var tried: [String] = []
        for device in devices.prefix(Int(count)) {
            guard let device else { continue }
            let extensions = queryString(device, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
            let software = extensions.contains("EGL_MESA_device_software")
            if hardwareOnly && software { continue }
            guard let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil) else {
                tried.append("device (\(errorString()))")
                continue
            }
            do {
                try initialize(display, what: "device display")
                return display
            } catch { tried.append("\(error)") }
        }
        throw RenderError.noDisplay(
            "no usable EGL device\(hardwareOnly ? " (hardware)" : "") among \(count): \(tried.joined(separator: "; ")). \(missingPackages)")
    }

    private static func initialize(_ display: EGLDisplay, what: String) throws {
        var major: EGLint = 0
        var minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else {
            throw RenderError.noDisplay("eglInitialize failed for the \(what): \(errorString()). \(missingPackages)")
        }
    }

    /// An OpenGL 3.3 core context; it draws into framebuffer objects, so it needs no surface.
    private static func createContext(_ display: EGLDisplay) throws -> EGLContext {
        let configAttributes: [EGLint] = [
            EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE,
        ]
        var config: EGLConfig?
        var found: EGLint = 0
        if eglChooseConfig(display, configAttributes, &config, 1, &found) != EGLBoolean(EGL_TRUE) || found == 0 {
            // Some drivers list no pbuffer configs on the device platform: any OpenGL config will do.
            let fallback: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE]
            guard eglChooseConfig(display, fallback, &config, 1, &found) == EGLBoolean(EGL_TRUE), found > 0 else {
                throw RenderError.contextCreation("no EGL config supports desktop OpenGL: \(errorString())")
            }
        }
        let contextAttributes: [EGLint] = [
            EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
        ]
        guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
            throw RenderError.contextCreation("eglCreateContext (OpenGL 3.3 core) failed: \(errorString())")
        }
        return context
    }

    /// The last EGL error as its symbolic name.
    static func errorString() -> String {
        let code = eglGetError()
        let names: [EGLint: String] = [
            EGL_SUCCESS: "EGL_SUCCESS", EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
            EGL_BAD_ALLOC: "EGL_BAD_ALLOC", EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
            EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT", EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
            EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER", EGL_BAD_SURFACE: "EGL_BAD_SURFACE",
        ]
        return names[code] ?? String(format: "EGL error 0x%04X", code)
    }
}

import Foundation
import CEGL
import Synchronization

/// Why no GL context (or program) could be made: which call or step failed, and how.
public struct GLContextError: Error, CustomStringConvertible {
    /// What failed.
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A headless EGL display and an OpenGL ES 3.0 context on it.
///
/// The display is tried in order: Mesa's surfaceless platform (llvmpipe or a GPU driver), the EGL
/// device platform (NVIDIA), then the default display. The display is shared by every context
/// and never terminated (terminating it would pull the rug from other live contexts).
/// A context is current on one thread: create, use and release it on the same thread.
public final class GLContext {
    let display: EGLDisplay
    let context: EGLContext
    /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public let rendererName: String
    /// Whether the renderer shades on the CPU (Mesa's llvmpipe, softpipe or swrast), on the
    /// same cores as the rest of the program, rather than on a GPU.
    public var rendersOnTheCPU: Bool { Self.rendersOnTheCPU(rendererName) }

    /// Whether `GL_RENDERER` string `name` is one of Mesa's software rasterizers.
    public static func rendersOnTheCPU(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["llvmpipe", "softpipe", "swrast"].contains { lowered.contains($0) }
    }
    /// Which EGL platform the display came from.
    public let platform: String

    public init() throws(GLContextError) {
        let shared = try Self.sharedDisplay()
        display = shared.display
        platform = shared.platform
        var configAttributes: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE]
        var config: EGLConfig?
        var count: EGLint = 0
        eglChooseConfig(display, &configAttributes, &config, 1, &count)
        var contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let made = eglCreateContext(display, count > 0 ? config : nil, nil, &contextAttributes) else {
            throw GLContextError(reason: "no OpenGL ES 3 context on the \(platform) EGL display (EGL error 0x\(String(eglGetError(), radix: 16)))")
        }
        context = made
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            eglDestroyContext(display, context)
            throw GLContextError(reason: "cannot make the OpenGL ES context current without a surface (EGL error 0x\(String(eglGetError(), radix: 16)))")
        }
        rendererName = glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "unknown"
    }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
    }

    /// Makes the context current on the calling thread.
    public func makeCurrent() {
        eglMakeCurrent(display, nil, nil, context)
    }

    // MARK: - The shared display

    private struct SharedDisplay: @unchecked Sendable {
        let display: EGLDisplay
        let platform: String
    }

    private static let shared = Mutex<Result<SharedDisplay, GLContextError>?>(nil)

    private static func sharedDisplay() throws(GLContextError) -> SharedDisplay {
        let result = shared.withLock { state -> Result<SharedDisplay, GLContextError> in
            if let state { return state }
            let made = openDisplay()
            state = made
            return made
        }
        return try result.get()
    }

    private static func openDisplay() -> Result<SharedDisplay, GLContextError> {
        var tried: [String] = []
        func initialize(_ display: EGLDisplay?, _ name: String) -> SharedDisplay? {
            guard let display else { tried.append("\(name): no display"); return nil }
            var major: EGLint = 0, minor: EGLint = 0
            guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
                tried.append("\(name): eglInitialize failed (0x\(String(eglGetError(), radix: 16)))")
                return nil
            }
            guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
                tried.append("\(name): no OpenGL ES API")
                return nil
            }
            return SharedDisplay(display: display, platform: name)
        }
        if let d = initialize(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil), "surfaceless") {
            return .success(d)
        }
        if let query = eglGetProcAddress("eglQueryDevicesEXT") {
            let queryDevices = unsafeBitCast(query, to: PFNEGLQUERYDEVICESEXTPROC.self)
            var devices = [EGLDeviceEXT?](repeating: nil, count: 8)
            var count: EGLint = 0
            if queryDevices(8, &devices, &count) == EGL_TRUE {
                for device in devices.prefix(Int(count)) {
                    if let d = initialize(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil), "device") {
                        return .success(d)
                    }
                }
            } else {
                tried.append("device: eglQueryDevicesEXT failed")
            }
        }
        if let d = initialize(eglGetDisplay(nil), "default") { return .success(d) }
        return .failure(GLContextError(reason: "no EGL display: \(tried.joined(separator: "; "))"))
    }
}

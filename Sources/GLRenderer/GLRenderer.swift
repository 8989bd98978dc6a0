import Foundation
import CEGL
import Geometry
import Rendering
import Timing

/// Executes render plans with OpenGL ES 3 on a headless EGL context (Mesa llvmpipe where there
/// is no GPU, a real GPU's driver where there is one) and reads frames back.
///
/// Contents textures are uploaded once per image (premultiplied) and reused across frames;
/// offscreen passes render into pooled textures. Use one renderer from one thread.
public final class GLRenderer: RenderBackend {
    public let name = "gpu"
    public let context: GLContext
    private var programs: [LayerProgram.Variant: LayerProgram] = [:]
    var program: LayerProgram
    let blurProgram: BlurProgram
    var currentTarget: (width: Int, height: Int) = (0, 0)
    /// The quads being collected and the buffers they are drawn from.
    let batch: QuadBatch
    /// What the quads in `batch` share: consecutive items with one program variant and textures.
    var batchKey: BatchKey?
    static let white = PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)

    struct BatchKey: Equatable {
        var variant: LayerProgram.Variant
        var texture: GLuint
        var mask: GLuint
        var minFilter: GLint
        var magFilter: GLint
        var blendMode: BlendMode = .normal
        var colorMatrix: ColorMatrix?
    }
    /// A copy of the region of the target under a blend-mode item (GLES 3 cannot read the
    /// framebuffer being drawn), grown as needed; `backdropOrigin` is the copied region's corner.
    var backdropTexture: GLuint = 0
    var backdropCapacity: (width: Int, height: Int) = (0, 0)
    var backdropOrigin: (x: GLint, y: GLint) = (0, 0)
    var textures: [ObjectIdentifier: (texture: GLuint, image: CGImage, mipmapped: Bool, opaque: Bool)] = [:]
    /// The frame each texture was last drawn in: textures unused for `textureLifetime` frames are
    /// deleted, so content rasterized anew every frame (an animated path) cannot pile up.
    var textureUse: [ObjectIdentifier: Int] = [:]
    var frameNumber = 0
    static let textureLifetime = 30
    var targets: [Target] = []
    /// The opaque items of the pass being drawn, which hide what lies wholly under them.
    var cover = OpaqueCover()
    /// For each item of the pass being drawn that is a body, its cut corners that `cover` hides
    /// (found once: its pieces reach over them, and its corner squares are not drawn).
    var coveredCuts: [RoundedCorners?] = []
    /// Whether what lies wholly under a later opaque item is left undrawn (tests turn it off
    /// to compare).
    var skipsCoveredItems = true

    struct Target {
        var framebuffer: GLuint
        var texture: GLuint
        var depth: GLuint
        var width: Int
        var height: Int
    }

    public init() throws(GLContextError) {
        context = try GLContext()
        let plain = LayerProgram.Variant(textured: false, shaped: false, masked: false)
        program = try LayerProgram(plain)
        blurProgram = try BlurProgram()
        programs[plain] = program
        glUseProgram(program.program)
        glUniform1i(program.texture, 0)
        glUniform1i(program.mask, 1)
        glGenTextures(1, &backdropTexture)
        batch = QuadBatch()
    }

    deinit {
        context.makeCurrent()
        for (_, entry) in textures { var t = entry.texture; glDeleteTextures(1, &t) }
        for target in targets {
            var f = target.framebuffer, t = target.texture, d = target.depth
            glDeleteFramebuffers(1, &f)
            glDeleteTextures(1, &t)
            glDeleteRenderbuffers(1, &d)
        }
        glDeleteTextures(1, &backdropTexture)
        batch.delete()
    }

    /// On llvmpipe, which shades on every core, a planning thread competes with drawing: a run
    /// plans ahead once frames take 0.2 ms to plan (the default). A GPU draws while the CPU is
    /// free, so there a run plans ahead from its first frame.
    public var planningAheadThreshold: Double { context.rendersOnTheCPU ? 0.2e-3 : 0 }

    /// Draws `plan` and returns the frame (RGBA8 premultiplied, top row first).
    public func render(_ plan: RenderPlan, images: ImageProvider, stopwatch: Stopwatch?) -> Image? {
        let start = stopwatch == nil ? 0 : Stopwatch.now()
        // A plan for this backend holds its shapes rasterized (`drawsDeferredShapes` is false);
        // one made for another backend may not.
        let plan = plan.rasterizingShapes()
        context.makeCurrent()
        glUseProgram(program.program)
        batch.bind()
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_CULL_FACE))

        var passTextures: [Int: GLuint] = [:]
        var passTargets: [Int: Target] = [:]
        for (index, pass) in plan.passes.enumerated() {
            // A pass that continues an earlier one draws on into its target, uncleared.
            let earlier = pass.startsFrom.flatMap { passTargets[$0] }.flatMap { $0.width == pass.width && $0.height == pass.height ? $0 : nil }
            let target = earlier ?? self.target(index, width: pass.width, height: pass.height)
            passTargets[pass.id] = target
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.framebuffer)
            glViewport(0, 0, GLsizei(pass.width), GLsizei(pass.height))
            if earlier == nil {
                let c = pass.clearColor
                glClearColor(c.red, c.green, c.blue, c.alpha)
                glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            }
            currentTarget = (pass.width, pass.height)
            glUniform2f(program.target, GLfloat(pass.width), GLfloat(pass.height))
            drawItems(pass.items, images: images, passTextures: passTextures)
            passTextures[pass.id] = target.texture
            checkErrors("pass \(pass.id) (\(pass.purpose))")
        }
        glFinish()
        evictUnusedTextures()
        let drawn = stopwatch == nil ? 0 : Stopwatch.now()
        let frame = readFrame(width: plan.width, height: plan.height)
        if let stopwatch {
            stopwatch.add(drawn - start, to: .composite)
            stopwatch.add(Stopwatch.now() - drawn, to: .readback)
        }
        return frame
    }

    /// Draws the collected batch in one instanced call (or one polygon, given its corners).
    func flush(polygon: [GLfloat]? = nil) {
        defer {
            batchKey = nil
            batch.reset()
        }
        guard let key = batchKey, batch.count > 0 else { return }
        use(key.variant)
        if let m = key.colorMatrix {
            // Column-major: column j holds input j's weight in each output channel.
            let columns: [GLfloat] = (0..<4).flatMap { j in m.rows.map { $0[j] } }
            glUniformMatrix4fv(program.colorMatrix, 1, GLboolean(GL_FALSE), columns)
            glUniform4f(program.colorBias, m.bias.x, m.bias.y, m.bias.z, m.bias.w)
        }
        if key.blendMode.readsBackdrop {
            glActiveTexture(GLenum(GL_TEXTURE2))
            glBindTexture(GLenum(GL_TEXTURE_2D), backdropTexture)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glUniform2i(program.backdropOrigin, backdropOrigin.x, backdropOrigin.y)
            glUniform1i(program.blendMode, GLint(key.blendMode.indexInFamily))
        }
        if key.blendMode == .addition { glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE)) }
        defer { if key.blendMode == .addition { glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA)) } }
        if key.texture != 0 {
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), key.texture)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), key.minFilter)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), key.magFilter)
        }
        if key.mask != 0 {
            glActiveTexture(GLenum(GL_TEXTURE1))
            glBindTexture(GLenum(GL_TEXTURE_2D), key.mask)
            glActiveTexture(GLenum(GL_TEXTURE0))
        }
        if let polygon { batch.draw(polygon: polygon) } else { batch.draw() }
    }

    func setUniforms(_ g: GradientPaint) {
        var colors = [GLfloat](repeating: 0, count: 4 * GradientPaint.maximumStops)
        var locations = [GLfloat](repeating: 1, count: GradientPaint.maximumStops)
        for (i, c) in g.colors.enumerated() {
            colors[4 * i] = c.x; colors[4 * i + 1] = c.y; colors[4 * i + 2] = c.z; colors[4 * i + 3] = c.w
            locations[i] = g.locations[i]
        }
        glUniform4fv(program.gradientColors, GLsizei(GradientPaint.maximumStops), colors)
        glUniform1fv(program.gradientLocations, GLsizei(GradientPaint.maximumStops), locations)
        glUniform1i(program.gradientCount, GLint(g.colors.count))
        let type: GLint = switch g.type { case .radial: 1; case .conic: 2; default: 0 }
        glUniform1i(program.gradientType, type)
        glUniform4f(program.gradientPoints, GLfloat(g.startPoint.x), GLfloat(g.startPoint.y), GLfloat(g.endPoint.x), GLfloat(g.endPoint.y))
    }

    /// Switches to a program variant (compiled on first use); the per-pass uniforms follow it.
    func use(_ variant: LayerProgram.Variant) {
        let next: LayerProgram
        if let known = programs[variant] {
            next = known
        } else {
            // Every variant compiles from the same source as the plain one, which did compile.
            guard let made = try? LayerProgram(variant) else { return }
            glUseProgram(made.program)
            glUniform1i(made.texture, 0)
            glUniform1i(made.mask, 1)
            glUniform1i(made.backdrop, 2)
            programs[variant] = made
            next = made
        }
        guard next.program != program.program else { return }
        program = next
        glUseProgram(program.program)
        glUniform2f(program.target, GLfloat(currentTarget.width), GLfloat(currentTarget.height))
    }

    /// Reads the bound framebuffer. Its row 0 is the image's top row (the projection put it there).
    func readFrame(width: Int, height: Int) -> Image? {
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        // glReadPixels writes every byte: no zero-filling a frame first (1–2 ms at 1080p).
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buffer.baseAddress)
            initialized = count
        }
        checkErrors("read back")
        return Image(width: width, height: height, pixels: pixels)
    }

    func checkErrors(_ stage: String) {
        #if DEBUG
        let error = glGetError()
        assert(error == GL_NO_ERROR, "GL error 0x\(String(error, radix: 16)) during \(stage)")
        #endif
    }
}

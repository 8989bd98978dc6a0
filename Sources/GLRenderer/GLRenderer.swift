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
    private var quad: GLuint = 0
    private var instanceBuffer: GLuint = 0
    /// Corners of a split piece (normalised to its item's rect), drawn as a fan.
    private var polygonBuffer: GLuint = 0
    private var vertexArray: GLuint = 0
    /// The batch being collected: consecutive items sharing a program variant and textures.
    private var batchKey: BatchKey?
    private var instanceData: [GLfloat] = []
    private var instanceCount = 0
    /// Floats per instance: transform (16), rect, uv, colour, shape, radii, params, band colour (4 each).
    private static let instanceFloats = 44
    private static let white = PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)

    private struct BatchKey: Equatable {
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
    private var textures: [ObjectIdentifier: (texture: GLuint, image: CGImage, mipmapped: Bool, opaque: Bool)] = [:]
    /// The frame each texture was last drawn in: textures unused for `textureLifetime` frames are
    /// deleted, so content rasterized anew every frame (an animated path) cannot pile up.
    private var textureUse: [ObjectIdentifier: Int] = [:]
    private var frameNumber = 0
    private static let textureLifetime = 30
    private var targets: [Target] = []
    /// The opaque items of the pass being drawn, which hide what lies wholly under them.
    private var cover = OpaqueCover()
    /// Whether what lies wholly under a later opaque item is left undrawn (tests turn it off
    /// to compare).
    var skipsCoveredItems = true


    private struct Target {
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
        glGenVertexArrays(1, &vertexArray)
        glBindVertexArray(vertexArray)
        glGenBuffers(1, &quad)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        let corners: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
        corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        // Per-instance attributes 1…11 (layer.glsl): mat4 in 1…4, then seven vec4s.
        glGenBuffers(1, &polygonBuffer)
        glGenBuffers(1, &instanceBuffer)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        // Never empty: draws that ignore instances (the blur) still find one to read.
        let blank = [GLfloat](repeating: 0, count: Self.instanceFloats)
        blank.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        let stride = GLsizei(Self.instanceFloats * MemoryLayout<GLfloat>.size)
        for attribute in 0..<11 {
            let location = GLuint(1 + attribute)
            glEnableVertexAttribArray(location)
            glVertexAttribPointer(location, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                  UnsafeRawPointer(bitPattern: attribute * 4 * MemoryLayout<GLfloat>.size))
            glVertexAttribDivisor(location, 1)
        }
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
        glDeleteBuffers(1, &quad)
        glDeleteBuffers(1, &instanceBuffer)
        glDeleteBuffers(1, &polygonBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Draws `plan` and returns the frame (RGBA8 premultiplied, top row first).
    public func render(_ plan: RenderPlan, images: ImageProvider, stopwatch: Stopwatch?) -> Image? {
        let start = stopwatch == nil ? 0 : Stopwatch.now()
        context.makeCurrent()
        glUseProgram(program.program)
        glBindVertexArray(vertexArray)
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

    /// Draws a pass's items in painter's order, except that fully opaque items are drawn first,
    /// front to back, writing depth where one can hide another: every pixel they hide is then
    /// rejected before shading (on llvmpipe shading is the cost). Translucent items follow in
    /// order, tested but not writing depth, with the corners a body carries (`BodyCorners`).
    private func drawItems(_ items: [DrawItem], images: ImageProvider, passTextures: [Int: GLuint]) {
        let count = items.count
        func depth(_ i: Int) -> GLfloat { 1 - GLfloat(i + 1) / GLfloat(count + 1) }
        // Which items are opaque, asked once per item (indexed, not hashed, on the per-frame path).
        let isOpaqueItem = items.map { isOpaque($0, images: images) }
        let opaque = items.indices.filter { isOpaqueItem[$0] }
        cover = skipsCoveredItems ? OpaqueCover(items, isOpaque: { isOpaqueItem[$0] }) : OpaqueCover()
        defer { cover = OpaqueCover() }
        if !opaque.isEmpty {
            // Opaque items go first without blending. When one can hide another, front to back
            // writing depth, so hidden pixels are rejected before shading; when none lies over an
            // earlier item (layers side by side), in any order with no depth buffer at all.
            let needsDepth = Self.opaqueItemsCoverOthers(items, opaque: opaque)
            if needsDepth {
                glDepthMask(GLboolean(GL_TRUE))
                glClearDepthf(1)
                glClear(GLbitfield(GL_DEPTH_BUFFER_BIT))
                glEnable(GLenum(GL_DEPTH_TEST))
                glDepthFunc(GLenum(GL_LESS))
            }
            glDisable(GLenum(GL_BLEND))
            for i in opaque.reversed() { enqueue(items[i], index: i, depth: depth(i), images: images, passTextures: passTextures) }
            flush()
            glDepthMask(GLboolean(GL_FALSE))
            glEnable(GLenum(GL_BLEND))
        }
        for i in items.indices {
            if !isOpaqueItem[i] { enqueue(items[i], index: i, depth: depth(i), images: images, passTextures: passTextures) }
            // A card's corners (blended) at its body's place and depth: they do not overlap it.
            if items[i].body?.cornerPair != nil {
                enqueueBodyCorners(of: items[i], index: i, depth: depth(i), images: images, passTextures: passTextures)
            }
        }
        flush()
        glDisable(GLenum(GL_DEPTH_TEST))
        glDepthMask(GLboolean(GL_TRUE))
    }

    /// Whether some opaque item's screen bounds overlap an item drawn before it (which it could
    /// hide). Checked pairwise for small passes; larger ones are assumed to overlap.
    private static func opaqueItemsCoverOthers(_ items: [DrawItem], opaque: [Int]) -> Bool {
        guard items.count <= 64 else { return true }
        let bounds = items.map(\.screenBounds)
        for i in opaque {
            guard let a = bounds[i] else { return true }
            for j in 0..<i {
                guard let b = bounds[j] else { return true }
                if a.intersects(b) { return true }
            }
        }
        return false
    }

    /// Whether an item covers its whole quad with alpha 1 (so it may hide what is below).
    private func isOpaque(_ item: DrawItem, images: ImageProvider) -> Bool {
        guard item.opacity >= 1, item.shape == nil, item.borderWidth == nil, item.maskPass == nil, item.polygon == nil,
              (item.tint?.alpha ?? 1) >= 1, item.blendMode == .normal, item.colorMatrix == nil,
              (item.body?.band?.color.alpha ?? 1) >= 1 else {
            return false
        }
        switch item.paint {
        case .solid(let c): return c.alpha >= 1
        case .image(let image, _, let minification, _):
            return texture(for: image, images: images, mipmapped: minification == .trilinear) != nil
                && textures[ObjectIdentifier(image)]?.opaque == true
        case .pass, .tintedPass, .gradient, .blur: return false
        }
    }

    /// Adds an item (the pass's item `index`, or one of its corners) to the current batch,
    /// drawing the batch first when the item needs other state; nothing when a later opaque
    /// item hides it (`cover`).
    private func enqueue(_ item: DrawItem, index: Int, depth: GLfloat, images: ImageProvider, passTextures: [Int: GLuint]) {
        if case .blur(let id, let sigma, let horizontal) = item.paint {
            flush()
            return blur(passTextures[id], sigma: sigma, horizontal: horizontal)
        }
        // A body's pieces are looked at one by one below.
        if item.body == nil, cover.hides(item.rect, transform: item.transform, at: index) { return }
        let shape = item.shape ?? (item.borderWidth != nil ? RoundedShape(rect: item.rect, radius: 0) : nil)
        var key = BatchKey(variant: LayerProgram.Variant(textured: true, shaped: shape != nil, masked: false),
                           texture: 0, mask: item.maskPass.flatMap { passTextures[$0] } ?? 0,
                           minFilter: GL_LINEAR, magFilter: GL_LINEAR)
        key.variant.masked = key.mask != 0
        key.blendMode = item.blendMode
        key.colorMatrix = item.colorMatrix
        key.variant.colorMatrix = item.colorMatrix != nil
        key.variant.body = item.body != nil
        key.variant.paired = item.borderTint != nil
        key.variant.continuous = shape?.continuous == true
        if item.blendMode.readsBackdrop {
            key.variant.blend = item.blendMode.family
            // Drawn alone, over a copy of what lies under it now.
            flush()
            guard copyBackdrop(under: item) else { return }
        }
        var color = PremultipliedColor.clear
        var uv = CGRect(x: 0, y: 0, width: 1, height: 1)
        switch item.paint {
        case .solid(let c):
            key.variant.textured = false
            color = c
        case .image(let image, let source, let minification, let magnification):
            guard let texture = texture(for: image, images: images, mipmapped: minification == .trilinear) else { return }
            key.texture = texture
            key.minFilter = minification == .nearest ? GL_NEAREST : minification == .trilinear ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR
            key.magFilter = magnification == .nearest ? GL_NEAREST : GL_LINEAR
            uv = source
            color = item.tint ?? Self.white
            key.variant.exactTexels = item.borderTint != nil
                && Self.mapsTexelsOntoPixels(item.rect, transform: item.transform, polygon: item.polygon, image: image, source: source)
            if key.variant.exactTexels { uv = Self.texelOrigin(item.rect, transform: item.transform, image: image, source: source) }
        case .pass(let id, let source):
            guard let texture = passTextures[id] else { return }
            key.texture = texture
            uv = source
            color = Self.white
        case .tintedPass(let id, let c, let source):
            guard let texture = passTextures[id] else { return }
            key.texture = texture
            key.variant.textured = false
            key.variant.tinted = true
            color = c
            uv = source
        case .gradient(let gradient, let source):
            // Gradients carry their stops in uniforms: each is drawn alone.
            key.variant.textured = false
            key.variant.gradient = true
            uv = source
            flush()
            batchKey = key
            use(key.variant)
            setUniforms(gradient)
        case .blur:
            return
        }
        if key != batchKey || item.polygon != nil {
            flush()
            batchKey = key
        }
        let s = shape.map { $0.rect } ?? item.rect
        func radius(_ corner: RoundedCorners) -> GLfloat {
            guard let shape, shape.corners.contains(corner) else { return 0 }
            return GLfloat(shape.radius)
        }
        let radii = SIMD4(radius(.minXMinY), radius(.maxXMinY), radius(.maxXMaxY), radius(.minXMaxY))
        // A body's band takes the border width's place.
        let band = item.body?.band
        let bandColor = band?.color ?? item.borderTint ?? .clear
        let params = SIMD4(item.opacity, band.map { GLfloat($0.width) } ?? GLfloat(item.borderWidth ?? 0), depth,
                           GLfloat(shape?.continuous == true ? 1 : 0))
        func instance(_ rect: CGRect) {
            if item.body != nil, cover.hides(rect, transform: item.transform, at: index) { return }
            appendInstance(item.transform, rect: rect, uv: uv, color: color, shape: s, radii: radii, params: params, band: bandColor)
        }
        // A body is drawn as the pieces that tile it, one instance each.
        if let body = item.body {
            body.pieces(of: item.rect, covered: coveredCorners(of: item, body: body, at: index), instance)
        } else {
            instance(item.rect)
        }
        if let polygon = item.polygon {
            // A split piece goes out alone, as a fan over its corners.
            flush(polygon: polygon.map { p -> [GLfloat] in
                [GLfloat((p.x - item.rect.minX) / item.rect.width), GLfloat((p.y - item.rect.minY) / item.rect.height)]
            }.flatMap { $0 })
        }
        if item.blendMode.readsBackdrop { flush() }
    }

    /// Adds one instance to the batch (layer.glsl's per-instance inputs), written in place: no
    /// temporary arrays per item on the per-frame path.
    private func appendInstance(_ m: CATransform3D, rect: CGRect, uv: CGRect, color: PremultipliedColor, shape s: CGRect,
                                radii: SIMD4<GLfloat>, params: SIMD4<GLfloat>, band: PremultipliedColor) {
        let base = instanceData.count
        instanceData.append(contentsOf: repeatElement(0, count: Self.instanceFloats))
        instanceData.withUnsafeMutableBufferPointer { buffer in
            var i = base
            func put(_ v: GLfloat) { buffer[i] = v; i += 1 }
            func put(_ v: CGFloat) { put(GLfloat(v)) }
            // The matrix row by row (fed as GL columns, see layer.glsl).
            put(m.m11); put(m.m12); put(m.m13); put(m.m14); put(m.m21); put(m.m22); put(m.m23); put(m.m24)
            put(m.m31); put(m.m32); put(m.m33); put(m.m34); put(m.m41); put(m.m42); put(m.m43); put(m.m44)
            put(rect.minX); put(rect.minY); put(rect.width); put(rect.height)
            put(uv.minX); put(uv.minY); put(uv.width); put(uv.height)
            put(color.red); put(color.green); put(color.blue); put(color.alpha)
            put(s.minX); put(s.minY); put(s.width); put(s.height)
            put(radii.x); put(radii.y); put(radii.z); put(radii.w)
            put(params.x); put(params.y); put(params.z); put(params.w)
            put(band.red); put(band.green); put(band.blue); put(band.alpha)
        }
        instanceCount += 1
    }

    /// A card's corners: the instances `enqueue` adds for each item `DrawItem.forEachBodyCorner`
    /// gives, written without building those items (a card's four corner items cost more to
    /// copy and look at than their instances to write). Items it does not handle — a corner
    /// that reads the backdrop or is a split piece — go the general way.
    private func enqueueBodyCorners(of item: DrawItem, index: Int, depth: GLfloat, images: ImageProvider, passTextures: [Int: GLuint]) {
        guard let body = item.body, let pair = body.cornerPair else { return }
        guard item.polygon == nil, !item.blendMode.readsBackdrop,
              let texture = texture(for: pair.mask, images: images, mipmapped: false) else {
            return item.forEachBodyCorner { enqueue($0, index: index, depth: depth, images: images, passTextures: passTextures) }
        }
        var key = BatchKey(variant: LayerProgram.Variant(textured: true, shaped: false, masked: false),
                           texture: texture, mask: item.maskPass.flatMap { passTextures[$0] } ?? 0,
                           minFilter: GL_LINEAR, magFilter: GL_LINEAR)
        key.variant.masked = key.mask != 0
        key.blendMode = item.blendMode
        key.colorMatrix = item.colorMatrix
        key.variant.colorMatrix = item.colorMatrix != nil
        key.variant.paired = true
        let side = body.side, m = item.transform
        let params = SIMD4(item.opacity, 0, depth, 0)
        for (which, origin) in DrawItem.cornerSquares(of: item.rect, side: side) where body.corners.contains(which) {
            let square = CGRect(x: origin.x, y: origin.y, width: side, height: side)
            if cover.hides(square, transform: m, at: index) { continue }
            var uv = DrawItem.quadrant(of: which)
            key.variant.exactTexels = Self.mapsTexelsOntoPixels(square, transform: m, polygon: nil, image: pair.mask, source: uv)
            if key.variant.exactTexels {
                uv = Self.texelOrigin(square, transform: m, image: pair.mask, source: uv)
            }
            if key != batchKey {
                flush()
                batchKey = key
            }
            appendInstance(m, rect: square, uv: uv, color: pair.fill, shape: square, radii: .zero, params: params, band: pair.border)
        }
    }

    /// The cut corners of a body whose squares a later opaque item wholly covers (the body may
    /// then draw over them).
    private func coveredCorners(of item: DrawItem, body: FillBody, at index: Int) -> RoundedCorners {
        guard !body.corners.isEmpty else { return [] }
        var covered: RoundedCorners = []
        for (corner, origin) in DrawItem.cornerSquares(of: item.rect, side: body.side) where body.corners.contains(corner) {
            if cover.hides(CGRect(x: origin.x, y: origin.y, width: body.side, height: body.side), transform: item.transform, at: index) {
                covered.insert(corner)
            }
        }
        return covered
    }

    /// Whether `item` shows `source` of `image` one texel per pixel, texel centres on pixel
    /// centres (a corner-mask pair on whole pixels): sampling is then a texel read.
    private static func mapsTexelsOntoPixels(_ rect: CGRect, transform m: CATransform3D, polygon: [CGPoint]?, image: CGImage, source: CGRect) -> Bool {
        guard m.m11 == 1, m.m22 == 1, m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1, polygon == nil else { return false }
        let x = rect.minX + m.m41, y = rect.minY + m.m42
        return x == x.rounded() && y == y.rounded() && source.width * CGFloat(image.width) == rect.width
            && source.height * CGFloat(image.height) == rect.height
            && (source.minX * CGFloat(image.width)).rounded() == source.minX * CGFloat(image.width)
            && (source.minY * CGFloat(image.height)).rounded() == source.minY * CGFloat(image.height)
    }

    /// The target pixel of texel (0, 0) of an item that `mapsTexelsOntoPixels`: the shader reads
    /// texels at pixel minus this.
    private static func texelOrigin(_ rect: CGRect, transform m: CATransform3D, image: CGImage, source: CGRect) -> CGRect {
        CGRect(x: rect.minX + m.m41 - source.minX * CGFloat(image.width),
               y: rect.minY + m.m42 - source.minY * CGFloat(image.height), width: 0, height: 0)
    }

    /// Draws the collected batch in one instanced call (or one polygon, given its corners).
    private func flush(polygon: [GLfloat]? = nil) {
        defer {
            batchKey = nil
            instanceData.removeAll(keepingCapacity: true)
            instanceCount = 0
        }
        guard let key = batchKey, instanceCount > 0 else { return }
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
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        instanceData.withUnsafeBytes {
            glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        guard let polygon else {
            return glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(instanceCount))
        }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), polygonBuffer)
        polygon.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_FAN), 0, GLsizei(polygon.count / 2), 1)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
    }

    private func setUniforms(_ g: GradientPaint) {
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
    private func use(_ variant: LayerProgram.Variant) {
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

    private func evictUnusedTextures() {
        frameNumber += 1
        guard frameNumber % 8 == 0 else { return }
        for (key, lastUse) in textureUse where frameNumber - lastUse > Self.textureLifetime {
            if var texture = textures.removeValue(forKey: key)?.texture { glDeleteTextures(1, &texture) }
            textureUse.removeValue(forKey: key)
        }
    }

    /// Deletes the texture of `image`, if one was uploaded (video frames are drawn once).
    public func forget(_ image: CGImage) {
        guard let entry = textures.removeValue(forKey: ObjectIdentifier(image)) else { return }
        var texture = entry.texture
        glDeleteTextures(1, &texture)
        textureUse.removeValue(forKey: ObjectIdentifier(image))
    }

    /// The texture of a contents image, uploaded on first use and kept while it is drawn.
    private func texture(for image: CGImage, images: ImageProvider, mipmapped: Bool) -> GLuint? {
        let key = ObjectIdentifier(image)
        textureUse[key] = frameNumber
        if let entry = textures[key] {
            if mipmapped, !entry.mipmapped {
                glBindTexture(GLenum(GL_TEXTURE_2D), entry.texture)
                glGenerateMipmap(GLenum(GL_TEXTURE_2D))
                textures[key] = (entry.texture, image, true, entry.opaque)
            }
            return entry.texture
        }
        guard let pixels = images.pixels(for: image) else { return nil }
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        pixels.pixels.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(pixels.width), GLsizei(pixels.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        // Sampling outside the image repeats the edge pixels (§11.4).
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        if mipmapped { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
        let opaque = pixels.isOpaque
        textures[key] = (texture, image, mipmapped, opaque)
        return texture
    }

    /// The render target for pass `index`, reused across frames while its size is unchanged.
    private func target(_ index: Int, width: Int, height: Int) -> Target {
        if index < targets.count, targets[index].width == width, targets[index].height == height { return targets[index] }
        var texture: GLuint = 0
        var framebuffer: GLuint = 0
        var depth: GLuint = 0
        if index < targets.count {
            texture = targets[index].texture
            framebuffer = targets[index].framebuffer
            depth = targets[index].depth
        } else {
            glGenTextures(1, &texture)
            glGenFramebuffers(1, &framebuffer)
            glGenRenderbuffers(1, &depth)
        }
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), depth)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH_COMPONENT16), GLsizei(width), GLsizei(height))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_ATTACHMENT), GLenum(GL_RENDERBUFFER), depth)
        let target = Target(framebuffer: framebuffer, texture: texture, depth: depth, width: width, height: height)
        if index < targets.count { targets[index] = target } else { targets.append(target) }
        return target
    }

    /// Reads the bound framebuffer. Its row 0 is the image's top row (the projection put it there).
    private func readFrame(width: Int, height: Int) -> Image? {
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

    private func checkErrors(_ stage: String) {
        #if DEBUG
        let error = glGetError()
        assert(error == GL_NO_ERROR, "GL error 0x\(String(error, radix: 16)) during \(stage)")
        #endif
    }
}

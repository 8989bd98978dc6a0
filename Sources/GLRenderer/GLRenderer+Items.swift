import Foundation
import CEGL
import Geometry
import Rendering

// How a pass's items become batches of quads: opaque ones first, front to back, then the rest in
// painter's order.

extension GLRenderer {
    /// Draws a pass's items in painter's order, except that fully opaque items are drawn first,
    /// front to back, writing depth where one can hide another: every pixel they hide is then
    /// rejected before shading (on llvmpipe shading is the cost). Translucent items follow in
    /// order, tested but not writing depth, with the corners a body carries (`BodyCorners`).
    func drawItems(_ items: [DrawItem], images: ImageProvider, passTextures: [Int: GLuint]) {
        let count = items.count
        func depth(_ i: Int) -> GLfloat { 1 - GLfloat(i + 1) / GLfloat(count + 1) }
        // Which items are opaque, asked once per item (indexed, not hashed, on the per-frame path).
        let isOpaqueItem = items.map { isOpaque($0, images: images) }
        let opaque = items.indices.filter { isOpaqueItem[$0] }
        cover = skipsCoveredItems ? OpaqueCover(items, isOpaque: { isOpaqueItem[$0] }) : OpaqueCover()
        coveredCuts = [RoundedCorners?](repeating: nil, count: count)
        defer {
            cover = OpaqueCover()
            coveredCuts.removeAll(keepingCapacity: true)
        }
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
    static func opaqueItemsCoverOthers(_ items: [DrawItem], opaque: [Int]) -> Bool {
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
    func isOpaque(_ item: DrawItem, images: ImageProvider) -> Bool {
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
        case .pass, .tintedPass, .gradient, .blur, .shape: return false
        }
    }

    /// Adds an item (the pass's item `index`, or one of its corners) to the current batch,
    /// drawing the batch first when the item needs other state; nothing when a later opaque
    /// item hides it (`cover`).
    func enqueue(_ item: DrawItem, index: Int, depth: GLfloat, images: ImageProvider, passTextures: [Int: GLuint]) {
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
        case .blur, .shape:
            return  // blurs are drawn above; shapes come rasterized (`render`)
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
            batch.append(item.transform, rect: rect, uv: uv, color: color, shape: s, radii: radii, params: params, band: bandColor)
        }
        // A body is drawn as the pieces that tile it, one instance each.
        if let body = item.body {
            let covered = coveredCorners(of: item, body: body, at: index)
            coveredCuts[index] = covered
            body.pieces(of: item.rect, covered: covered, instance)
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
}

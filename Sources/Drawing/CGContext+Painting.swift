import CCairo
import Foundation
import Geometry

// How one drawing operation reaches the pixels: directly, or — with a shadow or a mask clip —
// drawn into a transparent layer first, whose shadow goes under it and whose composite goes
// through the mask.

extension CGContext {
    /// Core Graphics device space (y up) → cairo's device space (y down).
    var flip: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    /// Sets `cr` to draw in user space, after `local` (a space inside user space); false when
    /// the mapping is singular (nothing can be drawn).
    @discardableResult
    package func useUserSpace(_ cr: OpaquePointer, _ local: CGAffineTransform = .identity) -> Bool {
        let m = local.concatenating(state.ctm).concatenating(flip)
        guard m.isInvertibleForRaster else { return false }
        var matrix = m.cairoMatrix
        cairo_set_matrix(cr, &matrix)
        return true
    }

    /// Sets `cr` to draw in Core Graphics device space (pixels, y up).
    func useDeviceSpace(_ cr: OpaquePointer) {
        var matrix = flip.cairoMatrix
        cairo_set_matrix(cr, &matrix)
    }

    /// `color` with the context's alpha, as cairo's source.
    func setSource(_ color: CGColor, on cr: OpaquePointer) {
        let c = color.clampedComponents
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * Double(state.alpha))
    }

    /// Runs one drawing operation: `draw` paints into the cairo context it is given (setting its
    /// own matrix and source, applying the context's alpha), which is the context's own or an
    /// offscreen layer. Blend mode, shadow and mask clip are applied here.
    package func perform(_ draw: (OpaquePointer) -> Void) {
        operationCount += 1
        defer { writeExternalPixels() }
        let antialias = state.antialias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE
        guard state.shadow != nil || state.mask != nil else {
            cairo_save(cairo)
            cairo_set_antialias(cairo, antialias)
            cairo_set_operator(cairo, state.blendMode.cairoOperator)
            draw(cairo)
            cairo_restore(cairo)
            return
        }
        guard let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return }
        defer { cairo_surface_destroy(layer) }
        guard let cr = cairo_create(layer) else { return }
        cairo_set_antialias(cr, antialias)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(layer)
        if let shadow = state.shadow, let cast = shadowSurface(of: layer, shadow) {
            composite(cast)
            cairo_surface_destroy(cast)
        }
        composite(layer)
    }

    /// Paints a full-size surface onto the pixels with the blend mode, through the mask clip.
    private func composite(_ layer: OpaquePointer) {
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_set_operator(cairo, state.blendMode.cairoOperator)
        cairo_set_source_surface(cairo, layer, 0, 0)
        if let mask = state.mask { cairo_mask_surface(cairo, mask.surface, 0, 0) } else { cairo_paint(cairo) }
        cairo_restore(cairo)
    }

    /// The shadow of `layer`: its alpha, offset and blurred, in the shadow colour.
    private func shadowSurface(of layer: OpaquePointer, _ shadow: Shadow) -> OpaquePointer? {
        guard let cast = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
        guard let cr = cairo_create(cast) else { cairo_surface_destroy(cast); return nil }
        let b = baseTransform
        // The offset is a vector in default user space; cairo's y runs the other way.
        let dx = b.a * shadow.offset.width + b.c * shadow.offset.height
        let dy = -(b.b * shadow.offset.width + b.d * shadow.offset.height)
        let c = shadow.color.clampedComponents
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        cairo_mask_surface(cr, layer, Double(dx), Double(dy))
        cairo_destroy(cr)
        // Core Graphics' blur reads as a Gaussian of σ ≈ blur / 2 in default user space.
        let scale = abs(b.a * b.d - b.b * b.c).squareRoot()
        gaussianBlur(cast, sigma: Double(shadow.blur * scale) / 2)
        return cast
    }

    /// Copies the pixels into the caller's buffer, when there is one.
    func writeExternalPixels() {
        guard let external, let data else { return }
        external.write(from: surface, to: data, bytesPerRow: bytesPerRow)
    }
}

extension CGBlendMode {
    /// cairo's operator for the mode (`plusDarker` has none and draws as `darken`).
    var cairoOperator: cairo_operator_t {
        switch self {
        case .normal: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken, .plusDarker: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: CAIRO_OPERATOR_CLEAR
        case .copy: CAIRO_OPERATOR_SOURCE
        case .sourceIn: CAIRO_OPERATOR_IN
        case .sourceOut: CAIRO_OPERATOR_OUT
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: CAIRO_OPERATOR_DEST_ATOP
        case .xor: CAIRO_OPERATOR_XOR
        case .plusLighter: CAIRO_OPERATOR_ADD
        }
    }
}

/// Blurs an ARGB32 surface in place with three box blurs per axis (a close Gaussian of `sigma` pixels).
func gaussianBlur(_ surface: OpaquePointer, sigma: Double) {
    guard sigma >= 0.5, let data = cairo_image_surface_get_data(surface) else { return }
    cairo_surface_flush(surface)
    let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface)) / 4
    // Three boxes of width w: variance 3·(w² − 1)/12 = σ².
    let radius = max(1, Int(((4 * sigma * sigma + 1).squareRoot() - 1) / 2 + 0.5))
    let words = UnsafeMutableRawPointer(data).bindMemory(to: UInt32.self, capacity: stride * height)
    var line = [UInt32](repeating: 0, count: max(width, height))
    var sums = [SIMD4<Int32>](repeating: .zero, count: max(width, height) + 1)
    func unpack(_ w: UInt32) -> SIMD4<Int32> {
        SIMD4(Int32(w & 0xFF), Int32((w >> 8) & 0xFF), Int32((w >> 16) & 0xFF), Int32(w >> 24))
    }
    func pack(_ v: SIMD4<Int32>) -> UInt32 {
        UInt32(v.x) | UInt32(v.y) << 8 | UInt32(v.z) << 16 | UInt32(v.w) << 24
    }
    // One box pass over `count` words read and written through `index`.
    func pass(count: Int, _ index: (Int) -> Int) {
        for i in 0..<count { line[i] = words[index(i)] }
        sums[0] = .zero
        for i in 0..<count { sums[i + 1] = sums[i] &+ unpack(line[i]) }
        let span = Int32(2 * radius + 1)
        for i in 0..<count {
            let lo = max(0, i - radius), hi = min(count, i + radius + 1)
            words[index(i)] = pack((sums[hi] &- sums[lo]) / SIMD4(repeating: span))
        }
    }
    for _ in 0..<3 {
        for y in 0..<height { pass(count: width) { y * stride + $0 } }
        for x in 0..<width { pass(count: height) { $0 * stride + x } }
    }
    cairo_surface_mark_dirty(surface)
}

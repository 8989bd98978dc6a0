import CCairo
import Foundation
import Geometry

// Images in and out of a context, and clipping to an image mask.

extension CGContext {
    /// Draws `image` scaled into `rect` (user space), its first row at the rectangle's maximum y
    /// — the top in y-up user space, the bottom in a flipped UIKit context; with `byTiling`, the
    /// image at `rect`'s size repeats over the whole clip. Images whose pixels are neither in
    /// memory nor a PNG file draw nothing.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        guard rect.width != 0, rect.height != 0, rect.width.isFinite, rect.height.isFinite,
              let source = Self.surface(for: image) else { return }
        defer { cairo_surface_destroy(source) }
        let w = CGFloat(cairo_image_surface_get_width(source)), h = CGFloat(cairo_image_surface_get_height(source))
        // Image pixel (u, v), v down from the first row → user (minX + u·sx, maxY − v·sy).
        let placement = CGAffineTransform(a: rect.width / w, b: 0, c: 0, d: -rect.height / h, tx: rect.minX, ty: rect.maxY)
        let filter = state.interpolation.cairoFilter
        perform { cr in
            guard useUserSpace(cr, placement) else { return }
            cairo_set_source_surface(cr, source, 0, 0)
            if let pattern = cairo_get_source(cr) {
                cairo_pattern_set_filter(pattern, filter)
                cairo_pattern_set_extend(pattern, byTiling ? CAIRO_EXTEND_REPEAT : CAIRO_EXTEND_PAD)
            }
            if !byTiling {
                // Pad and clip: crisp image edges instead of a fade into transparency.
                cairo_new_path(cr)
                cairo_rectangle(cr, 0, 0, Double(w), Double(h))
                cairo_clip(cr)
            }
            cairo_paint_with_alpha(cr, Double(state.alpha))
        }
    }

    /// The pixels as an image (premultiplied RGBA; grey contexts give grey RGBA), or nil for an
    /// empty context. Core Graphics: `makeImage()`.
    public func makeImage() -> CGImage? {
        var pixels = rgbaPixels(of: surface)
        if colorSpace?.model == .monochrome { toGray(&pixels) }
        return CGImage(width: width, height: height, premultipliedRGBA: pixels)
    }

    /// Intersects the clip with `mask` drawn into `rect`: the drawing shows where the mask is
    /// opaque. An image with transparency masks by its alpha; an opaque one by its brightness
    /// (white shows, black hides), as a grey mask image does in Core Graphics.
    public func clip(to rect: CGRect, mask: CGImage) {
        guard let pixels = Self.rgba(of: mask), let coverage = Self.alphaSurface(maskPixels: pixels, width: mask.width, height: mask.height),
              let target = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else { return }
        defer { cairo_surface_destroy(coverage) }
        if let cr = cairo_create(target) {
            let w = CGFloat(mask.width), h = CGFloat(mask.height)
            let placement = CGAffineTransform(a: rect.width / w, b: 0, c: 0, d: -rect.height / h, tx: rect.minX, ty: rect.maxY)
            if useUserSpace(cr, placement) {
                cairo_set_source_surface(cr, coverage, 0, 0)
                cairo_rectangle(cr, 0, 0, Double(w), Double(h))
                cairo_fill(cr)
            }
            if let existing = state.mask {
                // Both masks apply: keep the product.
                cairo_identity_matrix(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_IN)
                cairo_set_source_surface(cr, existing.surface, 0, 0)
                cairo_paint(cr)
            }
            cairo_destroy(cr)
        }
        state.mask = MaskSurface(target)
    }

    // MARK: - Pixels of images

    /// The premultiplied RGBA pixels of an image: in memory, or read from its PNG file.
    static func rgba(of image: CGImage) -> [UInt8]? {
        if let pixels = image.pixels { return pixels }
        guard let surface = surface(for: image) else { return nil }
        defer { cairo_surface_destroy(surface) }
        return rgbaPixels(of: surface)
    }

    /// A new cairo surface with the image's pixels.
    static func surface(for image: CGImage) -> OpaquePointer? {
        if let pixels = image.pixels { return makeSurface(rgba: pixels, width: image.width, height: image.height) }
        guard let path = image.source, let surface = cairo_image_surface_create_from_png(path) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        return surface
    }

    /// An A8 surface of a mask image's coverage: alpha, or brightness for an opaque image.
    static func alphaSurface(maskPixels pixels: [UInt8], width: Int, height: Int) -> OpaquePointer? {
        guard width > 0, height > 0, let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)),
              let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var opaque = true
        var i = 3
        while i < pixels.count { if pixels[i] != 255 { opaque = false; break }; i += 4 }
        for y in 0..<height {
            for x in 0..<width {
                let p = (y * width + x) * 4
                let value = opaque ? (Int(pixels[p]) * 54 + Int(pixels[p + 1]) * 183 + Int(pixels[p + 2]) * 19) >> 8 : Int(pixels[p + 3])
                data[y * stride + x] = UInt8(min(255, value))
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    /// Replaces colours with their brightness (a grey context's pixels).
    func toGray(_ pixels: inout [UInt8]) {
        for p in Swift.stride(from: 0, to: pixels.count, by: 4) {
            let gray = UInt8(min(255, (Int(pixels[p]) * 54 + Int(pixels[p + 1]) * 183 + Int(pixels[p + 2]) * 19) >> 8))
            pixels[p] = gray; pixels[p + 1] = gray; pixels[p + 2] = gray
        }
    }
}

extension CGInterpolationQuality {
    var cairoFilter: cairo_filter_t {
        switch self {
        case .none: CAIRO_FILTER_NEAREST
        case .low: CAIRO_FILTER_BILINEAR
        case .high: CAIRO_FILTER_BEST
        default: CAIRO_FILTER_GOOD
        }
    }
}

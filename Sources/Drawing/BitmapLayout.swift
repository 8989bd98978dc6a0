import CCairo
import Foundation
import Geometry

/// The byte layout of a caller's bitmap buffer, and the conversions between it and cairo's
/// native 32-bit `0xAARRGGBB` words.
struct BitmapLayout {
    enum Order { case rgba, argb, bgra, abgr, gray }
    let order: Order
    let hasAlpha: Bool

    var bytesPerPixel: Int { order == .gray ? 1 : 4 }

    /// The layout Core Graphics' parameters describe; nil for layouts bitmap contexts here do
    /// not support (16-bit or float components, unpremultiplied alpha, grey with alpha).
    init?(bitsPerComponent: Int, space: CGColorSpace, info: CGBitmapInfo) {
        guard bitsPerComponent == 8, !info.contains(.floatComponents),
              let alpha = CGImageAlphaInfo(rawValue: info.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) else { return nil }
        let order = info.intersection(.byteOrderMask)
        if space.model == .monochrome {
            guard alpha == .none, order == .byteOrderDefault else { return nil }
            self.order = .gray
            hasAlpha = false
            return
        }
        guard space.model == .rgb, order == .byteOrderDefault || order == .byteOrder32Big || order == .byteOrder32Little else { return nil }
        let little = order == .byteOrder32Little
        switch alpha {
        case .premultipliedLast, .noneSkipLast: self.order = little ? .abgr : .rgba
        case .premultipliedFirst, .noneSkipFirst: self.order = little ? .bgra : .argb
        default: return nil
        }
        hasAlpha = alpha == .premultipliedLast || alpha == .premultipliedFirst
    }

    /// Loads the caller's pixels into the surface (a context draws over what the buffer holds).
    func read(from data: UnsafeMutableRawPointer, bytesPerRow: Int, into surface: OpaquePointer) {
        guard let pixels = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<height {
            let from = data + y * bytesPerRow, to = UnsafeMutableRawPointer(pixels) + y * stride
            for x in 0..<width {
                let (a, r, g, b) = components(at: from + x * bytesPerPixel)
                to.storeBytes(of: UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b), toByteOffset: x * 4, as: UInt32.self)
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Writes the surface's pixels into the caller's buffer.
    func write(from surface: OpaquePointer, to data: UnsafeMutableRawPointer, bytesPerRow: Int) {
        guard let pixels = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<height {
            let from = UnsafeRawPointer(pixels) + y * stride, to = data + y * bytesPerRow
            for x in 0..<width {
                let word = from.load(fromByteOffset: x * 4, as: UInt32.self)
                let a = hasAlpha ? UInt8(word >> 24) : 255
                let r = UInt8((word >> 16) & 0xFF), g = UInt8((word >> 8) & 0xFF), b = UInt8(word & 0xFF)
                let p = to + x * bytesPerPixel
                switch order {
                case .rgba: p.storeBytes(of: r, as: UInt8.self); (p + 1).storeBytes(of: g, as: UInt8.self)
                    (p + 2).storeBytes(of: b, as: UInt8.self); (p + 3).storeBytes(of: a, as: UInt8.self)
                case .argb: p.storeBytes(of: a, as: UInt8.self); (p + 1).storeBytes(of: r, as: UInt8.self)
                    (p + 2).storeBytes(of: g, as: UInt8.self); (p + 3).storeBytes(of: b, as: UInt8.self)
                case .bgra: p.storeBytes(of: b, as: UInt8.self); (p + 1).storeBytes(of: g, as: UInt8.self)
                    (p + 2).storeBytes(of: r, as: UInt8.self); (p + 3).storeBytes(of: a, as: UInt8.self)
                case .abgr: p.storeBytes(of: a, as: UInt8.self); (p + 1).storeBytes(of: b, as: UInt8.self)
                    (p + 2).storeBytes(of: g, as: UInt8.self); (p + 3).storeBytes(of: r, as: UInt8.self)
                case .gray:
                    p.storeBytes(of: UInt8(min(255, (Int(r) * 54 + Int(g) * 183 + Int(b) * 19) >> 8)), as: UInt8.self)
                }
            }
        }
    }

    /// (a, r, g, b) of the pixel at `p` (alpha 255 when the layout has none).
    private func components(at p: UnsafeMutableRawPointer) -> (UInt8, UInt8, UInt8, UInt8) {
        let bytes = (0..<bytesPerPixel).map { p.load(fromByteOffset: $0, as: UInt8.self) }
        let result: (UInt8, UInt8, UInt8, UInt8) = switch order {
        case .rgba: (bytes[3], bytes[0], bytes[1], bytes[2])
        case .argb: (bytes[0], bytes[1], bytes[2], bytes[3])
        case .bgra: (bytes[3], bytes[2], bytes[1], bytes[0])
        case .abgr: (bytes[0], bytes[3], bytes[2], bytes[1])
        case .gray: (255, bytes[0], bytes[0], bytes[0])
        }
        return hasAlpha ? result : (255, result.1, result.2, result.3)
    }
}

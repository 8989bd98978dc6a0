import CCairo
import Foundation
import Geometry
import Rendering

/// One cairo ARGB32 image surface and its drawing context, alive for one rasterization.
///
/// cairo stores pixels as native-endian 32-bit words `0xAARRGGBB`, premultiplied, with a row
/// stride that may exceed `width · 4`; ``image()`` repacks them into ``Image``'s RGBA byte order.
final class CairoCanvas {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let context: OpaquePointer

    /// A transparent canvas; `nil` when a side is not positive or cairo refuses the size.
    init?(width: Int, height: Int) {
        // cairo's own limit is 32767 per side; Image's is 32768.
        guard width > 0, height > 0, width < 1 << 15, height < 1 << 15 else { return nil }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        self.width = width
        self.height = height
        self.surface = surface
        self.context = context
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The surface's pixels as a premultiplied RGBA8 image, top row first.
    func image() -> Image? {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let (width, height) = (self.width, self.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let source = UnsafeRawPointer(data)
        pixels.withUnsafeMutableBufferPointer { bytes in
            // Whole 32-bit words: a byte-wise loop does not vectorize (toolchain notes).
            bytes.withMemoryRebound(to: UInt32.self) { out in
                for y in 0..<height {
                    let row = source + y * stride
                    let base = y * width
                    for x in 0..<width {
                        let argb = row.load(fromByteOffset: x * 4, as: UInt32.self)
                        // 0xAARRGGBB → 0xAABBGGRR, stored little-endian: bytes R, G, B, A.
                        let abgr = (argb & 0xFF00_FF00) | ((argb >> 16) & 0xFF) | ((argb & 0xFF) << 16)
                        out[base + x] = abgr.littleEndian
                    }
                }
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}

extension CGColor {
    /// The components clamped to 0…1, as cairo and Pango expect them (straight alpha).
    var clampedComponents: (red: Double, green: Double, blue: Double, alpha: Double) {
        func clamp(_ v: CGFloat) -> Double { v.isNaN ? 0 : Double(min(max(v, 0), 1)) }
        return (clamp(red), clamp(green), clamp(blue), clamp(alpha))
    }
}

import CCairo
import Foundation

// cairo stores pixels as native-endian 32-bit words 0xAARRGGBB, premultiplied, rows `stride`
// bytes apart; Lamina's images are premultiplied RGBA bytes, top row first. Whole 32-bit words
// are converted at a time: a byte-wise loop does not vectorize (toolchain notes).

/// The RGBA bytes of an ARGB32 (or RGB24, alpha forced opaque) cairo image surface.
package func rgbaPixels(of surface: OpaquePointer) -> [UInt8] {
    cairo_surface_flush(surface)
    let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
    guard width > 0, height > 0, let data = cairo_image_surface_get_data(surface) else { return [] }
    let stride = Int(cairo_image_surface_get_stride(surface))
    let opaque: UInt32 = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24 ? 0xFF00_0000 : 0
    let source = UnsafeRawPointer(data)
    let count = width * height * 4
    // Every byte is written below: no zero fill first (rasters are made every frame).
    return [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
        bytes.withMemoryRebound(to: UInt32.self) { out in
            for y in 0..<height {
                let row = source + y * stride
                let base = y * width
                for x in 0..<width {
                    let argb = row.load(fromByteOffset: x * 4, as: UInt32.self) | opaque
                    // 0xAARRGGBB → 0xAABBGGRR, stored little-endian: bytes R, G, B, A.
                    out[base + x] = ((argb & 0xFF00_FF00) | ((argb >> 16) & 0xFF) | ((argb & 0xFF) << 16)).littleEndian
                }
            }
        }
        initialized = count
    }
}

/// A new ARGB32 cairo surface holding premultiplied RGBA `pixels`; nil when cairo refuses the size.
package func makeSurface(rgba pixels: [UInt8], width: Int, height: Int) -> OpaquePointer? {
    guard width > 0, height > 0, width < 1 << 15, height < 1 << 15, pixels.count == width * height * 4,
          let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
        cairo_surface_destroy(surface)
        return nil
    }
    let stride = Int(cairo_image_surface_get_stride(surface))
    pixels.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: UInt32.self) { input in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data) + y * stride
                for x in 0..<width {
                    let rgba = UInt32(littleEndian: input[y * width + x])  // bytes R, G, B, A
                    row.storeBytes(of: (rgba & 0xFF00_FF00) | ((rgba >> 16) & 0xFF) | ((rgba & 0xFF) << 16),
                                   toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }
    }
    cairo_surface_mark_dirty(surface)
    return surface
}

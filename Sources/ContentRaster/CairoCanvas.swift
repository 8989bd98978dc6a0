import CCairo
import Drawing
import Foundation
import Geometry
import Rendering

/// One cairo ARGB32 image surface and its drawing context, alive for one rasterization.
///
/// ``image()`` repacks cairo's native pixels into ``Image``'s RGBA byte order.
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
    func image() -> Image? { Image(width: width, height: height, pixels: rgbaPixels(of: surface)) }
}

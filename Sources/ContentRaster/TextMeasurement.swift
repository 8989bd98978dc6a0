import CCairo
import CPangoCairo
import Foundation
import Geometry
import Layers

/// The size text takes on one line, measured with Pango and the fonts Lamina draws with (a
/// substituted font measures as the font that will be drawn), so that ported code that sizes
/// a `CATextLayer` to its text keeps doing so mechanically.
public enum TextMeasurement {
    /// The logical size in points of `runs` laid out without wrapping (explicit line breaks
    /// still start new lines).
    public static func size(of runs: [TextRun], defaultFont: String = "Helvetica", defaultSize: CGFloat = 12) -> CGSize {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return .zero }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return .zero }
        defer { cairo_destroy(cr) }
        guard let context = pango_cairo_create_context(cr) else { return .zero }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        TextRasterizer.configureFontOptions(of: context)
        guard let layout = pango_layout_new(context) else { return .zero }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let resolved = runs.map { run in
            TextRasterRun(text: run.text, font: run.font ?? defaultFont, fontSize: run.fontSize ?? defaultSize, color: .black)
        }
        _ = TextRasterizer.applyText(resolved, to: layout, context: context)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let units = Double(PANGO_SCALE)
        return CGSize(width: (Double(logical.width) / units).rounded(.up), height: (Double(logical.height) / units).rounded(.up))
    }
}

extension String {
    /// UIKit's `size(withAttributes:)`: the size of the string on one line in `.font` (a
    /// `UIFont` or a font name; Helvetica 12 when absent), measured with the font Lamina draws.
    public func size(withAttributes attributes: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        var run = TextRun(text: self)
        switch attributes?[.font] {
        case let font as UIFont: run.font = font.fontName; run.fontSize = font.pointSize
        case let name as String: run.font = name
        default: break
        }
        return TextMeasurement.size(of: [run])
    }
}

extension NSAttributedString {
    /// UIKit's `size()`: the size of the attributed string on one line.
    public func size() -> CGSize { TextMeasurement.size(of: CATextLayer.runs(of: self)) }
}

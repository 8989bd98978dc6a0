import CCairo
import CPangoCairo
import Drawing
import Foundation
import Geometry
import Layers

// UIKit's string drawing into the current graphics context (`UIGraphicsGetCurrentContext()`),
// laid out with Pango as text layers are: `.font` (a `UIFont` or a name; Helvetica 12 when
// absent), `.foregroundColor` (`UIColor` or `CGColor`; black when absent) and the alignment of
// `.paragraphStyle`. Text is drawn y-down from its top left, so it is upright in UIKit's
// flipped contexts (and upside down in a plain y-up bitmap context, as on Apple).

extension NSAttributedString {
    /// Draws the string on one line (explicit line breaks still break) with its top left at `point`.
    public func draw(at point: CGPoint) {
        drawText(CATextLayer.runs(of: self), origin: point, width: nil, clip: nil, alignment: alignment)
    }

    /// Draws the string wrapped at word boundaries to the width of `rect`, aligned by its
    /// paragraph style, cut off at the rectangle's edges.
    public func draw(in rect: CGRect) {
        drawText(CATextLayer.runs(of: self), origin: rect.origin, width: rect.width, clip: rect, alignment: alignment)
    }

    /// The alignment of the first paragraph style, as a text layer's mode.
    var alignment: CATextLayerAlignmentMode {
        guard length > 0, let style = attribute(.paragraphStyle, at: 0, effectiveRange: nil) as? NSParagraphStyle else { return .natural }
        return style.alignment.alignmentMode
    }
}

extension String {
    /// Draws the string on one line with its top left at `point`. UIKit: `draw(at:withAttributes:)`.
    public func draw(at point: CGPoint, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        NSAttributedString(string: self, attributes: attributes).draw(at: point)
    }

    /// Draws the string wrapped into `rect`. UIKit: `draw(in:withAttributes:)`.
    public func draw(in rect: CGRect, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        NSAttributedString(string: self, attributes: attributes).draw(in: rect)
    }
}

extension NSTextAlignment {
    var alignmentMode: CATextLayerAlignmentMode {
        switch self {
        case .left: .left
        case .center: .center
        case .right: .right
        case .justified: .justified
        case .natural: .natural
        }
    }
}

/// Lays out `runs` and paints them into the current context.
private func drawText(_ runs: [TextRun], origin: CGPoint, width: CGFloat?, clip: CGRect?, alignment: CATextLayerAlignmentMode) {
    guard let context = UIGraphicsGetCurrentContext(), !runs.isEmpty else { return }
    let resolved = runs.map(TextRasterRun.init)
    let alpha = context.alpha
    context.perform { cr in
        guard context.useUserSpace(cr) else { return }
        if let clip {
            cairo_rectangle(cr, Double(clip.minX), Double(clip.minY), Double(clip.width), Double(clip.height))
            cairo_clip(cr)
        }
        cairo_translate(cr, Double(origin.x), Double(origin.y))
        guard let pango = pango_cairo_create_context(cr) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(pango)) }
        TextRasterizer.configureFontOptions(of: pango)
        guard let layout = pango_layout_new(pango) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        _ = TextRasterizer.applyText(resolved, to: layout, context: pango)
        if let width {
            pango_layout_set_width(layout, lamina_pango_units_from_double(Double(max(0, min(width, 1_000_000)))))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        if alpha < 1 { cairo_push_group(cr) }
        _ = TextRasterizer.drawLines(of: layout, alignment: width == nil ? .left : alignment,
                                     width: Double(width ?? 0), on: cr)
        if alpha < 1 {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, Double(alpha))
        }
    }
}

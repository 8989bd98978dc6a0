import CCairo
import CPangoCairo
import Drawing
import Foundation
import Geometry
import Layers
import Rendering

/// Draws text-layer content into a premultiplied RGBA8 image with Pango (HarfBuzz shaping,
/// bidi, line breaking, ellipsizing) and fontconfig (font matching), following `CATextLayer`'s
/// rules (§15.3): the first line's top at the top edge, lines placed within the bounds width,
/// grey-scale anti-aliasing (never sub-pixel), text past the bounds cut off.
public enum TextRasterizer {
    /// The image of `input`, with a warning for every font that had to be substituted.
    public static func rasterize(_ input: TextRasterInput) -> RasterizedText {
        let (pixelWidth, pixelHeight) = input.pixelSize
        guard let canvas = CairoCanvas(width: pixelWidth, height: pixelHeight) else {
            return RasterizedText(image: nil, warnings: [], lineCount: 0)
        }
        let cr = canvas.context
        let scale = Double(input.scale > 0 && input.scale.isFinite ? input.scale : 1)
        // Lay out in points; the CTM scales to pixels. Pango reads the CTM when the context is made.
        cairo_scale(cr, scale, scale)
        if let region = input.region { cairo_translate(cr, -Double(region.minX), -Double(region.minY)) }
        lamina_pango_refresh_application_fonts()
        guard let context = pango_cairo_create_context(cr) else {
            return RasterizedText(image: canvas.image(), warnings: [], lineCount: 0)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        configureFontOptions(of: context)

        guard let layout = pango_layout_new(context) else {
            return RasterizedText(image: canvas.image(), warnings: [], lineCount: 0)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let warnings = applyText(input.resolvedRuns, to: layout, context: context)
        configureLayout(layout, for: input)
        let lineCount = drawLines(of: layout, alignment: input.alignmentMode,
                                  width: Double(input.size.width), on: cr)
        return RasterizedText(image: canvas.image(), warnings: warnings, lineCount: lineCount,
                              isTruncated: pango_layout_is_ellipsized(layout) != 0)
    }

    /// Grey-scale anti-aliasing (CATextLayer never uses sub-pixel AA) and no hinting, so glyph
    /// positions scale exactly with `contentsScale` instead of snapping to the pixel grid.
    static func configureFontOptions(of context: OpaquePointer) {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    /// Sets the text and one font/colour attribute per run; returns the substitution warnings.
    static func applyText(_ runs: [TextRasterRun], to layout: OpaquePointer, context: OpaquePointer) -> [String] {
        // A NUL would end the C string early and shift every byte index after it.
        let runs = runs.map { run in
            var run = run
            run.text = run.text.replacingOccurrences(of: "\0", with: "")
            return run
        }
        pango_layout_set_text(layout, runs.map(\.text).joined(), -1)
        guard let attributes = pango_attr_list_new() else { return [] }
        defer { pango_attr_list_unref(attributes) }
        var warnings: [String] = []
        var checked = Set<FontName>()
        var start: UInt32 = 0
        for (index, run) in runs.enumerated() {
            let fontName = run.fontName
            guard let description = fontDescription(fontName, size: run.fontSize) else { continue }
            defer { pango_font_description_free(description) }
            if checked.insert(fontName).inserted,
               let warning = substitutionWarning(for: run.font, name: fontName, description: description, context: context) {
                warnings.append(warning)
            }
            // The first run's font also sets the height of empty lines and of empty text.
            if index == 0 { pango_layout_set_font_description(layout, description) }
            let end = start + UInt32(run.text.utf8.count)
            defer { start = end }
            guard end > start else { continue }
            let c = run.color.clampedComponents
            func channel(_ v: Double) -> UInt16 { UInt16((v * 65535).rounded()) }
            // Pango reads alpha 0 as "not set" (opaque), so fully transparent becomes 1/65535.
            for attribute in [pango_attr_font_desc_new(description),
                              pango_attr_foreground_new(channel(c.red), channel(c.green), channel(c.blue)),
                              pango_attr_foreground_alpha_new(max(1, channel(c.alpha)))] {
                guard let attribute else { continue }
                attribute.pointee.start_index = start
                attribute.pointee.end_index = end
                pango_attr_list_insert(attributes, attribute)  // takes ownership
            }
        }
        pango_layout_set_attributes(layout, attributes)
        return warnings
    }

    /// Width, wrapping, ellipsizing and justification from the layer's options.
    static func configureLayout(_ layout: OpaquePointer, for input: TextRasterInput) {
        let width = lamina_pango_units_from_double(Double(max(0, min(input.size.width, 1_000_000))))
        let height = lamina_pango_units_from_double(Double(max(0, min(input.size.height, 1_000_000))))
        let ellipsize: PangoEllipsizeMode = switch input.truncationMode {
        case .start: PANGO_ELLIPSIZE_START
        case .middle: PANGO_ELLIPSIZE_MIDDLE
        case .end: PANGO_ELLIPSIZE_END
        default: PANGO_ELLIPSIZE_NONE
        }
        let truncates = ellipsize != PANGO_ELLIPSIZE_NONE
        // Without wrapping or truncation only explicit breaks end lines: no width at all.
        guard input.isWrapped || truncates else { return }
        pango_layout_set_width(layout, width)
        // Word boundaries first; a word wider than the bounds breaks between characters.
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, ellipsize)
        if truncates {
            // Wrapped: keep the lines that fit the bounds height and ellipsize the last of them.
            // Not wrapped: a negative height means one line per paragraph, each ellipsized.
            pango_layout_set_height(layout, input.isWrapped ? max(height, 1) : -1)
        }
        // Pango never stretches a paragraph's last line, as Core Text's justified mode.
        pango_layout_set_justify(layout, input.alignmentMode == .justified && input.isWrapped ? 1 : 0)
    }

    /// Draws every line at its baseline, placed horizontally by `alignment` within `width`
    /// points; returns the number of lines. Lines are placed here rather than by Pango because
    /// Pango swaps explicit left and right for right-to-left paragraphs, Core Text does not.
    static func drawLines(of layout: OpaquePointer, alignment: CATextLayerAlignmentMode, width: Double,
                          on cr: OpaquePointer) -> Int {
        guard let iterator = pango_layout_get_iter(layout) else { return 0 }
        defer { pango_layout_iter_free(iterator) }
        let unit = Double(PANGO_SCALE)
        var count = 0
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iterator) else { continue }
            count += 1
            var logical = PangoRectangle()
            pango_layout_line_get_extents(line, nil, &logical)
            let lineX = Double(logical.x) / unit, lineWidth = Double(logical.width) / unit
            let direction = pango_layout_line_get_resolved_direction(line)
            let rightToLeft = direction == PANGO_DIRECTION_RTL || direction == PANGO_DIRECTION_WEAK_RTL
            let left: Double = switch alignment {
            case .left: 0
            case .right: width - lineWidth
            case .center: (width - lineWidth) / 2
            // natural, justified (stretched lines fill the width; the last one is natural), unknown
            default: rightToLeft ? width - lineWidth : 0
            }
            let baseline = Double(pango_layout_iter_get_baseline(iterator)) / unit
            cairo_move_to(cr, left - lineX, baseline)
            pango_cairo_show_layout_line(cr, line)
        } while pango_layout_iter_next_line(iterator) != 0
        return count
    }

    /// A Pango font description for `name` at `size` points (em size in user space = points).
    static func fontDescription(_ name: FontName, size: CGFloat) -> OpaquePointer? {
        guard let description = pango_font_description_new() else { return nil }
        pango_font_description_set_family(description, name.family)
        pango_font_description_set_weight(description, PangoWeight(rawValue: numericCast(min(max(name.weight, 100), 1000))))
        pango_font_description_set_style(description, name.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        let stretch = Int(PANGO_STRETCH_NORMAL.rawValue) + min(max(name.stretch, -4), 4)
        pango_font_description_set_stretch(description, PangoStretch(rawValue: numericCast(stretch)))
        let points = size.isFinite ? max(Double(size), 1.0 / 1024) : 12
        pango_font_description_set_absolute_size(description, points * Double(PANGO_SCALE))
        return description
    }

    /// A warning when fontconfig resolves `description` to another family than requested,
    /// naming the face actually used; nil when the family is installed or generic.
    static func substitutionWarning(for requested: String, name: FontName, description: OpaquePointer,
                                    context: OpaquePointer) -> String? {
        guard !FontName.genericFamilies.contains(name.matchKey) else { return nil }
        guard let font = pango_context_load_font(context, description) else {
            return "font \"\(requested)\" is not installed and no substitute was found"
        }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        guard let actual = pango_font_describe(font) else { return nil }
        defer { pango_font_description_free(actual) }
        let family = pango_font_description_get_family(actual).map { String(cString: $0) } ?? ""
        // fontconfig compares families ignoring case and spaces; so do we.
        guard FontName.matchKey(family) != name.matchKey else { return nil }
        pango_font_description_unset_fields(actual, PANGO_FONT_MASK_SIZE)
        var used = family
        if let text = pango_font_description_to_string(actual) {
            used = String(cString: text)
            g_free(text)
        }
        return "font \"\(requested)\" is not installed; using \"\(used)\""
    }
}

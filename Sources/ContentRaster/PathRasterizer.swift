import CCairo
import Drawing
import Foundation
import Geometry
import Layers
import Rendering

/// Paints shape-layer content — a path filled, then stroked — into a premultiplied RGBA8
/// image with cairo (anti-aliased), following `CAShapeLayer`'s rules (§15.1).
public enum PathRasterizer {
    /// The image for `input`, or nil when its pixel size is empty or too large.
    /// An absent or empty path gives a transparent image.
    public static func rasterize(_ input: ShapeRasterInput) -> Image? {
        #if _endian(little)
        return rasterizeInPlace(input)
        #else
        return rasterizeConverting(input)
        #endif
    }

    /// cairo draws into a surface of its own (native 0xAARRGGBB words), repacked into RGBA bytes.
    package static func rasterizeConverting(_ input: ShapeRasterInput) -> Image? {
        guard let canvas = CairoCanvas(width: input.pixelWidth, height: input.pixelHeight) else { return nil }
        if let path = input.path, !path.isEmpty, input.transform.isInvertibleForRaster {
            draw(path, style: input.style, transform: input.transform, on: canvas.context)
        }
        return canvas.image()
    }

    /// cairo draws straight into the image's bytes, with red and blue exchanged in the colours:
    /// its native 0xAARRGGBB word then holds 0xAABBGGRR, stored little-endian as the bytes R, G,
    /// B, A, and a solid fill or stroke treats the channels alike, so these are the bytes
    /// `rasterizeConverting` repacks — without a second surface, a copy or a repacking pass, which
    /// a large animated shape paid every frame.
    package static func rasterizeInPlace(_ input: ShapeRasterInput) -> Image? {
        let width = input.pixelWidth, height = input.pixelHeight
        guard width > 0, height > 0, width < 1 << 15, height < 1 << 15 else { return nil }
        var drawn = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { bytes, initialized in
            initialized = bytes.count
            drawn = rasterize(input, rows: 0..<height, into: bytes.baseAddress!)
        }
        return drawn ? Image(width: width, height: height, pixels: pixels) : nil
    }

    /// Rows `rows` of `input`'s raster (row 0 its top) into `pixels`, `input.pixelWidth` pixels
    /// a row, as `rasterize` makes them: the same bytes, a band of the raster at a time (cairo's
    /// edges keep their lines when the band cuts them, and a move by whole rows moves its fixed
    /// point by whole units). False where cairo cannot draw into the bytes (nothing written).
    public static func rasterize(_ input: ShapeRasterInput, rows: Range<Int>, into pixels: UnsafeMutablePointer<UInt8>) -> Bool {
        let width = input.pixelWidth
        // cairo's own limit is 32767 per side; Image's is 32768.
        guard width > 0, width < 1 << 15, !rows.isEmpty, rows.count < 1 << 15, rows.lowerBound >= 0,
              rows.upperBound <= input.pixelHeight,
              Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))) == width * 4,
              let surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, Int32(width), Int32(rows.count),
                                                                Int32(width * 4)) else { return false }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else { return false }
        // Cleared by cairo, so it knows the surface is clear, as it knows a surface it made
        // is: its first fill then takes the same path (one that rounds a little differently
        // from source-over onto pixels it cannot tell are transparent).
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_paint(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        if let path = input.path, !path.isEmpty, input.transform.isInvertibleForRaster {
            var transform = input.transform
            transform.ty -= CGFloat(rows.lowerBound)
            draw(path, style: input.style.swappingRedAndBlue, transform: transform, on: context)
        }
        cairo_destroy(context)
        cairo_surface_finish(surface)  // every pixel written before the bytes are read
        return true
    }

    /// The image of `path` painted with `style` at `pixelWidth`×`pixelHeight` pixels, with
    /// `transform` mapping layer points to pixels; nil when the size is empty or too large.
    public static func rasterize(_ path: CGPath?, style: ShapeStyle, pixelWidth: Int, pixelHeight: Int,
                                 transform: CGAffineTransform) -> Image? {
        rasterize(ShapeRasterInput(path: path, style: style, pixelWidth: pixelWidth,
                                   pixelHeight: pixelHeight, transform: transform))
    }

    /// The rectangle (layer points) that `path` painted with `style` can touch: its curve
    /// bounds grown by the reach of the stroke (half the width, times the miter limit for
    /// miter joins or √2 for square caps). `CGRect.null` for an empty path.
    public static func paintedBounds(of path: CGPath, style: ShapeStyle) -> CGRect {
        let box = path.boundingBoxOfPath
        guard !box.isNull else { return box }
        let outset = style.strokeOutset
        return box.insetBy(dx: -outset, dy: -outset)
    }

    /// Fills, then strokes, in user space = layer points (the CTM maps them to pixels, so the
    /// line width and dashes scale with them).
    static func draw(_ path: CGPath, style: ShapeStyle, transform: CGAffineTransform, on cr: OpaquePointer) {
        var matrix = transform.cairoMatrix
        cairo_set_matrix(cr, &matrix)
        let (trimStart, trimEnd) = style.clampedTrim
        // Measured once and shared by the fill (when trimmed) and the stroke.
        let measure = style.isTrimmed ? PathMeasure(path) : nil
        let trimmed = measure?.trimmedPath(fromFraction: trimStart, toFraction: trimEnd)

        if let fill = style.fillColor, fill.alpha > 0 {
            let elements = style.trimsFill ? (trimmed ?? path).elements : path.elements
            if !elements.isEmpty {
                cairo_new_path(cr)
                appendCairoPath(elements, to: cr)
                cairo_set_fill_rule(cr, style.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                setSource(fill, on: cr)
                cairo_fill(cr)
            }
        }

        guard style.strokes, let strokeColor = style.strokeColor else { return }
        let strokePath = trimmed ?? path
        guard !strokePath.isEmpty else { return }  // strokeStart ≥ strokeEnd: nothing, no cap dots
        cairo_set_line_width(cr, Double(style.lineWidth))
        cairo_set_line_cap(cr, lineCap(style.lineCap))
        cairo_set_line_join(cr, lineJoin(style.lineJoin))
        cairo_set_miter_limit(cr, Double(style.miterLimit.isFinite ? max(style.miterLimit, 1) : 10))

        guard let dashes = style.effectiveDashes else {
            cairo_new_path(cr)
            appendCairoPath(strokePath.elements, to: cr)
            setSource(strokeColor, on: cr)
            cairo_stroke(cr)
            return
        }
        // Dashes are laid out along the untrimmed path (§15.1), so a piece that starts inside a
        // subpath continues the pattern from where that subpath had reached; cairo restarts the
        // pattern at every subpath, which is right for all the others.
        let period = dashes.reduce(0, +)
        let phase = Double(style.lineDashPhase.isFinite ? style.lineDashPhase : 0)
        var pieces: [(elements: ArraySlice<PathElement>, advance: Double)] = [(strokePath.elements[...], 0)]
        if let measure, let trimmed {
            let lower = trimStart * measure.length
            let advance = Double(lower - subpathStart(containing: lower, in: path, measure: measure))
            if advance > 0 {
                let rest = trimmed.elements.dropFirst().firstIndex { if case .move = $0 { true } else { false } }
                let end = rest ?? trimmed.elements.endIndex
                pieces = [(trimmed.elements[..<end], advance)]
                if end < trimmed.elements.endIndex { pieces.append((trimmed.elements[end...], 0)) }
            }
        }
        func stroke(_ piece: (elements: ArraySlice<PathElement>, advance: Double)) {
            var offset = (phase + piece.advance).truncatingRemainder(dividingBy: period)
            if offset < 0 { offset += period }  // cairo treats a negative offset as 0
            cairo_set_dash(cr, dashes, Int32(dashes.count), offset)
            cairo_new_path(cr)
            appendCairoPath(piece.elements, to: cr)
            cairo_stroke(cr)
        }
        if pieces.count == 1 {
            setSource(strokeColor, on: cr)
            stroke(pieces[0])
        } else {
            // Two strokes with different dash offsets: paint their union as one coverage mask,
            // so a translucent stroke is not darkened where the pieces overlap.
            cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            pieces.forEach(stroke)
            let mask = cairo_pop_group(cr)
            setSource(strokeColor, on: cr)
            cairo_mask(cr, mask)
            cairo_pattern_destroy(mask)
        }
    }

    /// The arc length at which the subpath holding `distance` starts: the last subpath start
    /// at or before it (a subpath that ends exactly there yields to the next one).
    static func subpathStart(containing distance: CGFloat, in path: CGPath, measure: PathMeasure) -> CGFloat {
        // Walks the elements as PathMeasure does: every drawing element after a current point,
        // `closeSubpath` included, is one segment.
        var segment = 0
        var running: CGFloat = 0
        var hasCurrentPoint = false
        var start: CGFloat = 0
        for element in path.elements {
            switch element {
            case .move:
                hasCurrentPoint = true
                if running <= distance { start = running }
            case .line, .quadCurve, .curve, .closeSubpath:
                if hasCurrentPoint, segment < measure.segmentLengths.count {
                    running += measure.segmentLengths[segment]
                    segment += 1
                } else if case .closeSubpath = element {
                    continue  // a close with nothing before it draws nothing
                } else {
                    hasCurrentPoint = true  // a drawing element without a move acts as one
                    if running <= distance { start = running }
                }
            }
        }
        return start
    }

    static func setSource(_ color: CGColor, on cr: OpaquePointer) {
        let c = color.clampedComponents
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }

    static func lineCap(_ cap: CAShapeLayerLineCap) -> cairo_line_cap_t {
        switch cap {
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        default: CAIRO_LINE_CAP_BUTT
        }
    }

    static func lineJoin(_ join: CAShapeLayerLineJoin) -> cairo_line_join_t {
        switch join {
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        default: CAIRO_LINE_JOIN_MITER
        }
    }
}

import Foundation
import Geometry
import Layers
import Presentation

/// A colour with premultiplied alpha, components 0…1 (what blending works on).
public struct PremultipliedColor: Sendable, Equatable, CustomStringConvertible {
    public var red: Float, green: Float, blue: Float, alpha: Float
    public init(red: Float, green: Float, blue: Float, alpha: Float) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }
    /// Premultiplies a straight-alpha sRGB colour.
    public init(_ c: CGColor) {
        let a = Float(min(max(c.alpha, 0), 1))
        self.init(red: Float(min(max(c.red, 0), 1)) * a, green: Float(min(max(c.green, 0), 1)) * a,
                  blue: Float(min(max(c.blue, 0), 1)) * a, alpha: a)
    }
    public static let clear = PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// This colour multiplied channel by channel by a straight-alpha multiplier (a replicator
    /// instance's or particle's colour), staying premultiplied.
    public func tinted(by tint: SIMD4<Float>?) -> PremultipliedColor {
        guard let t = tint else { return self }
        return PremultipliedColor(red: red * t.x * t.w, green: green * t.y * t.w, blue: blue * t.z * t.w, alpha: alpha * t.w)
    }
    public var description: String { String(format: "rgba(%.3f, %.3f, %.3f, %.3f)", red, green, blue, alpha) }
}

/// Names the layer a draw item comes from. Its path (`root/card/#2`) is built only when printed:
/// plans are made every frame, and building path strings for every layer cost more than the plan.
public struct LayerLabel: Sendable, Equatable, CustomStringConvertible {
    public let tree: PresentedSubtree
    public let index: Int
    public init(tree: PresentedSubtree, index: Int) { self.tree = tree; self.index = index }
    public var description: String { tree.tree.path(of: index) }
    public static func == (a: LayerLabel, b: LayerLabel) -> Bool { a.tree === b.tree && a.index == b.index }
}

/// How an image is sampled when it is drawn smaller or larger than its pixels (the plan's copy
/// of `CALayerContentsFilter`, so backends need not know layers).
public enum TextureFilter: Sendable, Equatable {
    case linear, nearest, trilinear

    /// Core Animation's name of the filter.
    public var rawValue: String { "\(self)" }

    public init(_ filter: CALayerContentsFilter) {
        self = filter == .nearest ? .nearest : filter == .trilinear ? .trilinear : .linear
    }
}

/// Which corners of a `RoundedShape` are rounded (the plan's copy of `CACornerMask`; x and y
/// in the item's local coordinates).
public struct RoundedCorners: OptionSet, Sendable, Hashable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let minXMinY = RoundedCorners(rawValue: 1)
    public static let maxXMinY = RoundedCorners(rawValue: 2)
    public static let minXMaxY = RoundedCorners(rawValue: 4)
    public static let maxXMaxY = RoundedCorners(rawValue: 8)
    public static let all: RoundedCorners = [.minXMinY, .maxXMinY, .minXMaxY, .maxXMaxY]

    public init(_ mask: CACornerMask) { self.init(rawValue: mask.rawValue & 15) }
}

/// What a draw item covers its rectangle with.
public enum Paint: Sendable, Equatable {
    case solid(PremultipliedColor)
    /// A layer's contents image; `source` is the normalised part of the image (top-left origin).
    case image(CGImage, source: CGRect, minification: TextureFilter, magnification: TextureFilter)
    /// The result of an earlier offscreen pass; `source` is the normalised part of it.
    case pass(Int, source: CGRect)
    /// An earlier pass's alpha times a colour (a shadow).
    case tintedPass(Int, color: PremultipliedColor, source: CGRect)
    /// A `CAGradientLayer`'s gradient; `source` is the unit-space part of the layer's bounds the
    /// item's rectangle covers.
    case gradient(GradientPaint, source: CGRect)
    /// One axis of a Gaussian blur of an earlier pass over the whole target; `sigma` in pixels.
    case blur(Int, sigma: CGFloat, horizontal: Bool)
    /// A shape's path, unrasterized, for a backend that draws shapes itself (`DeferredShape`):
    /// the item's rectangle is its raster's, drawn one texel per pixel.
    case shape(DeferredShape)
}

/// A rounded rectangle in an item's local coordinates: the coverage shape of backgrounds,
/// borders and clipped composites (§11.5).
public struct RoundedShape: Sendable, Equatable {
    public var rect: CGRect
    public var radius: CGFloat
    public var corners: RoundedCorners
    public var continuous: Bool
    public init(rect: CGRect, radius: CGFloat, corners: RoundedCorners = .all, continuous: Bool = false) {
        // A radius larger than half the shorter side is clamped to it (§11.5 [inf]).
        self.rect = rect
        self.radius = max(0, min(radius, min(rect.width, rect.height) / 2))
        self.corners = corners
        self.continuous = continuous
    }
    public var isRounded: Bool { radius > 0 && !corners.isEmpty }
}

/// The middle of a rounded solid fill drawn as one quad (`DrawItem.body`): the `side`×`side`
/// square at each corner in `corners` is not covered, and pixels nearer than `band.width` to
/// the rectangle's edges (a border drawn with its fill) take `band.color` instead of the paint.
/// Pixels are classified by their centres, as rasterizing those pieces as quads of their own
/// would; the whole body is then one primitive (on llvmpipe each primitive costs about as much
/// as the pixels of a small quad).
public struct FillBody: Sendable, Equatable {
    public var side: CGFloat
    public var corners: RoundedCorners
    public var band: BorderBand?
    /// The cut corners drawn by this item too, from one mask pair (`BodyCorners`); nil: corner
    /// items of their own draw them.
    public var cornerPair: BodyCorners?
    public init(side: CGFloat, corners: RoundedCorners, band: BorderBand? = nil, cornerPair: BodyCorners? = nil) {
        self.side = side; self.corners = corners; self.band = band; self.cornerPair = cornerPair
    }

    /// The side of the cut square at each corner, in the order minX-minY, maxX-minY, maxX-maxY,
    /// minX-maxY (layer.glsl's `i_radii`); 0 where the corner is not cut.
    public var sides: SIMD4<Float> {
        func at(_ corner: RoundedCorners) -> Float { corners.contains(corner) ? Float(side) : 0 }
        return SIMD4(at(.minXMinY), at(.maxXMinY), at(.maxXMaxY), at(.minXMaxY))
    }
}

/// A border's straight parts drawn with the fill they lie on: the band's width and its colour,
/// already composited over the fill (premultiplied).
public struct BorderBand: Sendable, Equatable {
    public var width: CGFloat
    public var color: PremultipliedColor
    public init(width: CGFloat, color: PremultipliedColor) { self.width = width; self.color = color }
}

/// One textured or coloured quad: the rectangle `rect` of a layer's plane, mapped into the pass's
/// pixel space by `transform` (row vectors; divide by w), painted, shaped, faded.
public struct DrawItem: Sendable, Equatable {
    /// The layer it comes from, for printing and debugging.
    public var layer: LayerLabel
    /// What part of the layer it draws: `background`, `contents`, `border`, `group`, …
    public var role: String
    public var transform: CATransform3D
    public var rect: CGRect
    public var paint: Paint
    public var opacity: Float
    /// Coverage is limited to this rounded rectangle (nil: the whole `rect`).
    public var shape: RoundedShape?
    /// Only a ring of this width inside `shape` (or `rect`) is covered.
    public var borderWidth: CGFloat?
    /// Anti-alias the quad's outer edges (`allowsEdgeAntialiasing`) where they are not pixel-aligned.
    public var antialiasEdges: Bool
    /// An offscreen pass whose alpha, sampled at the same place as a `.pass` paint, multiplies
    /// coverage (a `mask` layer).
    public var maskPass: Int?
    /// Only this convex polygon of `rect` (item coordinates) is drawn: a piece of a quad split
    /// where planes of a 3D context intersect.
    public var polygon: [CGPoint]?
    /// Multiplies the colours of an image or pass paint, premultiplied (a replicator instance's
    /// or particle's colour); solid paints carry their tint in their colour already.
    public var tint: PremultipliedColor?
    /// Item space → its 3D rendering context (before the context is flattened into the target),
    /// set for items of `CATransformLayer` contexts: their depth order and splits are found there.
    public var depthTransform: CATransform3D?
    /// How the item's colour combines with the target under it (`compositingFilter`, additive
    /// particles); modes that read the backdrop see the target as drawn up to this item.
    public var blendMode: BlendMode = .normal
    /// Applied to the paint's colour, un-premultiplied, before coverage and blending (the
    /// colour filters of `filters` and `backgroundFilters`).
    public var colorMatrix: ColorMatrix?
    /// The body of a rounded fill split at its corners: its corner squares are left uncovered
    /// (corner items draw them) and its edge band may take the border's colour (see
    /// `splitAtCorners`).
    public var body: FillBody?
    /// With a corner-mask pair paint (`ContentRequest.cornerMaskPair`): the border's colour,
    /// drawn where the pair's green channel covers, over `tint` (the fill's colour) where its red
    /// channel covers — a rounded fill's corner and its border's in one item.
    public var borderTint: PremultipliedColor?

    public init(layer: LayerLabel, role: String, transform: CATransform3D, rect: CGRect, paint: Paint, opacity: Float,
                shape: RoundedShape? = nil, borderWidth: CGFloat? = nil, antialiasEdges: Bool = false,
                maskPass: Int? = nil) {
        self.layer = layer; self.role = role; self.transform = transform; self.rect = rect; self.paint = paint
        self.opacity = opacity; self.shape = shape; self.borderWidth = borderWidth
        self.antialiasEdges = antialiasEdges; self.maskPass = maskPass
    }
}

/// One render target and what is drawn into it, in order (source-over, premultiplied).
public struct RenderPass: Sendable, Equatable {
    public var id: Int
    public var width: Int
    public var height: Int
    /// Why the pass exists: `frame`, or the offscreen reason (`group opacity`, `masksToBounds`, …).
    public var purpose: String
    public var clearColor: PremultipliedColor
    public var items: [DrawItem]
    /// Instead of starting cleared, the pass starts with the pixels of this earlier pass and
    /// draws on into them (that pass is not read after this one starts). A pass is split this
    /// way where a layer with `backgroundFilters` needs what was drawn so far.
    public var startsFrom: Int?

    public init(id: Int, width: Int, height: Int, purpose: String, clearColor: PremultipliedColor, items: [DrawItem],
                startsFrom: Int? = nil) {
        self.id = id; self.width = width; self.height = height; self.purpose = purpose
        self.clearColor = clearColor; self.items = items; self.startsFrom = startsFrom
    }
}

/// Everything a backend needs to draw one frame: passes in execution order, the last one being
/// the frame itself. A value that prints as text, so its logic is tested without pixels.
public struct RenderPlan: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var passes: [RenderPass]
    /// Offscreen pixels the frame needs besides the frame itself: every offscreen pass and every
    /// content raster (shape, text, shadow path), each with the layer that asks for it.
    public var offscreen: [OffscreenArea] = []

    /// A plan of `passes`, the last one drawing the `width`×`height` frame.
    public init(width: Int, height: Int, passes: [RenderPass], offscreen: [OffscreenArea] = []) {
        self.width = width; self.height = height; self.passes = passes; self.offscreen = offscreen
    }

    /// The pass that produces the frame.
    public var framePass: RenderPass { passes[passes.count - 1] }

    /// The sum of `offscreen` (a frame's figure in the scene's budget).
    public var offscreenPixels: Int { offscreen.reduce(0) { $0.addingReportingOverflow($1.pixels).partialValue } }
}

/// An offscreen image one layer needs for a frame.
public struct OffscreenArea: Sendable, Equatable {
    public var layer: LayerLabel
    /// `group opacity`, `masksToBounds`, `shadow`, `path`, `text` …
    public var purpose: String
    public var width: Int
    public var height: Int
    public var pixels: Int { width * height }

    public init(layer: LayerLabel, purpose: String, width: Int, height: Int) {
        self.layer = layer; self.purpose = purpose; self.width = width; self.height = height
    }
}

extension DrawItem {
    /// The pixels the item can touch (its quad or polygon projected), nil when part of it lies
    /// behind the eye (w ≤ 0) and its extent is unbounded.
    public var screenBounds: CGRect? {
        let corners = polygon ?? [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                                  CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        for c in corners {
            let h = transform.transform(x: c.x, y: c.y)
            guard h.w > 1e-6 else { return nil }
            let x = h.x / h.w, y = h.y / h.w
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The item with its outer edges anti-aliased (`allowsEdgeAntialiasing`): the quad grows by
    /// about one target pixel so coverage can fade out, and coverage is limited to the original
    /// rectangle (or rounded shape), which the shape math anti-aliases in the fragment stage.
    public func withAntialiasedEdges() -> DrawItem {
        guard rect.width > 0, rect.height > 0, polygon == nil else { return self }
        let c = transform.projecting(CGPoint(x: rect.midX, y: rect.midY))
        let dx = transform.projecting(CGPoint(x: rect.midX + 1, y: rect.midY))
        let dy = transform.projecting(CGPoint(x: rect.midX, y: rect.midY + 1))
        let density = min(hypot(dx.x - c.x, dx.y - c.y), hypot(dy.x - c.x, dy.y - c.y))
        guard density.isFinite, density > 1e-6 else { return self }
        let e = 1.5 / density
        var item = self
        item.shape = shape ?? RoundedShape(rect: rect, radius: 0)
        item.rect = rect.insetBy(dx: -e, dy: -e)
        func grow(_ uv: CGRect) -> CGRect {
            let ex = e / rect.width * uv.width, ey = e / rect.height * uv.height
            return uv.insetBy(dx: -ex, dy: -ey)
        }
        switch paint {
        case .image(let image, let source, let minification, let magnification):
            item.paint = .image(image, source: grow(source), minification: minification, magnification: magnification)
        case .pass(let id, let source): item.paint = .pass(id, source: grow(source))
        case .tintedPass(let id, let color, let source): item.paint = .tintedPass(id, color: color, source: grow(source))
        case .gradient(let gradient, let source): item.paint = .gradient(gradient, source: grow(source))
        case .solid, .blur, .shape: break  // a shape is deferred only without edge antialiasing
        }
        item.antialiasEdges = false
        return item
    }
}

extension DrawItem {
    /// The four `r`×`r` corner squares of a rectangle, with the corner each belongs to.
    static func cornerSquares(x: CGFloat, y: CGFloat, w: CGFloat, h: CGFloat, r: CGFloat) -> [(RoundedCorners, CGPoint)] {
        [(.minXMinY, CGPoint(x: x, y: y)), (.maxXMinY, CGPoint(x: x + w - r, y: y)),
         (.minXMaxY, CGPoint(x: x, y: y + h - r)), (.maxXMaxY, CGPoint(x: x + w - r, y: y + h - r))]
    }

    public static func cornerSquares(of rect: CGRect, side: CGFloat) -> [(RoundedCorners, CGPoint)] {
        cornerSquares(x: rect.minX, y: rect.minY, w: rect.width, h: rect.height, r: side)
    }

    /// The band that draws `border`'s straight parts with this fill, when this is a rounded
    /// solid background and `border` its layer's border of the same shape, drawn right after it.
    func band(mergingBorder border: DrawItem) -> BorderBand? {
        guard role == "background", border.role == "border", layer == border.layer,
              case .solid(let fill) = paint, case .solid(let color) = border.paint,
              let shape, shape.isRounded, shape.rect == rect, border.shape == shape, border.rect == rect,
              let width = border.borderWidth, width > 0,
              transform == border.transform, opacity == border.opacity, depthTransform == border.depthTransform,
              maskPass == nil, border.maskPass == nil, polygon == nil, border.polygon == nil,
              !antialiasEdges, !border.antialiasEdges, blendMode == .normal, border.blendMode == .normal,
              colorMatrix == nil, border.colorMatrix == nil, tint == nil, border.tint == nil, body == nil, border.body == nil
        else { return nil }
        let r = min(shape.continuous ? shape.radius * 1.528665 : shape.radius, min(rect.width, rect.height) / 2)
        let t = min(width, rect.width / 2, rect.height / 2)
        guard depthTransform == nil,
              edgesClearPixelCentres(xs: (rect.minX + r, rect.maxX - r, rect.minX + t, rect.maxX - t),
                                     ys: (rect.minY + r, rect.maxY - r, rect.minY + t, rect.maxY - t))
        else { return nil }
        // B + F·(1 − Bα·opacity) drawn at the items' opacity equals F then B drawn over it.
        let k = 1 - color.alpha * opacity
        let composite = PremultipliedColor(red: color.red + fill.red * k, green: color.green + fill.green * k,
                                           blue: color.blue + fill.blue * k, alpha: color.alpha + fill.alpha * k)
        return BorderBand(width: t, color: composite)
    }

    /// Whether the item-space lines x = `xs` and y = `ys` map onto the target as vertical and
    /// horizontal lines at least 1/64 pixel away from pixel centres. A body decides per pixel
    /// centre (in item space) what its corner squares — separate quads, rasterized with vertices
    /// snapped to 1/256 pixel — cover; only away from centres do the two always agree, so no
    /// pixel is drawn twice or missed along the cuts (rotated or fractional layers keep the
    /// band pieces).
    func edgesClearPixelCentres(xs: (CGFloat, CGFloat, CGFloat, CGFloat), ys: (CGFloat, CGFloat, CGFloat, CGFloat)) -> Bool {
        let m = transform
        guard m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m11 != 0, m.m22 != 0 else { return false }
        func clear(_ v: CGFloat) -> Bool {
            let f = v - 0.5
            return abs(f - f.rounded()) >= 1.0 / 64
        }
        // Tuples, not arrays: checked for every rounded card of every frame.
        func clearX(_ v: CGFloat) -> Bool { clear(v * m.m11 + m.m41) }
        func clearY(_ v: CGFloat) -> Bool { clear(v * m.m22 + m.m42) }
        return clearX(xs.0) && clearX(xs.1) && clearX(xs.2) && clearX(xs.3)
            && clearY(ys.0) && clearY(ys.1) && clearY(ys.2) && clearY(ys.3)
    }
}

extension DrawItem {
    /// A rounded solid background or border split so the corner math runs only where corners are:
    /// straight bands drawn plain (opaque ones can then hide what is below) and four corner
    /// squares drawn with the rounded-rectangle coverage. Other items are returned as they are.
    ///
    /// - Parameter band: the straight parts of a border merged into a rounded fill's body.
    public func splitAtCorners(band: BorderBand? = nil) -> [DrawItem] {
        guard case .solid = paint, maskPass == nil, !antialiasEdges, polygon == nil else { return [self] }
        if let b = borderWidth, shape.map({ !$0.isRounded && $0.rect == rect }) ?? true {
            // A square border is four plain bands: exact coverage at the inner corners, and no
            // distance math at all.
            let t = min(b, rect.width / 2, rect.height / 2)
            var item = self
            item.shape = nil
            item.borderWidth = nil
            return [CGRect(x: rect.minX, y: rect.minY, width: rect.width, height: t),
                    CGRect(x: rect.minX, y: rect.maxY - t, width: rect.width, height: t),
                    CGRect(x: rect.minX, y: rect.minY + t, width: t, height: rect.height - 2 * t),
                    CGRect(x: rect.maxX - t, y: rect.minY + t, width: t, height: rect.height - 2 * t)]
                .filter { $0.width > 0 && $0.height > 0 }
                .map { band in item.rect = band; return item }
        }
        guard let shape, shape.isRounded, shape.rect == rect else { return [self] }
        // Continuous corners reach 1.528665 times further along the edges (the shader's curve).
        let r = min(shape.continuous ? shape.radius * 1.528665 : shape.radius, min(rect.width, rect.height) / 2)
        let x = rect.minX, y = rect.minY, w = rect.width, h = rect.height
        var pieces: [DrawItem] = []
        func add(_ piece: CGRect, shaped: Bool) {
            guard piece.width > 0, piece.height > 0 else { return }
            var item = self
            item.rect = piece
            if !shaped { item.shape = nil; item.borderWidth = nil }
            pieces.append(item)
        }
        if let b = borderWidth {
            let t = min(b, w / 2, h / 2)
            add(CGRect(x: x + r, y: y, width: w - 2 * r, height: t), shaped: false)
            add(CGRect(x: x + r, y: y + h - t, width: w - 2 * r, height: t), shaped: false)
            add(CGRect(x: x, y: y + r, width: t, height: h - 2 * r), shaped: false)
            add(CGRect(x: x + w - t, y: y + r, width: t, height: h - 2 * r), shaped: false)
        } else if band == nil {
            add(CGRect(x: x, y: y + r, width: w, height: h - 2 * r), shaped: false)
            add(CGRect(x: x + r, y: y, width: w - 2 * r, height: r), shaped: false)
            add(CGRect(x: x + r, y: y + h - r, width: w - 2 * r, height: r), shaped: false)
        } else {
            // The middle with the border's straight parts as one body without its corner squares
            // (on llvmpipe a primitive costs about what the pixels of a small quad do, so seven
            // bands cost more than one body).
            var middle = self
            middle.shape = nil
            middle.body = FillBody(side: r, corners: shape.corners, band: band)
            pieces.append(middle)
        }
        for (corner, origin) in Self.cornerSquares(x: x, y: y, w: w, h: h, r: r)
        where band == nil || shape.corners.contains(corner) {
            // A body covers its square corners itself; bands leave every corner out.
            add(CGRect(x: origin.x, y: origin.y, width: r, height: r), shaped: true)
        }
        return pieces
    }
}

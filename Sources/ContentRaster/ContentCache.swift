import Foundation
import Geometry
import Layers
import Rendering
import Synchronization

/// The "raster contents" stage: rasterizes shape paths, text and shadow paths with cairo and
/// Pango for the render plan, and draws custom-drawn layers, and remembers each result by the full value of its request, so
/// content that did not change between frames costs a dictionary lookup — and is the same
/// `CGImage` object, so the backends' texture caches hit as well.
///
/// Thread-safe. Holds at most `capacity` results and drops the least recently used beyond
/// that (an animated `strokeEnd` makes a new request every frame). Two threads missing the same
/// request at once may both rasterize; both get equal results.
public final class ContentCache: ContentRasterizer, Sendable {
    /// Lookup counts since the cache was made (or last reset).
    public struct Statistics: Equatable, Sendable {
        /// Lookups answered from the cache.
        public var hits: Int
        /// Lookups that had to rasterize.
        public var misses: Int
        /// Results held now.
        public var count: Int

        /// Counts with the given values.
        public init(hits: Int, misses: Int, count: Int) {
            self.hits = hits
            self.misses = misses
            self.count = count
        }
    }

    fileprivate struct State {
        var entries: [Key: (value: RasterizedContent?, lastUse: UInt64)] = [:]
        /// Every use (a hit or a store) in clock order from `usesStart` on; an entry's uses before
        /// its last are stale. The least recently used entry is the first use still `live`, so
        /// eviction needs no scan of the entries.
        var uses: [(clock: UInt64, request: Key)] = []
        var usesStart = 0
        /// The clocks of the entries' last uses.
        var live: Set<UInt64> = []
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
        var warnings: [String] = []
        /// Pixels of every image held.
        var pixels = 0
        /// Requests drawn without a raster (`rasterizeIfRepeated`) lately, in two generations of
        /// at most `capacity` each: one asked for again is rasterized and kept.
        var drawnDirectly: Set<Key> = [], drawnDirectlyBefore: Set<Key> = []
    }

    private let state = Mutex(State())
    /// The most results kept.
    public let capacity: Int
    /// The most pixels kept, all images together (the least recently used go first beyond it).
    public let maximumPixels: Int

    /// An empty cache keeping at most `capacity` results (at least one) and `maximumPixels` pixels.
    public init(capacity: Int = 512, maximumPixels: Int = SceneLimits.maximumOffscreenPixels) {
        self.capacity = max(1, capacity)
        self.maximumPixels = maximumPixels
    }

    /// The request's image and placement, rasterized only when no equal request was seen (and
    /// kept) before.
    public func rasterize(_ request: ContentRequest, stopwatch: Stopwatch?) -> RasterizedContent? {
        let key = Key(request)
        if let hit = lookup(key) { return hit }
        return renderAndKeep(request, key: key, stopwatch: stopwatch)
    }

    /// Rasterizes a request no kept result answered, and keeps the result.
    private func renderAndKeep(_ request: ContentRequest, key: Key, stopwatch: Stopwatch?) -> RasterizedContent? {
        var warnings: [String] = []
        let result = stopwatch.measure(.raster) { Self.render(request, warnings: &warnings) }
        store(result, for: key, warnings: warnings)
        return result
    }

    /// The request's raster when one is kept, or when the same request was drawn without one
    /// lately — among the last `capacity` to 2 × `capacity` requests drawn so (two generations),
    /// about as far back as the cache itself reaches — when it is rasterized and kept: an
    /// unchanged shape from its second frame on, a looping animation's from its second loop.
    /// Nil for a request new in that window (remembered): an animated shape in an export, which
    /// a raster would serve once, is rasterized a band at a time as it is drawn instead.
    public func rasterizeIfRepeated(_ request: ContentRequest, stopwatch: Stopwatch?) -> RasterizedContent?? {
        enum Sighting { case kept(RasterizedContent?), again, first }
        let key = Key(request)
        let generation = capacity
        let sighting = state.withLock { state -> Sighting in
            if let hit = Self.lookup(key, &state) { return .kept(hit) }
            if state.drawnDirectly.remove(key) != nil || state.drawnDirectlyBefore.remove(key) != nil { return .again }
            if state.drawnDirectly.count >= generation {
                state.drawnDirectlyBefore = state.drawnDirectly
                state.drawnDirectly.removeAll(keepingCapacity: true)
            }
            state.drawnDirectly.insert(key)
            return .first
        }
        switch sighting {
        case .kept(let raster): return .some(raster)
        case .first: return nil
        case .again: return .some(renderAndKeep(request, key: key, stopwatch: stopwatch))
        }
    }

    private static func render(_ request: ContentRequest, warnings: inout [String]) -> RasterizedContent? {
        guard let placement = placement(of: request) else { return nil }
        let region = placement.rect
        switch request.unclipped {
        case .shape, .alignedShape, .placedShape:
            guard let input = shapeInput(request, placement: placement), let image = PathRasterizer.rasterize(input),
                  let cgImage = CGImage(width: image.width, height: image.height, premultipliedRGBA: image.pixels) else { return nil }
            return RasterizedContent(image: cgImage, rect: placement.rect)
        case .filledPath(let path, _):
            return raster(path, style: ShapeStyle(fillColor: .white, fillRule: .nonZero, strokeColor: nil), placement: placement)
        case .cornerMask(let radius, let ringWidth):
            let r = CGFloat(radius)
            let path = CGMutablePath()
            path.addEllipse(in: CGRect(x: 0, y: 0, width: 2 * r, height: 2 * r))
            if let ringWidth, ringWidth < r {
                path.addEllipse(in: CGRect(x: ringWidth, y: ringWidth, width: 2 * (r - ringWidth), height: 2 * (r - ringWidth)))
            }
            return raster(path, style: ShapeStyle(fillColor: .white, fillRule: .evenOdd, strokeColor: nil), placement: placement)
        case .cornerMaskPair(let radius, let ringWidth):
            guard let disc = render(.cornerMask(radius: radius, ringWidth: nil), warnings: &warnings)?.image.pixels,
                  let ring = render(.cornerMask(radius: radius, ringWidth: ringWidth), warnings: &warnings)?.image.pixels,
                  disc.count == ring.count, disc.count == placement.width * placement.height * 4 else { return nil }
            var pixels = [UInt8](repeating: 0, count: disc.count)
            for i in stride(from: 0, to: pixels.count, by: 4) {
                pixels[i] = disc[i + 3]; pixels[i + 1] = min(ring[i + 3], disc[i + 3]); pixels[i + 3] = disc[i + 3]
            }
            guard let image = CGImage(width: placement.width, height: placement.height, premultipliedRGBA: pixels) else { return nil }
            return RasterizedContent(image: image, rect: placement.rect)
        case .drawing(let drawing):
            guard let image = drawing.draw() else { return nil }
            return RasterizedContent(image: image, rect: region)
        case .text(let text, let size, _):
            var input = TextRasterInput(text: text, size: size, scale: placement.scale)
            if region != CGRect(origin: .zero, size: size) { input.region = region }
            let result = TextRasterizer.rasterize(input)
            warnings = result.warnings
            guard let image = result.image, let cgImage = CGImage(width: image.width, height: image.height, premultipliedRGBA: image.pixels)
            else { return nil }
            return RasterizedContent(image: cgImage, rect: region)
        case .clipped:
            return nil  // `unclipped` never is
        }
    }

    /// Where a request's raster lies (layer points) and its size in pixels, worked out without
    /// drawing anything: what the plan's budget counts before any raster is allocated.
    public struct Placement: Sendable, Equatable {
        /// The rectangle of the layer's space the image covers (text: from the bounds' origin).
        public var rect: CGRect
        public var width: Int
        public var height: Int
        /// Pixels per point it is drawn at.
        public var scale: CGFloat
        /// Pixels per point along x and y over `scale` (an aligned shape under a scale that is
        /// not quite uniform; 1 × 1 otherwise).
        public var stretch = CGSize(width: 1, height: 1)
    }

    /// The placement `render` uses for `request`; nil when it draws nothing.
    public static func placement(of request: ContentRequest) -> Placement? {
        switch request {
        case .shape(let shape, let scale):
            guard let path = shape.path else { return nil }
            return aligned(PathRasterizer.paintedBounds(of: path, style: ShapeStyle(shape)), scale: scale)
        case .alignedShape(let shape, let scale, let stretch, let phase):
            guard let path = shape.path else { return nil }
            return aligned(PathRasterizer.paintedBounds(of: path, style: ShapeStyle(shape)), scale: scale, stretch: stretch, phase: phase)
        case .placedShape(let shape, let transform):
            guard let path = shape.path else { return nil }
            return placed(PathRasterizer.paintedBounds(of: path, style: ShapeStyle(shape)).applying(transform))
        case .filledPath(let path, let scale):
            return aligned(path.boundingBoxOfPath, scale: scale)
        case .cornerMask(let radius, _):
            return aligned(CGRect(x: 0, y: 0, width: 2 * CGFloat(radius), height: 2 * CGFloat(radius)), scale: 1)
        case .cornerMaskPair(let radius, _):
            return aligned(CGRect(x: 0, y: 0, width: 2 * CGFloat(radius), height: 2 * CGFloat(radius)), scale: 1)
        case .text(_, let size, let scale):
            return textPlacement(CGRect(origin: .zero, size: size), scale: fittingScale(scale, size))
        case .drawing(let drawing):
            // The layer's backing store: its bounds at its (fitted) contents scale, never clipped
            // (`draw(in:)` draws all of it).
            let (width, height) = drawing.pixelSize
            guard width > 0, height > 0 else { return nil }
            return Placement(rect: CGRect(origin: .zero, size: drawing.key.size), width: width, height: height, scale: drawing.key.scale)
        case .clipped(let inner, let clip):
            guard let whole = placement(of: inner) else { return nil }
            // Clipped content keeps the whole one's requested scale (not the coarser one a huge
            // region would be fitted to): the part that shows is drawn as sharp as it asked.
            let requested = inner.requestedScale
            guard requested > 0 else { return nil }
            if case .text = inner.unclipped {
                let region = clip.intersection(whole.rect)
                guard !region.isNull, region.width > 0, region.height > 0 else { return nil }
                return textPlacement(region, scale: fittingScale(requested, region.size))
            }
            let region = clip.intersection(whole.rect)
            guard !region.isNull else { return nil }
            // A placed shape's region is in target pixels already (the plan keeps it within cairo's range).
            if case .placedShape = inner { return placed(region) }
            // cairo holds device coordinates in 24.8 fixed point (±8,388,607): the whole path, not
            // only the part drawn, must map within it, so very distant geometry lowers the scale.
            let reach = max(abs(whole.rect.minX - region.minX), abs(whole.rect.maxX - region.minX),
                            abs(whole.rect.minY - region.minY), abs(whole.rect.maxY - region.minY), 1e-9)
            let scale = min(requested, maximumDeviceCoordinate / reach)
            if case .alignedShape(_, _, let stretch, let phase) = inner {
                return aligned(region, scale: scale, stretch: stretch, phase: scale == requested ? phase : .zero)
            }
            return aligned(region, scale: scale)
        }
    }

    private static func textPlacement(_ rect: CGRect, scale: CGFloat) -> Placement? {
        let s = scale > 0 && scale.isFinite ? scale : 1
        let width = pixelCount(rect.width * s), height = pixelCount(rect.height * s)
        guard width > 0, height > 0 else { return nil }
        return Placement(rect: rect, width: width, height: height, scale: scale)
    }

    /// The farthest a path's point may map from a raster's origin, in pixels: half of cairo's
    /// fixed-point range, so strokes and curves around such points stay within it too.
    static let maximumDeviceCoordinate: CGFloat = 4_194_304

    /// The largest side of a content raster, in pixels (a GPU's usual texture limit).
    public static let maximumSide = CGFloat(SceneLimits.maximumRasterSide)

    /// `scale`, lowered where content of `size` points would exceed `maximumSide` pixels: huge
    /// layers are rasterized coarser and drawn scaled up, never allocated beyond the limit.
    static func fittingScale(_ scale: CGFloat, _ size: CGSize) -> CGFloat {
        let longest = max(size.width, size.height, 1e-9)
        return min(scale, (maximumSide - 2) / longest)
    }

    /// `region` grown to whole pixels at `scale`·`stretch` pixels per point along x and y, the
    /// pixel grid shifted by `phase` pixels (kept only while the scale need not be lowered to fit),
    /// so the raster's pixels line up with the target's.
    private static func aligned(_ region: CGRect, scale requested: CGFloat, stretch: CGSize = CGSize(width: 1, height: 1),
                                phase requestedPhase: CGPoint = .zero) -> Placement? {
        guard !region.isNull, region.width.isFinite, region.height.isFinite, requested > 0,
              stretch.width > 0, stretch.height > 0 else { return nil }
        let scale = fittingScale(requested, CGSize(width: region.width * stretch.width, height: region.height * stretch.height))
        let phase = scale == requested ? requestedPhase : .zero
        let sx = scale * stretch.width, sy = scale * stretch.height
        let minX = (region.minX * sx + phase.x).rounded(.down) - phase.x, minY = (region.minY * sy + phase.y).rounded(.down) - phase.y
        let maxX = (region.maxX * sx + phase.x).rounded(.up) - phase.x, maxY = (region.maxY * sy + phase.y).rounded(.up) - phase.y
        guard maxX > minX, maxY > minY else { return nil }
        let rect = CGRect(x: minX / sx, y: minY / sy, width: (maxX - minX) / sx, height: (maxY - minY) / sy)
        return Placement(rect: rect, width: pixelCount(maxX - minX), height: pixelCount(maxY - minY), scale: scale, stretch: stretch)
    }

    /// `region` (target pixels from the placed shape's whole-pixel origin) grown to whole pixels.
    private static func placed(_ region: CGRect) -> Placement? {
        guard !region.isNull, region.minX.isFinite, region.minY.isFinite, region.maxX.isFinite, region.maxY.isFinite else { return nil }
        let minX = region.minX.rounded(.down), minY = region.minY.rounded(.down)
        let maxX = region.maxX.rounded(.up), maxY = region.maxY.rounded(.up)
        guard maxX > minX, maxY > minY, maxX - minX <= maximumSide, maxY - minY <= maximumSide else { return nil }
        return Placement(rect: CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY),
                         width: pixelCount(maxX - minX), height: pixelCount(maxY - minY), scale: 1)
    }

    /// What a shape request's raster is drawn from: its path, style, pixel size and the map from
    /// layer points to the raster's pixels; nil for other requests and shapes without a path.
    static func shapeInput(_ request: ContentRequest, placement: Placement) -> ShapeRasterInput? {
        let transform: CGAffineTransform, shape: ShapeProperties
        switch request.unclipped {
        case .shape(let s, _), .alignedShape(let s, _, _, _):
            (shape, transform) = (s, alignedTransform(placement))
        case .placedShape(let s, let t):
            // Layer points → the placement's pixels.
            (shape, transform) = (s, CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx - placement.rect.minX, ty: t.ty - placement.rect.minY))
        default:
            return nil
        }
        guard let path = shape.path else { return nil }
        return ShapeRasterInput(path: path, style: ShapeStyle(shape), pixelWidth: placement.width, pixelHeight: placement.height,
                                transform: transform)
    }

    /// A path drawn over a placement's region, its pixels lined up with the target's.
    private static func raster(_ path: CGPath, style: ShapeStyle, placement: Placement) -> RasterizedContent? {
        raster(path, style: style, placement: placement, transform: alignedTransform(placement))
    }

    /// Layer points → the pixels of a placement of the layer's own space.
    private static func alignedTransform(_ placement: Placement) -> CGAffineTransform {
        let sx = placement.scale * placement.stretch.width, sy = placement.scale * placement.stretch.height
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: -placement.rect.minX * sx, ty: -placement.rect.minY * sy)
    }

    /// A path drawn with `transform` (layer points → image pixels) into an image of the placement's size.
    private static func raster(_ path: CGPath, style: ShapeStyle, placement: Placement, transform: CGAffineTransform) -> RasterizedContent? {
        let input = ShapeRasterInput(path: path, style: style, pixelWidth: placement.width, pixelHeight: placement.height, transform: transform)
        guard let image = PathRasterizer.rasterize(input),
              let cgImage = CGImage(width: image.width, height: image.height, premultipliedRGBA: image.pixels) else { return nil }
        return RasterizedContent(image: cgImage, rect: placement.rect)
    }

    /// The rectangle and pixel size of `request`'s raster (`placement(of:)`).
    public func rasterFootprint(of request: ContentRequest) -> (rect: CGRect, width: Int, height: Int)? {
        Self.placement(of: request).map { ($0.rect, $0.width, $0.height) }
    }

    /// A shape request's raster rows `rows`, `bandHeight` rows at a time, each band into `pixels`
    /// (`PathRasterizer.rasterize(_:rows:into:)`) and handed to `body`; false for other requests
    /// (or where cairo cannot draw a band: the bands before it were handed over). Nothing is kept.
    public func rasterizeRows(_ request: ContentRequest, rows: Range<Int>, bandHeight: Int, into pixels: UnsafeMutablePointer<UInt8>,
                              _ body: (Range<Int>) -> Void) -> Bool {
        guard bandHeight > 0, let placement = Self.placement(of: request), let input = Self.shapeInput(request, placement: placement)
        else { return false }
        var start = rows.lowerBound
        while start < rows.upperBound {
            let end = min(start + bandHeight, rows.upperBound)
            guard PathRasterizer.rasterize(input, rows: start..<end, into: pixels) else { return false }
            body(start..<end)
            start = end
        }
        return true
    }

    /// The hit and miss counts and the number of results held.
    public var statistics: Statistics {
        state.withLock { Statistics(hits: $0.hits, misses: $0.misses, count: $0.entries.count) }
    }

    /// What went differently from the requests (substituted fonts), each once, in order.
    public var warnings: [String] { state.withLock { $0.warnings } }

    /// Drops every result; with `resettingStatistics`, zeroes the counts too.
    public func removeAll(resettingStatistics: Bool = false) {
        state.withLock { state in
            state.entries.removeAll()
            state.uses.removeAll()
            state.usesStart = 0
            state.live.removeAll()
            state.drawnDirectly.removeAll()
            state.drawnDirectlyBefore.removeAll()
            state.pixels = 0
            if resettingStatistics { (state.hits, state.misses) = (0, 0) }
        }
    }

    /// The cached result (counted as a hit), or nil (counted as a miss).
    private func lookup(_ request: Key) -> RasterizedContent?? {
        state.withLock { Self.lookup(request, &$0) }
    }

    /// `lookup` with the state held.
    private static func lookup(_ request: Key, _ state: inout State) -> RasterizedContent?? {
        state.clock += 1
        guard let i = state.entries.index(forKey: request) else {
            state.misses += 1
            return nil
        }
        state.hits += 1
        state.live.remove(state.entries.values[i].lastUse)
        state.entries.values[i].lastUse = state.clock
        used(request, &state)
        return .some(state.entries.values[i].value)
    }

    private func store(_ value: RasterizedContent?, for request: Key, warnings: [String]) {
        let capacity = self.capacity, maximumPixels = self.maximumPixels
        state.withLock { state in
            state.clock += 1
            for warning in warnings where !state.warnings.contains(warning) { state.warnings.append(warning) }
            if let old = state.entries.updateValue((value, state.clock), forKey: request) {
                state.pixels -= Self.pixels(old.value)
                state.live.remove(old.lastUse)
            }
            state.pixels += Self.pixels(value)
            Self.used(request, &state)
            while state.entries.count > capacity || (state.pixels > maximumPixels && state.entries.count > 1),
                  let oldest = Self.leastRecentlyUsed(&state) {
                state.pixels -= Self.pixels(state.entries.removeValue(forKey: oldest)?.value)
            }
        }
    }
}

extension ContentCache {
    /// A request with its hash worked out once: a lookup, the store after a miss and the
    /// evictions each hashed the whole request (every point of a shape's path) again.
    struct Key: Hashable, Sendable {
        let request: ContentRequest
        let hash: Int

        init(_ request: ContentRequest) {
            self.request = request
            hash = request.hashValue
        }

        static func == (a: Key, b: Key) -> Bool { a.hash == b.hash && a.request == b.request }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// Records a use of `request` at the state's clock (its entry's `lastUse` already set);
    /// stale uses are dropped once they outnumber the entries, and taken ones once they are half.
    fileprivate static func used(_ request: Key, _ state: inout State) {
        state.live.insert(state.clock)
        state.uses.append((state.clock, request))
        if state.uses.count - state.usesStart > 2 * state.entries.count + 64 {
            state.uses = state.entries.map { (clock: $0.value.lastUse, request: $0.key) }.sorted { $0.clock < $1.clock }
            state.usesStart = 0
        } else if state.usesStart >= 64, 2 * state.usesStart >= state.uses.count {
            state.uses.removeFirst(state.usesStart)   // the evicted ones' uses
            state.usesStart = 0
        }
    }

    /// Takes the least recently used entry's request off the uses (nil when none is left).
    fileprivate static func leastRecentlyUsed(_ state: inout State) -> Key? {
        while state.usesStart < state.uses.count {
            let use = state.uses[state.usesStart]
            state.usesStart += 1
            if state.live.remove(use.clock) != nil { return use.request }
        }
        return nil
    }

    fileprivate static func pixels(_ content: RasterizedContent??) -> Int {
        guard let image = content??.image else { return 0 }
        return image.width * image.height
    }
}

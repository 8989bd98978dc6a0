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

    private struct State {
        var entries: [ContentRequest: (value: RasterizedContent?, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
        var warnings: [String] = []
    }

    private let state = Mutex(State())
    /// The most results kept.
    public let capacity: Int

    /// An empty cache keeping at most `capacity` results (at least one).
    public init(capacity: Int = 512) {
        self.capacity = max(1, capacity)
    }

    /// The request's image and placement, rasterized only when no equal request was seen (and
    /// kept) before.
    public func rasterize(_ request: ContentRequest, stopwatch: Stopwatch?) -> RasterizedContent? {
        if let hit = lookup(request) { return hit }
        var warnings: [String] = []
        let result = stopwatch.measure(.raster) { Self.render(request, warnings: &warnings) }
        store(result, for: request, warnings: warnings)
        return result
    }

    private static func render(_ request: ContentRequest, warnings: inout [String]) -> RasterizedContent? {
        switch request {
        case .shape(let shape, let scale):
            guard let path = shape.path else { return nil }
            let style = ShapeStyle(shape)
            return raster(path, style: style, region: PathRasterizer.paintedBounds(of: path, style: style), scale: scale)
        case .filledPath(let path, let scale):
            let style = ShapeStyle(fillColor: .white, fillRule: .nonZero, strokeColor: nil)
            return raster(path, style: style, region: path.boundingBoxOfPath, scale: scale)
        case .cornerMask(let radius, let ringWidth):
            let r = CGFloat(radius)
            let path = CGMutablePath()
            path.addEllipse(in: CGRect(x: 0, y: 0, width: 2 * r, height: 2 * r))
            if let ringWidth, ringWidth < r {
                path.addEllipse(in: CGRect(x: ringWidth, y: ringWidth, width: 2 * (r - ringWidth), height: 2 * (r - ringWidth)))
            }
            let style = ShapeStyle(fillColor: .white, fillRule: .evenOdd, strokeColor: nil)
            return raster(path, style: style, region: CGRect(x: 0, y: 0, width: 2 * r, height: 2 * r), scale: 1)
        case .drawing(let drawing):
            guard let image = drawing.draw() else { return nil }
            return RasterizedContent(image: image, rect: CGRect(origin: .zero, size: drawing.key.size))
        case .text(let text, let size, let scale):
            let result = TextRasterizer.rasterize(TextRasterInput(text: text, size: size, scale: fittingScale(scale, size)))
            warnings = result.warnings
            guard let image = result.image, let cgImage = CGImage(width: image.width, height: image.height, premultipliedRGBA: image.pixels)
            else { return nil }
            return RasterizedContent(image: cgImage, rect: CGRect(origin: .zero, size: size))
        }
    }

    /// The largest side of a content raster, in pixels (a GPU's usual texture limit).
    public static let maximumSide = CGFloat(SceneLimits.maximumRasterSide)

    /// `scale`, lowered where content of `size` points would exceed `maximumSide` pixels: huge
    /// layers are rasterized coarser and drawn scaled up, never allocated beyond the limit.
    static func fittingScale(_ scale: CGFloat, _ size: CGSize) -> CGFloat {
        let longest = max(size.width, size.height, 1e-9)
        return min(scale, (maximumSide - 2) / longest)
    }

    /// A path drawn over `region` grown to whole pixels, so its pixels line up with the target's.
    private static func raster(_ path: CGPath, style: ShapeStyle, region: CGRect, scale requested: CGFloat) -> RasterizedContent? {
        guard !region.isNull, region.width.isFinite, region.height.isFinite, requested > 0 else { return nil }
        let scale = fittingScale(requested, region.size)
        let minX = (region.minX * scale).rounded(.down), minY = (region.minY * scale).rounded(.down)
        let maxX = (region.maxX * scale).rounded(.up), maxY = (region.maxY * scale).rounded(.up)
        guard maxX > minX, maxY > minY else { return nil }
        let aligned = CGRect(x: minX / scale, y: minY / scale, width: (maxX - minX) / scale, height: (maxY - minY) / scale)
        guard let image = PathRasterizer.rasterize(ShapeRasterInput(path: path, style: style, region: aligned, scale: scale)),
              let cgImage = CGImage(width: image.width, height: image.height, premultipliedRGBA: image.pixels) else { return nil }
        return RasterizedContent(image: cgImage, rect: aligned)
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
            if resettingStatistics { (state.hits, state.misses) = (0, 0) }
        }
    }

    /// The cached result (counted as a hit), or nil (counted as a miss).
    private func lookup(_ request: ContentRequest) -> RasterizedContent?? {
        state.withLock { state in
            state.clock += 1
            guard let entry = state.entries[request] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            state.entries[request] = (entry.value, state.clock)
            return .some(entry.value)
        }
    }

    private func store(_ value: RasterizedContent?, for request: ContentRequest, warnings: [String]) {
        let capacity = self.capacity
        state.withLock { state in
            state.clock += 1
            for warning in warnings where !state.warnings.contains(warning) { state.warnings.append(warning) }
            state.entries[request] = (value, state.clock)
            // A linear scan: eviction is rare next to lookups and the cache is small.
            while state.entries.count > capacity,
                  let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.entries.removeValue(forKey: oldest)
            }
        }
    }
}

import Foundation
import Rendering
import Synchronization

/// Remembers rasterized shape and text content by the full value of its inputs, so content
/// that did not change between frames costs a dictionary lookup instead of a rasterization.
///
/// Thread-safe. Holds at most `capacity` results and drops the least recently used beyond
/// that (an animated `strokeEnd` makes a new key every frame). Two threads missing the same key
/// at once may both rasterize; both get equal results.
public final class ContentCache: Sendable {
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

    private enum Key: Hashable {
        case shape(ShapeRasterInput)
        case text(TextRasterInput)
    }

    private enum Value {
        case shape(Image?)
        case text(RasterizedText)
    }

    private struct State {
        var entries: [Key: (value: Value, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    private let state = Mutex(State())
    /// The most results kept.
    public let capacity: Int

    /// An empty cache keeping at most `capacity` results (at least one).
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The image of a shape, rasterized only when no equal input was seen (and kept) before.
    public func image(for input: ShapeRasterInput) -> Image? {
        if case .shape(let image)? = lookup(.shape(input)) { return image }
        let image = PathRasterizer.rasterize(input)
        store(.shape(image), for: .shape(input))
        return image
    }

    /// The rasterized text, rasterized only when no equal input was seen (and kept) before.
    /// A hit returns the warnings of the original rasterization too.
    public func text(for input: TextRasterInput) -> RasterizedText {
        if case .text(let text)? = lookup(.text(input)) { return text }
        let text = TextRasterizer.rasterize(input)
        store(.text(text), for: .text(input))
        return text
    }

    /// The hit and miss counts and the number of results held.
    public var statistics: Statistics {
        state.withLock { Statistics(hits: $0.hits, misses: $0.misses, count: $0.entries.count) }
    }

    /// Drops every result; with `resettingStatistics`, zeroes the counts too.
    public func removeAll(resettingStatistics: Bool = false) {
        state.withLock { state in
            state.entries.removeAll()
            if resettingStatistics { (state.hits, state.misses) = (0, 0) }
        }
    }

    /// The cached value, counted as a hit, or nil, counted as a miss.
    private func lookup(_ key: Key) -> Value? {
        state.withLock { state in
            state.clock += 1
            guard let entry = state.entries[key] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            state.entries[key] = (entry.value, state.clock)
            return entry.value
        }
    }

    private func store(_ value: Value, for key: Key) {
        let capacity = self.capacity
        state.withLock { state in
            state.clock += 1
            state.entries[key] = (value, state.clock)
            // A linear scan: eviction is rare next to lookups and the cache is small.
            while state.entries.count > capacity,
                  let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.entries.removeValue(forKey: oldest)
            }
        }
    }
}

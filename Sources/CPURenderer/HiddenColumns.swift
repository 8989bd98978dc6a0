import Foundation
import Synchronization

/// Per row of a band, the columns that a later item's opaque texels replace: drawing an earlier
/// item there changes nothing the frame keeps, so it is skipped.
///
/// An item hides pixels when it is a texture drawn one texel per pixel, unfaded, untinted and
/// unmasked, source-over (`PassRasterizer.hidingTexels`): its opaque texels are then stored as
/// they are, whatever lies below (the 8-bit blend of alpha 255 is the source). Its texture's
/// `OpaqueRuns` (the longest run of opaque texels of each row, found on the planning thread)
/// give what it hides. Walking the band's items from the last drawn to the first, each row keeps
/// one interval: the union of what the items after the current one hide, while those runs touch
/// (else the longer) — one set of intervals per number of hiders after an item. The items drawn
/// texel by texel under a later hider's bounds (`drawTexels`: textures placed on whole pixels,
/// deferred shapes) take theirs (`Slot`) and draw only around it. Only for passes with no opaque
/// items: those hide pixels through `PassRasterizer.owner`.
struct HiddenColumns {
    /// The columns hidden on one row: `lo ..< hi` (empty when `hi <= lo`).
    typealias Columns = (lo: Int32, hi: Int32)

    /// One item's intervals over the band's rows.
    struct Slot {
        let base: UnsafePointer<Int32>
        let firstRow: Int

        /// The hidden columns of row `y` (within the band).
        @inline(__always)
        func columns(row y: Int) -> Columns {
            let i = 2 * (y - firstRow)
            return (base[i], base[i + 1])
        }
    }

    /// Which items of a pass hide and which may be hidden, worked out once for all its bands.
    struct Roles {
        struct Hider {
            let index: Int
            let runs: [Int32]
            let offset: (Int, Int)
        }
        /// In drawing order.
        let hiders: [Hider]
        /// Per item that may be hidden, how many hiders are drawn after it (its interval is
        /// theirs: items between the same two hiders share one); 0 for the others.
        let slots: [Int32]

        /// nil where nothing in `drawn` (indices of `items`, in drawing order) hides enough of
        /// what is drawn before it in a pass of `area` pixels.
        init?(_ items: UnsafeBufferPointer<PreparedItem>, drawn: [Int], area passArea: Int, rasterizer: PassRasterizer) {
            var hiders: [Hider] = []
            for i in drawn {
                // One that hides little is not worth the walk over its rows in every band.
                guard let (texture, offset) = rasterizer.hidingTexels(items[i]), texture.opaqueArea >= Self.minimumArea,
                      let runs = texture.opaqueRuns else { continue }
                hiders.append(Hider(index: i, runs: runs, offset: offset))
            }
            guard !hiders.isEmpty else { return nil }
            // Those drawn texel by texel that lie under a later hider's bounds, found from the
            // last drawn back with the union of the bounds of the hiders after each.
            var slots = [Int32](repeating: 0, count: items.count)
            // What the takers' bounds share with the hiders' after them: too little, and the
            // intervals cost more than the pixels they save.
            var overlap = 0
            var h = hiders.count - 1
            var rows = 0..<0, columns = 0..<0
            for i in drawn.reversed() {
                let polygon = items[i].polygon
                if rows.overlaps(polygon.rows), columns.overlaps(polygon.columns), rasterizer.drawsTexels(items[i]) {
                    slots[i] = Int32(hiders.count - 1 - h)
                    overlap += rows.clamped(to: polygon.rows).count * columns.clamped(to: polygon.columns).count
                }
                if h >= 0, hiders[h].index == i {
                    rows = rows.isEmpty ? polygon.rows : min(rows.lowerBound, polygon.rows.lowerBound)..<max(rows.upperBound, polygon.rows.upperBound)
                    columns = columns.isEmpty ? polygon.columns
                        : min(columns.lowerBound, polygon.columns.lowerBound)..<max(columns.upperBound, polygon.columns.upperBound)
                    h -= 1
                }
            }
            guard overlap >= passArea / Self.minimumOverlapShare else { return nil }
            self.hiders = hiders
            self.slots = slots
        }

        /// Opaque texels an item needs to hide anything (a smaller one hides too little to pay).
        static let minimumArea = 4096
        /// The share of the pass (1/n) that the takers' bounds need to share with the hiders' after them.
        static let minimumOverlapShare = 16
    }

    /// Intervals a band may keep at most (hiders × rows): past it nothing is hidden.
    static let capacity = 1 << 20

    private let rows: Range<Int>
    private let storage: UnsafeMutablePointer<Int32>
    private let slots: [Int32]

    /// The intervals of `roles` over `rows`: interval k (1…) is what the last k hiders hide;
    /// nil for too many.
    init?(_ roles: Roles, items: UnsafeBufferPointer<PreparedItem>, rows: Range<Int>) {
        let count = roles.hiders.count
        guard !rows.isEmpty, count * rows.count <= Self.capacity else { return nil }
        self.rows = rows
        slots = roles.slots
        let stride = 2 * rows.count
        storage = .allocate(capacity: stride * (count + 1))
        storage.update(repeating: 0, count: stride)
        for k in 1...count {
            let interval = storage + stride * k
            interval.update(from: interval - stride, count: stride)
            let hider = roles.hiders[count - k]
            Self.add(hider.runs, offset: hider.offset, of: items[hider.index], rows: rows, to: interval)
        }
    }

    func release() { storage.deallocate() }

    /// The hidden columns `items[index]` draws around, if it is one that may be hidden.
    func slot(for index: Int) -> Slot? {
        let s = Int(slots[index])
        guard s > 0 else { return nil }
        return Slot(base: storage + 2 * rows.count * s, firstRow: rows.lowerBound)
    }

    /// Widens each row's interval by what `item` hides there: its row's opaque run in pixels,
    /// within the item's own span.
    private static func add(_ runs: [Int32], offset: (Int, Int), of item: PreparedItem, rows: Range<Int>,
                            to current: UnsafeMutablePointer<Int32>) {
        let height = runs.count / 2
        let itemRows = rows.clamped(to: item.polygon.rows)
        runs.withUnsafeBufferPointer { runs in
            for y in itemRows {
                let ty = y + offset.1
                guard ty >= 0, ty < height else { continue }
                let span = item.polygon.span(row: y)
                let lo = max(Int(runs[2 * ty]) - offset.0, span.lowerBound), hi = min(Int(runs[2 * ty + 1]) - offset.0, span.upperBound)
                guard hi > lo else { continue }
                let k = 2 * (y - rows.lowerBound)
                let c = (lo: Int(current[k]), hi: Int(current[k + 1]))
                let merged: (Int, Int)
                if c.hi <= c.lo {
                    merged = (lo, hi)
                } else if lo <= c.hi && c.lo <= hi {
                    merged = (min(lo, c.lo), max(hi, c.hi))
                } else {
                    merged = hi - lo > c.hi - c.lo ? (lo, hi) : c
                }
                (current[k], current[k + 1]) = (Int32(merged.0), Int32(merged.1))
            }
        }
    }
}

/// The pixels left undrawn because later items hide them, over a frame (for tests and
/// profiles: the draws add to it from every band).
final class HiddenPixelTally: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }
    func add(_ n: Int) { if n > 0 { count.add(n, ordering: .relaxed) } }
    func reset() { count.store(0, ordering: .relaxed) }
}

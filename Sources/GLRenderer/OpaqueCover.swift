import Foundation
import Geometry
import Rendering

/// The pixels each opaque, axis-aligned item of a pass surely covers, so that what lies wholly
/// under a later one — a card's corner squares or body pieces, a whole layer — is not drawn at
/// all: its pixels would end up the later item's colour anyway. (On llvmpipe a hidden quad
/// still costs its setup and a depth test per 4×4 block; a stack of overlapping cards spent a
/// sixth of its frame on corners no one sees.)
///
/// Boxes are ranges of pixel centres: an occluder's holds only centres at least 1/64 pixel
/// inside its edges, a drawn rectangle's every centre within 1/64 pixel of its own, so the
/// vertex rounding of the rasterizer (1/256 pixel) cannot make a hidden one show.
struct OpaqueCover {
    /// A box of pixel centres, inclusive at both ends.
    private struct Box { var minX, minY, maxX, maxY: Int }
    /// Occluders in painter's order: the item index and its box.
    private var boxes: [(index: Int, box: Box)] = []
    /// A coarse grid over the boxes: for each cell, the boxes (indices into `boxes`, in painter's
    /// order) that reach into it. A box that holds a rectangle holds its first pixel centre, so a
    /// question looks only at that centre's cell (a pass of stacked cards asked each corner and
    /// body piece about every later card).
    private var cellStarts: [Int] = [], cellBoxes: [Int32] = []
    private var grid = (x: 0, y: 0, columns: 0, rows: 0, shift: 6)
    /// Passes with more items are not searched (the search is quadratic in the items).
    static let maximumItems = 256

    /// Nothing hidden.
    init() {}

    /// Collects the opaque items of a pass (`isOpaque` says which).
    init(_ items: [DrawItem], isOpaque: (Int) -> Bool) {
        guard items.count <= Self.maximumItems else { return }
        for (i, item) in items.enumerated() where isOpaque(i) {
            guard Self.isAxisAligned(item.transform) else { continue }
            if let body = item.body {
                // A body covers its rect less the cut squares: the middle row and the middle column.
                let r = item.rect, s = body.side
                add(i, CGRect(x: r.minX, y: r.minY + s, width: r.width, height: r.height - 2 * s), item.transform)
                add(i, CGRect(x: r.minX + s, y: r.minY, width: r.width - 2 * s, height: r.height), item.transform)
            } else {
                add(i, item.rect, item.transform)
            }
        }
        makeGrid()
    }

    /// Files every box under the cells it reaches into: cells of 64 pixels, or larger so that
    /// there are at most 4,096 of them; boxes are clamped to a million pixels around the origin
    /// (a question outside the grid looks at every box).
    private mutating func makeGrid() {
        guard !boxes.isEmpty else { return }
        let limit = 1 << 20
        func clamp(_ v: Int) -> Int { min(max(v, -limit), limit) }
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for (_, b) in boxes {
            minX = min(minX, clamp(b.minX)); minY = min(minY, clamp(b.minY))
            maxX = max(maxX, clamp(b.maxX)); maxY = max(maxY, clamp(b.maxY))
        }
        var shift = 6
        while ((maxX - minX) >> shift + 1) * ((maxY - minY) >> shift + 1) > 4096 { shift += 1 }
        grid = (minX, minY, (maxX - minX) >> shift + 1, (maxY - minY) >> shift + 1, shift)
        // The cells a box reaches into: columns x0…x1, rows y0…y1 (plain bounds: a `ClosedRange`
        // in a tuple went through unspecialised index witnesses per cell).
        func cells(_ b: Box) -> (x0: Int, x1: Int, y0: Int, y1: Int) {
            ((clamp(b.minX) - minX) >> shift, (clamp(b.maxX) - minX) >> shift,
             (clamp(b.minY) - minY) >> shift, (clamp(b.maxY) - minY) >> shift)
        }
        var counts = [Int](repeating: 0, count: grid.columns * grid.rows + 1)
        for (_, b) in boxes {
            let c = cells(b)
            for y in c.y0...c.y1 { for x in c.x0...c.x1 { counts[y * grid.columns + x + 1] += 1 } }
        }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        cellStarts = counts
        var next = counts
        cellBoxes = [Int32](repeating: 0, count: counts[counts.count - 1])
        for (k, (_, b)) in boxes.enumerated() {
            let c = cells(b)
            for y in c.y0...c.y1 { for x in c.x0...c.x1 {
                let cell = y * grid.columns + x
                cellBoxes[next[cell]] = Int32(k)
                next[cell] += 1
            } }
        }
    }

    private mutating func add(_ index: Int, _ rect: CGRect, _ m: CATransform3D) {
        guard rect.width > 0, rect.height > 0 else { return }
        let r = Self.onTarget(rect, m), e = 1.0 / 64
        let box = Box(minX: Int((r.minX - 0.5 + e).rounded(.up)), minY: Int((r.minY - 0.5 + e).rounded(.up)),
                      maxX: Int((r.maxX - 0.5 - e).rounded(.down)), maxY: Int((r.maxY - 0.5 - e).rounded(.down)))
        if box.minX <= box.maxX, box.minY <= box.maxY { boxes.append((index, box)) }
    }

    /// Whether `rect` of an item drawn at `index` with `transform` lies wholly under an opaque
    /// item drawn after it.
    func hides(_ rect: CGRect, transform: CATransform3D, at index: Int) -> Bool {
        guard let last = boxes.last, last.index > index, Self.isAxisAligned(transform) else { return false }
        let r = Self.onTarget(rect, transform), e = 1.0 / 64
        guard r.minX.isFinite, r.maxX.isFinite, r.minY.isFinite, r.maxY.isFinite,
              abs(r.minX) < 1e9, abs(r.maxX) < 1e9, abs(r.minY) < 1e9, abs(r.maxY) < 1e9 else { return false }
        let minX = Int((r.minX - 0.5 - e).rounded(.up)), minY = Int((r.minY - 0.5 - e).rounded(.up))
        let maxX = Int((r.maxX - 0.5 + e).rounded(.down)), maxY = Int((r.maxY - 0.5 + e).rounded(.down))
        func holds(_ k: Int) -> Bool? {
            let (i, b) = boxes[k]
            if i <= index { return nil }
            return b.minX <= minX && b.minY <= minY && maxX <= b.maxX && maxY <= b.maxY
        }
        // Latest first: the occluders after `index`, nearest in the order first.
        let x = (minX - grid.x) >> grid.shift, y = (minY - grid.y) >> grid.shift
        guard minX <= maxX, minY <= maxY, abs(minX) < 1 << 20, abs(minY) < 1 << 20 else {
            for k in boxes.indices.reversed() { guard let held = holds(k) else { break }; if held { return true } }
            return false
        }
        guard minX >= grid.x, minY >= grid.y, x < grid.columns, y < grid.rows else { return false }
        let cell = y * grid.columns + x
        for slot in stride(from: cellStarts[cell + 1] - 1, through: cellStarts[cell], by: -1) {
            guard let held = holds(Int(cellBoxes[slot])) else { break }
            if held { return true }
        }
        return false
    }

    /// A transform that maps the item plane onto the target without rotation or perspective.
    private static func isAxisAligned(_ m: CATransform3D) -> Bool {
        m.m12 == 0 && m.m21 == 0 && m.m14 == 0 && m.m24 == 0 && m.m44 == 1 && m.m11 != 0 && m.m22 != 0
    }

    private static func onTarget(_ r: CGRect, _ m: CATransform3D) -> CGRect {
        let x0 = r.minX * m.m11 + m.m41, x1 = r.maxX * m.m11 + m.m41
        let y0 = r.minY * m.m22 + m.m42, y1 = r.maxY * m.m22 + m.m42
        return CGRect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
    }
}

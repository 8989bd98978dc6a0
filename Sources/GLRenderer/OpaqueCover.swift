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
        // Latest first: the occluders after `index`, nearest in the order first.
        for k in boxes.indices.reversed() {
            let (i, b) = boxes[k]
            if i <= index { break }
            if b.minX <= minX, b.minY <= minY, maxX <= b.maxX, maxY <= b.maxY { return true }
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

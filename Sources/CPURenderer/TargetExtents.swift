import Foundation
import Rendering

/// Per row of a pass target, the columns `lo ..< hi` outside which it still holds transparent
/// zero (its clear colour): two Int32 a row, `lo ≥ hi` for a row nothing has touched. Every item
/// drawn widens its rows' extents by the spans its polygon covers (`PassRasterizer.draw`), so
/// the extents always bound the pixels that may be non-zero. They let a draw store instead of
/// blend where the target is known to be empty, let the next frame clear only what was drawn,
/// and tell later passes which texels of the target are worth sampling.
enum TargetExtents {
    /// How a pass starts.
    enum Start {
        /// Continues an earlier pass's pixels (and extents) as they are.
        case continuing
        /// Memory that holds anything: every pixel is cleared.
        case unknown
        /// A target whose extents bound its pixels: only those need clearing to zero.
        case bounded
    }

    /// Clears `pixels` (`width`×`height`) to `color` as `start` allows and sets the extents
    /// to match: empty rows for a transparent clear, whole rows otherwise.
    static func clear(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, to color: PremultipliedColor,
                      extents: UnsafeMutablePointer<Int32>, start: Start) {
        let packed = color.packedRGBA8
        let target = UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt32.self)
        switch start {
        case .continuing:
            return
        case .bounded where packed == 0:
            for y in 0..<height {
                let lo = Int(extents[2 * y]), hi = Int(extents[2 * y + 1])
                if hi > lo { (target + y * width + lo).update(repeating: 0, count: hi - lo) }
            }
        default:
            target.update(repeating: packed, count: width * height)
        }
        if packed == 0 { setEmpty(extents, height: height, width: width) } else { setFull(extents, height: height, width: width) }
    }

    /// Every row untouched.
    static func setEmpty(_ extents: UnsafeMutablePointer<Int32>, height: Int, width: Int) {
        for y in 0..<height { (extents[2 * y], extents[2 * y + 1]) = (Int32(width), 0) }
    }

    /// Every row possibly touched everywhere (a blur's output, a coloured clear).
    static func setFull(_ extents: UnsafeMutablePointer<Int32>, height: Int, width: Int) {
        for y in 0..<height { (extents[2 * y], extents[2 * y + 1]) = (0, Int32(width)) }
    }
}

extension PassRasterizer {
    /// Widens the target's extents by the spans `item` covers in `rows`.
    func markWritten(_ item: PreparedItem, rows: Range<Int>) {
        for y in rows.clamped(to: item.polygon.rows) {
            let span = item.polygon.span(row: y)
            guard !span.isEmpty else { continue }
            written[2 * y] = min(written[2 * y], Int32(span.lowerBound))
            written[2 * y + 1] = max(written[2 * y + 1], Int32(span.upperBound))
        }
    }
}

extension PremultipliedColor {
    /// The colour as a target stores it: RGBA8 bytes in one little-endian word (0: the
    /// transparent clear that extents take for untouched).
    var packedRGBA8: UInt32 {
        func byte(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 1) * 255 + 0.5) }
        return byte(red) | byte(green) << 8 | byte(blue) << 16 | byte(alpha) << 24
    }
}

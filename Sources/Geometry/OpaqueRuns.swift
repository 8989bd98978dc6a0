/// Per row of an RGBA8 premultiplied image, its longest run of opaque pixels (alpha 255):
/// columns `first ..< end`, two values a row ((0, 0): none). Whatever an opaque pixel of a layer
/// drawn unfaded covers is hidden, so a renderer may skip drawing it (the inside of a filled
/// shape hides the shapes below it).
public enum OpaqueRuns {
    /// Scans `height` rows of `width` pixels (as little-endian words, alpha in the top byte) into
    /// `runs` (`2 · height` values), each row only within its `RowExtents` (`extents`).
    public static func scan(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, extents: UnsafePointer<Int32>,
                            into runs: UnsafeMutablePointer<Int32>) {
        let alphas: UInt64 = 0xFF00_0000_FF00_0000
        for y in 0..<height {
            let row = pixels + y * width
            var best = (first: 0, end: 0)
            var x = Int(extents[2 * y])
            let end = Int(extents[2 * y + 1])
            var first = -1  // start of the current opaque run
            while x < end {
                // Eight pixels at a time where all are opaque or none is.
                if x + 8 <= end {
                    let p = UnsafeRawPointer(row + x)
                    let w0 = p.loadUnaligned(as: UInt64.self), w1 = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    let w2 = p.loadUnaligned(fromByteOffset: 16, as: UInt64.self), w3 = p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                    if (w0 & w1 & w2 & w3) & alphas == alphas {
                        if first < 0 { first = x }
                        x += 8
                        continue
                    }
                    if ((w0 | w1 | w2 | w3) & alphas) == 0 {
                        if first >= 0, x - first > best.end - best.first { best = (first, x) }
                        first = -1
                        x += 8
                        continue
                    }
                }
                if row[x] >= 0xFF00_0000 {
                    if first < 0 { first = x }
                } else {
                    if first >= 0, x - first > best.end - best.first { best = (first, x) }
                    first = -1
                }
                x += 1
            }
            if first >= 0, end - first > best.end - best.first { best = (first, end) }
            (runs[2 * y], runs[2 * y + 1]) = (Int32(best.first), Int32(best.end))
        }
    }
}

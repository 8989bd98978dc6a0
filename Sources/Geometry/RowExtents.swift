/// Where each row of an RGBA8 image holds something: per row, the columns `first ..< end` outside
/// which every pixel is transparent, two values a row ((0, 0): an empty row). Shape rasters are
/// mostly empty around their paths; a renderer reads a row only where it holds something.
public enum RowExtents {
    /// Scans `height` rows of `width` pixels (as little-endian words) into `extents`
    /// (`2 · height` values).
    public static func scan(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, into extents: UnsafeMutablePointer<Int32>) {
        for y in 0..<height {
            let row = pixels + y * width
            var first = 0, last = width - 1
            // Eight words at a time over the empty runs (ORed two by two: zero when all are),
            // then one by one.
            @inline(__always) func empty(_ i: Int) -> Bool {
                let p = UnsafeRawPointer(row + i)
                return (p.loadUnaligned(as: UInt64.self) | p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        | p.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)) == 0
            }
            while first + 8 <= width, empty(first) { first += 8 }
            while first < width, row[first] == 0 { first += 1 }
            while last - 8 >= first, empty(last - 7) { last -= 8 }
            while last >= first, row[last] == 0 { last -= 1 }
            (extents[2 * y], extents[2 * y + 1]) = first < width ? (Int32(first), Int32(last + 1)) : (0, 0)
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes malloc map allocations of a megabyte or more and unmap them when freed.
///
/// An export allocates and frees frame-sized buffers every frame (decoded video frames, read-back
/// frames, textures inside the GL driver). glibc raises its mmap threshold after the first such
/// free and then carves them from the heap, which fragments and never shrinks: the demo's GPU
/// export peaked at 700–990 MB over 300 frames that way, and at 189 MB with the threshold fixed.
enum LargeAllocations {
    /// Applied once per process (`M_MMAP_THRESHOLD` = 1 MiB; fixing it also stops the adjustment).
    static let mapped: Void = {
        #if canImport(Glibc)
        // mallopt is not in Swift's Glibc module; found at run time like any C symbol.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3
        if let symbol = dlsym(nil, "mallopt") {
            _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 1 << 20)
        }
        #endif
    }()
}

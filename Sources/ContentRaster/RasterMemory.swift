import CCairo

/// The allocator settings a renderer that makes large images every frame needs.
///
/// glibc serves a block above its mmap threshold (128 KiB at first, raised only as such blocks
/// are freed) with a fresh mapping and unmaps it on free, and gives the top of the heap back to
/// the system beyond its trim threshold (128 KiB): every frame's animated shape rasters (a
/// 512×512 frame's water in Boat_Loader is 1.1 MB, 4.9 MB at 1080×1080), the CPU backend's
/// textures and targets then paid a page fault per 4 KiB on first touch — measured 339 faults
/// per frame on Boat_Loader at 1080×1080, 163 with the thresholds fixed, most of the rest in
/// the clear of rasters the caches still hold. Fixed thresholds keep blocks up to 32 MiB in
/// the heap and up to 64 MiB of freed memory mapped, so the next frame's blocks reuse pages
/// already touched. Process-wide; applied once, by the first ``ContentCache``.
public enum RasterMemory {
    /// Largest block kept in the heap rather than mapped on its own (glibc's 64-bit maximum).
    public static let heapBlockLimit = 32 << 20
    /// Free memory at the top of the heap kept mapped rather than returned.
    public static let retainedFreeBytes = 64 << 20

    /// Whether the thresholds are set (false where the C library is not glibc).
    public static let isConfigured: Bool = {
        #if canImport(Glibc)
        mallopt(M_MMAP_THRESHOLD, Int32(heapBlockLimit)) == 1 && mallopt(M_TRIM_THRESHOLD, Int32(retainedFreeBytes)) == 1
        #else
        return false
        #endif
    }()

    /// Blocks the allocator has mapped on their own now (glibc's `mallinfo2().hblks`; 0 elsewhere).
    public static var separatelyMappedBlocks: Int {
        #if canImport(Glibc)
        Int(mallinfo2().hblks)
        #else
        0
        #endif
    }
}

import CPrefetch

// What sampling a keyframe track reads lies in several heap blocks (the object, its key times,
// values and tangents, or a path's segments and arc-length tables): on a big tree each is a
// cache miss per animation per frame. The evaluation asks for them a few layers ahead (see
// CALayer+Prefetch in Layers). Hints only: no value changes.

extension VectorKeyframes {
    /// Starts loading the arrays sampling reads (the object itself best in cache already).
    ///
    /// Reads nothing but the object: an array is one reference to its heap buffer (a header,
    /// then the elements), so the buffer is asked for at that address, sized from the keyframe
    /// count the track holds. Reading an array's own count (or `isEmpty`) first would wait on
    /// that very buffer, the miss this is meant to hide.
    package func prefetchSamplingData() {
        let keyframes = track.count
        Self.prefetch(track.keyTimes, elements: keyframes)
        if followsPath {
            Self.prefetch(segments, elements: keyframes)
            Self.prefetch(track.arcTables, elements: keyframes)
        } else {
            Self.prefetch(values, elements: keyframes)
            Self.prefetch(tangentsOut, elements: keyframes)
            Self.prefetch(tangentsIn, elements: keyframes)
        }
    }

    /// The array buffer's header and first `elements` elements (at most 512 bytes).
    @inline(__always)
    private static func prefetch<T>(_ array: [T], elements: Int) {
        let header = 32
        let buffer = unsafeBitCast(array, to: UnsafeRawPointer.self)
        lamina_prefetch(buffer, min(header + elements * MemoryLayout<T>.stride, 512))
    }
}

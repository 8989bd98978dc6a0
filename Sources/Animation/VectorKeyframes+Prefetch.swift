import CPrefetch

// What sampling a keyframe track reads lies in several heap blocks (the object, its key times,
// values and tangents, or a path's segments and arc-length tables): on a big tree each is a
// cache miss per animation per frame. The evaluation asks for them a few layers ahead (see
// CALayer+Prefetch in Layers). Hints only: no value changes.

extension VectorKeyframes {
    /// Starts loading the arrays sampling reads (the object itself best in cache already).
    package func prefetchSamplingData() {
        Self.prefetch(track.keyTimes)
        if segments.isEmpty {
            Self.prefetch(values)
            Self.prefetch(tangentsOut)
            Self.prefetch(tangentsIn)
        } else {
            Self.prefetch(segments)
            Self.prefetch(track.arcTables)
        }
    }

    @inline(__always)
    private static func prefetch<T>(_ array: [T]) {
        array.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress, !buffer.isEmpty else { return }
            lamina_prefetch(start, min(buffer.count * MemoryLayout<T>.stride, 512))
        }
    }
}

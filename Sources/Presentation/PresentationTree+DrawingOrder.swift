import Foundation
import Geometry

extension PresentationTree.Builder {
    /// Sorts `children[first...]` stably by their layers' zPosition (equal depths keep array order).
    func sortByZPosition(_ children: inout [Int], from first: Int) {
        PresentationTree.sortByZPosition(&children, from: first) { layers[$0 - base].properties.zPosition }
    }
}

extension PresentationTree {
    /// Sorts `children[first...]` stably by `zPosition(index)` (equal depths keep array order).
    /// The keys are read once, into a buffer sorted without closures or copy-on-write checks
    /// (this runs every frame for every parent whose sublayers' depths animate).
    ///
    /// Depth 0 is by far the most common: the layers in front of and behind the plane are
    /// split off (keeping their order) and only they are sorted.
    @inline(__always)
    static func sortByZPosition(_ children: inout [Int], from first: Int, zPosition: (Int) -> CGFloat) {
        guard children.count - first > 1 else { return }
        var behind: [ZSortEntry] = [], inFront: [ZSortEntry] = [], level: [Int] = []
        level.reserveCapacity(children.count - first)
        for index in children[first...] {
            let z = zPosition(index)
            if z < 0 { behind.append(ZSortEntry(z: z, index: index)) }
            else if z > 0 { inFront.append(ZSortEntry(z: z, index: index)) }
            else { level.append(index) }
        }
        ZSortEntry.sort(&behind)
        ZSortEntry.sort(&inFront)
        var k = first
        for entry in behind { children[k] = entry.index; k += 1 }
        for index in level { children[k] = index; k += 1 }
        for entry in inFront { children[k] = entry.index; k += 1 }
    }
}

/// A sublayer's depth and tree index, for `sortByZPosition`.
struct ZSortEntry {
    var z: CGFloat
    var index: Int

    /// Sorts `entries` by `z`, stably.
    static func sort(_ entries: inout [ZSortEntry]) {
        guard entries.count > 1 else { return }
        var scratch = entries
        entries.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { b in mergeSort(a, scratch: b) }
        }
    }

    /// Bottom-up merge sort of `a` by `z`, stable (a right-hand entry goes first only when its
    /// depth is strictly smaller); `scratch` has a's count. The result ends in `a`.
    static func mergeSort(_ a: UnsafeMutableBufferPointer<ZSortEntry>, scratch: UnsafeMutableBufferPointer<ZSortEntry>) {
        let n = a.count
        var source = a, target = scratch
        var width = 1
        while width < n {
            var start = 0
            while start < n {
                let middle = min(start + width, n), end = min(start + 2 * width, n)
                var i = start, j = middle, k = start
                while i < middle, j < end {
                    if source[j].z < source[i].z { target[k] = source[j]; j += 1 } else { target[k] = source[i]; i += 1 }
                    k += 1
                }
                while i < middle { target[k] = source[i]; i += 1; k += 1 }
                while j < end { target[k] = source[j]; j += 1; k += 1 }
                start = end
            }
            swap(&source, &target)
            width *= 2
        }
        if source.baseAddress != a.baseAddress {
            for i in 0..<n { a[i] = source[i] }
        }
    }
}

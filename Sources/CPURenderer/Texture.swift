import Foundation
import Geometry
import Rendering

/// An RGBA8 premultiplied image the CPU renderer samples: layer contents or an earlier pass.
/// Sampling follows OpenGL ES: texel centres at half-integers, clamp to edge, bilinear weights,
/// and for trilinear filtering a mipmap chain built by 2×2 box averaging as `glGenerateMipmap`
/// does. Levels live in memory the texture owns, so shading threads read them without copies.
final class Texture: @unchecked Sendable {
    /// Level 0 first; each level half the size of the one before (at least 1), down to 1×1.
    private(set) var levels: [TextureLevelView] = []
    /// The contents image's pixels that level 0 points into (nil: level 0 is the texture's own).
    private let shared: [UInt8]?
    /// Whether every texel has alpha 1 (an item painted with it may hide what is below).
    let isOpaque: Bool

    /// The image's texels, read where they lie (a raster made this frame is not copied again:
    /// a copy costs a pass over fresh memory, page faults and all); `knownRowExtents`, the
    /// image's `RowExtents` where they were found before (scanned here otherwise);
    /// `opaqueRuns`, its `OpaqueRuns` where they were found (never scanned here).
    init(_ image: Image, knownRowExtents: [Int32]? = nil, opaqueRuns: [Int32]? = nil) {
        let runs = opaqueRuns?.count == 2 * image.height ? opaqueRuns : nil
        self.opaqueRuns = runs
        opaqueArea = runs.map { runs in stride(from: 0, to: runs.count, by: 2).reduce(0) { $0 + Int(runs[$1 + 1] - runs[$1]) } } ?? 0
        // The array's storage is a heap object that neither moves nor changes while `shared`
        // holds it, so its address stands in for level 0 (which a content texture never writes).
        shared = image.pixels
        let base = shared!.withUnsafeBufferPointer { $0.baseAddress! }
        levels = [TextureLevelView(base: base, width: image.width, height: image.height)]
        isOpaque = image.isOpaque
        extents = .allocate(capacity: 2 * max(image.height, 1))
        if let knownRowExtents, knownRowExtents.count == 2 * image.height {
            knownRowExtents.withUnsafeBufferPointer { extents.update(from: $0.baseAddress!, count: $0.count) }
        } else {
            RowExtents.scan(texels, width: image.width, height: image.height, into: extents)
        }
        rowExtents = extents
    }

    /// Per row of level 0, its longest run of opaque texels (`OpaqueRuns`), for content whose
    /// runs were found on the planning thread; nil otherwise.
    let opaqueRuns: [Int32]?
    /// The texels `opaqueRuns` cover.
    let opaqueArea: Int

    /// Per row of level 0, the columns `first ..< last + 1` outside which every texel is
    /// transparent (first ≥ last: an empty row), two values a row; nil until known (contents:
    /// found on creation; pass targets: what their draws covered, `TargetExtents`). Shape
    /// rasters are mostly empty around their paths: rows of a texture are sampled only where
    /// they hold something.
    private(set) var rowExtents: UnsafeMutablePointer<Int32>?
    /// The storage of `rowExtents`; for a pass target, kept up to date by the draws into it
    /// once `extentsHold` (from its first full clear on).
    let extents: UnsafeMutablePointer<Int32>
    /// Whether `extents` bound this target's non-transparent pixels (false until first cleared).
    var extentsHold = false
    /// Per tile of 16×16 texels of level 0 (rows of `tileColumns`), 0 where every texel is
    /// transparent; made from the row extents by `makeTiles`. Rotated rasters are sampled only
    /// along the parts of their rows that reach something.
    private(set) var tiles: UnsafeMutablePointer<UInt8>?
    var tileColumns: Int { (width + 15) >> 4 }

    /// An uninitialised `width`×`height` target that passes draw into (reused across frames).
    init(target width: Int, height: Int) {
        levels = [TextureLevelView(base: UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * 4), width: width, height: height)]
        shared = nil
        isOpaque = false
        opaqueRuns = nil
        opaqueArea = 0
        extents = .allocate(capacity: 2 * max(height, 1))
    }

    /// The pixels of level 0, for drawing into a pass target.
    var targetPixels: UnsafeMutablePointer<UInt8> { UnsafeMutablePointer(mutating: levels[0].base) }

    /// Level 0 widened to 16-bit lanes (`PackedSpans.widen`), for bilinear draws of a texture
    /// drawn more than once (a cached image under many layers): made on the second such draw,
    /// kept with the texture, dropped with what else derives from level 0.
    private var widened: UnsafeMutablePointer<UInt64>?
    private var bilinearDraws = 0
    /// The draw that last counted (`widenedTexelsIfReused`): each band of one item's draw asks.
    private var lastDraw: Int?
    private let widenedLock = NSLock()

    /// The widened texels from this texture's second bilinear draw on; nil before (a raster
    /// drawn once is cheaper sampled packed). `draw` names the item's draw (the same for every
    /// band of it, so one draw split over threads counts once). Safe from every shading thread.
    func widenedTexelsIfReused(draw: Int) -> UnsafePointer<UInt64>? {
        widenedLock.lock()
        defer { widenedLock.unlock() }
        if let widened { return UnsafePointer(widened) }
        if lastDraw != draw { bilinearDraws += 1 }
        lastDraw = draw
        guard bilinearDraws > 1 else { return nil }
        let count = width * height, packed = texels
        let copy = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
        for i in 0..<count { copy[i] = PackedSpans.widen(packed[i]) }
        widened = copy
        return UnsafePointer(copy)
    }

    /// Drops what was derived from level 0 (mipmaps, row extents) before it is drawn anew.
    func invalidateDerived() {
        widenedLock.lock()
        widened?.deallocate()
        widened = nil
        bilinearDraws = 0
        lastDraw = nil
        widenedLock.unlock()
        for level in levels.dropFirst() { UnsafeMutablePointer(mutating: level.base).deallocate() }
        levels.removeSubrange(1...)
        rowExtents = nil
        tiles?.deallocate()
        tiles = nil
    }

    deinit {
        for level in levels.dropFirst(shared == nil ? 0 : 1) { UnsafeMutablePointer(mutating: level.base).deallocate() }
        extents.deallocate()
        tiles?.deallocate()
        widened?.deallocate()
    }

    /// Level 0's texels packed little-endian (R in the low byte), for the packed loops.
    var texels: UnsafePointer<UInt32> { UnsafeRawPointer(levels[0].base).assumingMemoryBound(to: UInt32.self) }

    /// Builds `tiles` once from the row extents (none without them); call before shading threads start.
    func makeTiles() {
        guard tiles == nil, let rowExtents else { return }
        let columns = tileColumns, count = columns * ((height + 15) >> 4)
        let map = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        map.initialize(repeating: 0, count: count)
        for y in 0..<height {
            let lo = Int(rowExtents[2 * y]), hi = Int(rowExtents[2 * y + 1])
            guard hi > lo else { continue }
            let row = map + (y >> 4) * columns
            for t in (lo >> 4)...((hi - 1) >> 4) { row[t] = 1 }
        }
        tiles = map
    }

    /// Offers a drawn pass target's `extents` as its row extents.
    func extentsDrawn() {
        extentsHold = true
        rowExtents = extents
    }

    var width: Int { levels[0].width }
    var height: Int { levels[0].height }
    var level0: TextureLevelView { levels[0] }

    /// Builds the mipmap chain once; call before shading threads start.
    func makeMipmaps() {
        guard levels.count == 1 else { return }
        while let last = levels.last, last.width > 1 || last.height > 1 {
            let w = max(1, last.width / 2), h = max(1, last.height / 2)
            let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 4)
            let src = last.base
            for y in 0..<h {
                let y0 = min(2 * y, last.height - 1), y1 = min(2 * y + 1, last.height - 1)
                for x in 0..<w {
                    let x0 = min(2 * x, last.width - 1), x1 = min(2 * x + 1, last.width - 1)
                    for c in 0..<4 {
                        let sum = Int(src[(y0 * last.width + x0) * 4 + c]) + Int(src[(y0 * last.width + x1) * 4 + c])
                            + Int(src[(y1 * last.width + x0) * 4 + c]) + Int(src[(y1 * last.width + x1) * 4 + c])
                        pixels[(y * w + x) * 4 + c] = UInt8((sum + 2) / 4)
                    }
                }
            }
            levels.append(TextureLevelView(base: pixels, width: w, height: h))
        }
    }
}

/// Reads texels of one mip level without bounds checks or reference counting in the inner loop.
struct TextureLevelView {
    let base: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let widthF: Float
    let heightF: Float

    init(base: UnsafePointer<UInt8>, width: Int, height: Int) {
        self.base = base; self.width = width; self.height = height
        widthF = Float(width); heightF = Float(height)
    }

    @inline(__always)
    func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
        let p = base + (cy * width + cx) * 4
        return SIMD4<Float>(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
    }

    /// Nearest sample at normalised (u, v); channels 0…255.
    @inline(__always)
    func nearest(_ u: Float, _ v: Float) -> SIMD4<Float> {
        texel(Int((u * widthF).rounded(.down)), Int((v * heightF).rounded(.down)))
    }

    /// Bilinear sample at normalised (u, v); channels 0…255.
    @inline(__always)
    func bilinear(_ u: Float, _ v: Float) -> SIMD4<Float> {
        let x = u * widthF - 0.5, y = v * heightF - 0.5
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let ax = x - fx, ay = y - fy
        let ix = Int(fx), iy = Int(fy)
        let t00 = texel(ix, iy), t10 = texel(ix + 1, iy), t01 = texel(ix, iy + 1), t11 = texel(ix + 1, iy + 1)
        let top = t00 + (t10 - t00) * ax
        let bottom = t01 + (t11 - t01) * ax
        return top + (bottom - top) * ay
    }
}

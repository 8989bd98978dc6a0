import Foundation

/// What an item does to a texel's widened channels before they are blended: nothing, its
/// opacity, or its tint with the opacity folded in. A type per case, so each loop is compiled
/// for one of them and the per-pixel work has no branch on it.
protocol TexelModulation {
    func apply(_ c: UInt64) -> UInt64
    /// `apply` on four packed texels (one per lane), to the same bytes.
    func apply(_ c: SIMD4<UInt32>) -> SIMD4<UInt32>
}

struct Unmodulated: TexelModulation {
    @inline(__always) func apply(_ c: UInt64) -> UInt64 { c }
    @inline(__always) func apply(_ c: SIMD4<UInt32>) -> SIMD4<UInt32> { c }
}

/// Each channel times `fade`/256.
struct Faded: TexelModulation {
    let fade: UInt64
    @inline(__always) func apply(_ c: UInt64) -> UInt64 { PackedSpans.scale(c, fade) }
    @inline(__always) func apply(_ c: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let pair = SIMD4(repeating: UInt32(fade) | UInt32(fade) << 16)
        return PackedSpans.scale(c, rb: pair, ga: pair)
    }
}

/// Each channel times its own factor/256.
struct TintFactors: TexelModulation {
    let factors: SIMD4<UInt64>
    @inline(__always) func apply(_ c: UInt64) -> UInt64 { PackedSpans.multiply(c, factors) }
    @inline(__always) func apply(_ c: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let rb = SIMD4(repeating: UInt32(factors.x) | UInt32(factors.z) << 16)
        let ga = SIMD4(repeating: UInt32(factors.y) | UInt32(factors.w) << 16)
        return PackedSpans.scale(c, rb: rb, ga: ga)
    }
}

extension PassRasterizer {
    /// A bilinear-sampled texture with no shape, faded by the item's opacity, multiplied by its
    /// tint and by the alpha of its mask (a texture of the same size, sampled at the same place).
    /// Texels are read packed and widened as they are used; where the arithmetic cannot change
    /// a pixel (a transparent sample, a masked-out pixel) it is skipped, and opaque samples or
    /// samples over transparent pixels are stored — each exactly what the blend computes.
    func drawTextured(_ item: PreparedItem, texture: Texture, rows: Range<Int>, claiming: Bool) {
        let opacity = min(max(item.opacity, 0), 1)
        if let t = item.tint {
            // The tint with the fade folded in, as 0…256 factors.
            let f = t.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1)) * (opacity * 256)
            let factors = SIMD4(UInt64(f.x.rounded()), UInt64(f.y.rounded()), UInt64(f.z.rounded()), UInt64(f.w.rounded()))
            return drawTextured(item, texture: texture, rows: rows, claiming: claiming, TintFactors(factors: factors))
        }
        let fade = UInt64(opacity * 256 + 0.5)
        if fade < 256 { return drawTextured(item, texture: texture, rows: rows, claiming: claiming, Faded(fade: fade)) }
        drawTextured(item, texture: texture, rows: rows, claiming: claiming, Unmodulated())
    }

    private func drawTextured<M: TexelModulation>(_ item: PreparedItem, texture: Texture, rows: Range<Int>, claiming: Bool, _ m: M) {
        // Pixel → texel space (minus the half texel), numerators over the shared denominator.
        let texel = item.texelNumerators(width: texture.width, height: texture.height)
        let u = texel.u - item.denominator * 0.5, v = texel.v - item.denominator * 0.5
        let d = item.denominator
        let extents = RowExtents(texture)
        if let offset = Self.texelOffset(u: u, v: v, d: d) {
            return drawTexels(item, texture: texture, offset: offset, extents: extents, rows: rows, claiming: claiming, m)
        }
        let textureWidth = texture.width, textureHeight = texture.height
        let tiles = texture.tiles.map { Tiles(map: $0, columns: texture.tileColumns, width: textureWidth, height: textureHeight) }
        // A mask pass has the content pass's size; where its samples reach only transparent
        // texels, so does the masked sample (a gradient masked by an ellipse: the corners).
        let maskTiles = !narrowsToMasks ? nil : item.mask.flatMap { mask in
            mask.width == textureWidth && mask.height == textureHeight
                ? mask.tiles.map { Tiles(map: $0, columns: mask.tileColumns, width: textureWidth, height: textureHeight) } : nil
        }
        // A texture drawn again (one image under many layers) is sampled from its widened copy:
        // the same mix without widening four texels per sample.
        let widened = texture.widenedTexelsIfReused(draw: drawSerial << 32 | Int(item.order))
        let packed = PackedTexels(texels: texture.texels, width: textureWidth, height: textureHeight)
        // One loop per sampler type (packed or widened, masked or not), so the per-pixel work
        // is inlined with no branch on them.
        switch (widened, item.mask?.texels) {
        case (let widened?, let mask?):
            let color = WidenedTexels(texels: widened, width: textureWidth, height: textureHeight)
            drawSampled(item, MaskedSampler(color: color, mask: mask, width: textureWidth, height: textureHeight, m: m),
                        u: u, v: v, d: d, extents: extents, tiles: tiles, maskTiles: maskTiles, rows: rows, claiming: claiming)
        case (let widened?, nil):
            let color = WidenedTexels(texels: widened, width: textureWidth, height: textureHeight)
            drawSampled(item, UnmaskedSampler(color: color, m: m),
                        u: u, v: v, d: d, extents: extents, tiles: tiles, maskTiles: maskTiles, rows: rows, claiming: claiming)
        case (nil, let mask?):
            drawSampled(item, MaskedSampler(color: packed, mask: mask, width: textureWidth, height: textureHeight, m: m),
                        u: u, v: v, d: d, extents: extents, tiles: tiles, maskTiles: maskTiles, rows: rows, claiming: claiming)
        case (nil, nil):
            drawSampled(item, UnmaskedSampler(color: packed, m: m),
                        u: u, v: v, d: d, extents: extents, tiles: tiles, maskTiles: maskTiles, rows: rows, claiming: claiming)
        }
    }

    /// `drawTextured`'s bilinear loop over the rows, with `sampler` giving each pixel's modulated sample.
    private func drawSampled<S: TexelSampler>(_ item: PreparedItem, _ sampler: S, u: SIMD3<Float>, v: SIMD3<Float>, d: SIMD3<Float>,
                                               extents: RowExtents?, tiles: Tiles?, maskTiles: Tiles?, rows: Range<Int>, claiming: Bool) {
        let textureWidth = sampler.width
        @inline(__always) func sample(_ x: Int32, _ y: Int32) -> UInt64 { sampler.sample(x, y) }
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let order = item.order
        // Under a plain scale and move a pixel row samples two texel rows: only the part of it
        // whose samples can reach their non-transparent texels is drawn.
        let axisAligned = d.x == 0 && d.y == 0 && d.z > 0 && u.y == 0 && v.x == 0 && u.x > 0 && v.y > 0
        for y in rows {
            var span = item.polygon.span(row: y)
            guard !span.isEmpty else { continue }
            let py = Float(y) + 0.5
            if axisAligned, let extents {
                let tv = min(max((v.y * py + v.z) / d.z, -1_000_000), 1_000_000)
                let iy = Int(tv.rounded(.down))
                guard let (lo, hi) = extents.columns(rows: iy, iy + 1) else { continue }
                // Pixel x samples texels ⌊tu⌋ and ⌊tu⌋ + 1, tu = ((x + ½)·u.x + u.z) / d.z; past
                // the texture's edge the edge texels repeat, so an extent reaching it is kept open.
                var x0 = span.lowerBound, x1 = span.upperBound
                if lo > 0 { x0 = max(x0, Int(max(((Float(lo) - 1) * d.z - u.z) / u.x - 0.5, -1_000_000).rounded(.down)) - 1) }
                if hi < textureWidth { x1 = min(x1, Int(min((Float(hi) * d.z - u.z) / u.x - 0.5, 1_000_000).rounded(.up)) + 2) }
                guard x1 > x0 else { continue }
                span = x0..<x1
            }
            let u0 = u.y * py + u.z, v0 = v.y * py + v.z, d0 = d.y * py + d.z
            @inline(__always) func texel(_ x: Int) -> (Int32, Int32) {
                let px = Float(x) + 0.5
                let r = 1 / (d.x * px + d0)
                return (PackedSpans.fixed((u.x * px + u0) * r), PackedSpans.fixed((v.x * px + v0) * r))
            }
            let row = pixels + y * width
            var x = span.lowerBound
            var (tu, tv) = texel(x)
            while x < span.upperBound {
                let n = min(PackedSpans.block, span.upperBound - x)
                let (nu, nv) = texel(x + n)
                let du = (nu &- tu) / Int32(n), dv = (nv &- tv) / Int32(n)
                var fu = tu, fv = tv
                // The block's samples lie between its ends: where all they reach is transparent,
                // none changes the target (claiming items write even nothing, so they draw on).
                if !claiming, tiles?.areEmpty(u: tu, nu, v: tv, nv) == true || maskTiles?.areEmpty(u: tu, nu, v: tv, nv) == true {
                    x += n
                    (tu, tv) = (nu, nv)
                    continue
                }
                // One loop per mode, so the per-pixel work has no mode branches.
                if let owner {
                    let ownerRow = owner + y * width
                    if claiming {
                        for i in x..<(x + n) {
                            if ownerRow[i] < 0 { row[i] = PackedSpans.narrow(sample(fu, fv)); ownerRow[i] = order }
                            fu &+= du; fv &+= dv
                        }
                    } else {
                        for i in x..<(x + n) {
                            if ownerRow[i] <= order { PackedSpans.blend(sample(fu, fv), into: row + i) }
                            fu &+= du; fv &+= dv
                        }
                    }
                } else if sampler.reachesOnlyInside(u: tu, tu &+ Int32(n - 1) &* du, v: tv, tv &+ Int32(n - 1) &* dv) {
                    // Every sample of the block mixes four texels inside the texture: no clamping.
                    for i in x..<(x + n) {
                        PackedSpans.blend(sampler.sampleInside(fu, fv), into: row + i)
                        fu &+= du; fv &+= dv
                    }
                } else {
                    for i in x..<(x + n) {
                        PackedSpans.blend(sample(fu, fv), into: row + i)
                        fu &+= du; fv &+= dv
                    }
                }
                x += n
                (tu, tv) = (nu, nv)
            }
        }
    }

    /// The whole-texel offset (texel = pixel + offset) when pixel → texel space is a plain move
    /// by whole texels (a raster made on the target's own pixels): every bilinear sample then
    /// falls on a texel (weights 0, or 255/256 just short of the next one), and is that texel,
    /// within one step of 8 bits. The scale may be off 1 by float rounding (1e-6: under 1/512
    /// texel across the largest pass).
    static func texelOffset(u: SIMD3<Float>, v: SIMD3<Float>, d: SIMD3<Float>) -> (Int, Int)? {
        guard d.x == 0, d.y == 0, d.z > 0, u.y == 0, v.x == 0,
              abs(u.x - d.z) <= 1e-6 * d.z, abs(v.y - d.z) <= 1e-6 * d.z else { return nil }
        // Texel of pixel centre x + ½: x + ½ + u.z / d.z (the half texel is already in u.z).
        let ox = 0.5 + u.z / d.z, oy = 0.5 + v.z / d.z
        guard abs(ox) < 1_000_000, abs(oy) < 1_000_000 else { return nil }
        let nx = ox.rounded(), ny = oy.rounded()
        guard abs(ox - nx) < 1 / 512, abs(oy - ny) < 1 / 512 else { return nil }
        return (Int(nx), Int(ny))
    }

    /// `drawTextured` for a texture placed on whole pixels: one texel read per pixel (clamped to
    /// the edge as the bilinear sample is).
    @inline(__always)
    func drawTexels<M: TexelModulation>(_ item: PreparedItem, texture: Texture, offset: (Int, Int), extents: RowExtents?,
                                                rows: Range<Int>, claiming: Bool, _ m: M) {
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let texels = texture.texels, mask = item.mask?.texels
        let tw = texture.width, th = texture.height
        let order = item.order
        // Where the mask (the content's size) is transparent the masked texel is nothing, which
        // changes no pixel unless the item claims them: its rows are narrowed to the mask's too.
        let maskExtents = claiming || !narrowsToMasks ? nil : item.mask.flatMap { $0.width == tw && $0.height == th ? RowExtents($0) : nil }
        /// `span` narrowed to the columns whose texels hold anything by `extents` (empty: none).
        @inline(__always) func narrowed(_ span: Range<Int>, _ extents: RowExtents?, row y: Int) -> Range<Int> {
            guard let extents else { return span }
            guard let (lo, hi) = extents.columns(rows: y + offset.1, y + offset.1) else { return 0..<0 }
            let x0 = lo > 0 ? max(span.lowerBound, lo - offset.0) : span.lowerBound
            let x1 = hi < tw ? min(span.upperBound, hi - offset.0) : span.upperBound
            return x1 > x0 ? x0..<x1 : 0..<0
        }
        var skipped = 0
        defer { hiddenTally?.add(skipped) }
        for y in rows {
            var span = item.polygon.span(row: y)
            guard !span.isEmpty else { continue }
            span = narrowed(span, extents, row: y)
            guard !span.isEmpty else { continue }
            span = narrowed(span, maskExtents, row: y)
            guard !span.isEmpty else { continue }
            let ty = min(max(y + offset.1, 0), th - 1) * tw
            let texelRow = texels + ty, maskRow = mask.map { $0 + ty }
            let row = pixels + y * width
            if let owner {
                let ownerRow = owner + y * width
                for x in span {
                    let tx = min(max(x + offset.0, 0), tw - 1)
                    var c = PackedSpans.widen(texelRow[tx])
                    if let maskRow {
                        let a = UInt64(maskRow[tx] >> 24)
                        c = PackedSpans.scale(c, a + (a >> 7))
                    }
                    if claiming {
                        if ownerRow[x] < 0 { row[x] = PackedSpans.narrow(m.apply(c)); ownerRow[x] = order }
                    } else if ownerRow[x] <= order {
                        PackedSpans.blend(m.apply(c), into: row + x)
                    }
                }
            } else {
                // Where the target is still empty the blend is a store: runs left and right
                // of the row's written extent are stored, the part inside blended.
                @inline(__always) func put(_ span: Range<Int>) {
                    guard !span.isEmpty else { return }
                    let lo = max(Int(written[2 * y]), span.lowerBound), hi = min(Int(written[2 * y + 1]), span.upperBound)
                    if hi > lo {
                        storeTexels(span.lowerBound..<lo, row: row, texels: texelRow, mask: maskRow, offset: offset.0, width: tw, m)
                        blendTexels(lo..<hi, row: row, texels: texelRow, mask: maskRow, offset: offset.0, width: tw, m)
                        storeTexels(hi..<span.upperBound, row: row, texels: texelRow, mask: maskRow, offset: offset.0, width: tw, m)
                    } else {
                        storeTexels(span, row: row, texels: texelRow, mask: maskRow, offset: offset.0, width: tw, m)
                    }
                }
                // Around the columns a later item's opaque texels replace.
                if let hidden {
                    let h = hidden.columns(row: y)
                    let lo = max(Int(h.lo), span.lowerBound), hi = min(Int(h.hi), span.upperBound)
                    if hi > lo {
                        put(span.lowerBound..<lo)
                        put(hi..<span.upperBound)
                        skipped += hi - lo
                        continue
                    }
                }
                put(span)
            }
        }
    }

    /// Source-over of texels `x + offset` (clamped to the row) onto pixels `xs`.
    @inline(__always)
    private func blendTexels<M: TexelModulation>(_ xs: Range<Int>, row: UnsafeMutablePointer<UInt32>, texels: UnsafePointer<UInt32>,
                                                 mask: UnsafePointer<UInt32>?, offset: Int, width tw: Int, _ m: M) {
        if let mask {
            @inline(__always) func put(_ x: Int) {
                let tx = min(max(x + offset, 0), tw - 1)
                let a = UInt64(mask[tx] >> 24)
                let c = texels[tx]
                if a == 0 || c == 0 { return }
                // Under a whole mask texel the scale by 256/256 is the texel itself.
                let w = a == 255 ? PackedSpans.widen(c) : PackedSpans.scale(PackedSpans.widen(c), a + (a >> 7))
                PackedSpans.blend(m.apply(w), into: row + x)
            }
            // Four at a time where no texel index is clamped (what `put` computes, lane by lane).
            Self.forEachColumn(xs, offset: offset, width: tw, one: put) { x in
                let masks = PackedSpans.load4(mask + x + offset)
                guard masks &>> 24 != .zero else { return }
                let c = m.apply(PackedSpans.scale(PackedSpans.load4(texels + x + offset), byAlphaOf: masks))
                PackedSpans.store4(PackedSpans.over(c, PackedSpans.load4(row + x)), row + x)
            }
        } else if M.self == Unmodulated.self {
            // Texels taken as they are: the columns whose texels lie inside the row without
            // clamping, and `blend`'s cases on the packed texel (nothing, opaque, over nothing).
            let inner = xs.clamped(to: (-offset)..<(tw - offset))
            guard !inner.isEmpty else { return blendClamped(xs, row: row, texels: texels, offset: offset, width: tw, m) }
            blendClamped(xs.lowerBound..<inner.lowerBound, row: row, texels: texels, offset: offset, width: tw, m)
            let source = texels + offset
            @inline(__always) func put(_ x: Int) {
                let c = source[x]
                if c == 0 { return }
                if c >= 0xFF00_0000 { row[x] = c; return }
                let d = row[x]
                row[x] = d == 0 ? c : PackedSpans.over(PackedSpans.widen(c), d)
            }
            // Eight texels at a time where all are transparent (nothing to do) or all opaque
            // (stored): the runs a shape's raster is made of; mixed blocks pixel by pixel.
            var x = inner.lowerBound
            while x + 8 <= inner.upperBound {
                // OR: zero when all are; AND: alpha 255 when all have it (scalar words, two
                // texels each: Swift's SIMD masks go lane by lane through memory here).
                let words = UnsafeRawPointer(source + x)
                let w0 = words.loadUnaligned(as: UInt64.self), w1 = words.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                let w2 = words.loadUnaligned(fromByteOffset: 16, as: UInt64.self), w3 = words.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                let some = (w0 | w1) | (w2 | w3), every = (w0 & w1) & (w2 & w3)
                if some == 0 {
                } else if every & 0xFF00_0000_FF00_0000 == 0xFF00_0000_FF00_0000 {
                    // Stored as the words read (a copy call per eight texels costs more than the copy).
                    let out = UnsafeMutableRawPointer(row + x)
                    out.storeBytes(of: w0, as: UInt64.self); out.storeBytes(of: w1, toByteOffset: 8, as: UInt64.self)
                    out.storeBytes(of: w2, toByteOffset: 16, as: UInt64.self); out.storeBytes(of: w3, toByteOffset: 24, as: UInt64.self)
                } else {
                    let out = row + x
                    PackedSpans.store4(PackedSpans.over(PackedSpans.load4(source + x), PackedSpans.load4(out)), out)
                    PackedSpans.store4(PackedSpans.over(PackedSpans.load4(source + x + 4), PackedSpans.load4(out + 4)), out + 4)
                }
                x += 8
            }
            while x < inner.upperBound { put(x); x += 1 }
            blendClamped(inner.upperBound..<xs.upperBound, row: row, texels: texels, offset: offset, width: tw, m)
        } else {
            // Faded or tinted: four at a time where no texel index is clamped.
            Self.forEachColumn(xs, offset: offset, width: tw,
                               one: { blendClamped($0..<($0 + 1), row: row, texels: texels, offset: offset, width: tw, m) }) { x in
                let c = m.apply(PackedSpans.load4(texels + x + offset))
                PackedSpans.store4(PackedSpans.over(c, PackedSpans.load4(row + x)), row + x)
            }
        }
    }

    /// Calls `one` for each column of `xs` whose texel (`x + offset`) is clamped to the row's
    /// edge, or is left over, and `four` for the first of each four whose texels lie inside the
    /// row: the split of the loops that work four texels at a time.
    @inline(__always)
    private static func forEachColumn(_ xs: Range<Int>, offset: Int, width tw: Int, one: (Int) -> Void, four: (Int) -> Void) {
        let inner = xs.clamped(to: (-offset)..<(tw - offset))
        guard !inner.isEmpty else { return xs.forEach(one) }
        var x = xs.lowerBound
        while x < inner.lowerBound { one(x); x += 1 }
        while x + 4 <= inner.upperBound { four(x); x += 4 }
        while x < xs.upperBound { one(x); x += 1 }
    }

    /// `blendTexels` without a mask, each texel index clamped to the row.
    @inline(__always)
    private func blendClamped<M: TexelModulation>(_ xs: Range<Int>, row: UnsafeMutablePointer<UInt32>, texels: UnsafePointer<UInt32>,
                                                  offset: Int, width tw: Int, _ m: M) {
        for x in xs {
            let c = texels[min(max(x + offset, 0), tw - 1)]
            if c == 0 { continue }   // source-over of nothing leaves the pixel as it is
            PackedSpans.blend(m.apply(PackedSpans.widen(c)), into: row + x)
        }
    }

    /// `blendTexels` onto pixels known to be transparent zero: what the blend leaves is the
    /// source itself, stored (copied as they are where nothing modulates them).
    @inline(__always)
    private func storeTexels<M: TexelModulation>(_ xs: Range<Int>, row: UnsafeMutablePointer<UInt32>, texels: UnsafePointer<UInt32>,
                                                 mask: UnsafePointer<UInt32>?, offset: Int, width tw: Int, _ m: M) {
        guard !xs.isEmpty else { return }
        if mask == nil, M.self == Unmodulated.self {
            // The columns whose texels lie inside the row copy in one go; the clamped edges one by one.
            let inner = xs.clamped(to: (-offset)..<(tw - offset))
            guard !inner.isEmpty else { return blendTexels(xs, row: row, texels: texels, mask: mask, offset: offset, width: tw, m) }
            blendTexels(xs.lowerBound..<inner.lowerBound, row: row, texels: texels, mask: mask, offset: offset, width: tw, m)
            // Eight at a time, leaving the pixels (zero already) under transparent texels unwritten:
            // shape rasters are mostly transparent, and a store brings its line into the cache.
            let source = texels + offset
            var x = inner.lowerBound
            while x + 8 <= inner.upperBound {
                let words = UnsafeRawPointer(source + x)
                let w0 = words.loadUnaligned(as: SIMD4<UInt32>.self), w1 = words.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self)
                if w0 | w1 != .zero {
                    PackedSpans.store4(w0, row + x); PackedSpans.store4(w1, row + x + 4)
                }
                x += 8
            }
            while x < inner.upperBound { row[x] = source[x]; x += 1 }
            blendTexels(inner.upperBound..<xs.upperBound, row: row, texels: texels, mask: mask, offset: offset, width: tw, m)
            return
        }
        @inline(__always) func put(_ x: Int) {
            let tx = min(max(x + offset, 0), tw - 1)
            var c = PackedSpans.widen(texels[tx])
            if let mask {
                let a = UInt64(mask[tx] >> 24)
                c = PackedSpans.scale(c, a + (a >> 7))
            }
            row[x] = PackedSpans.narrow(m.apply(c))
        }
        // Four at a time where no texel index is clamped (what `put` stores, lane by lane).
        Self.forEachColumn(xs, offset: offset, width: tw, one: put) { x in
            var c = PackedSpans.load4(texels + x + offset)
            if let mask { c = PackedSpans.scale(c, byAlphaOf: PackedSpans.load4(mask + x + offset)) }
            PackedSpans.store4(m.apply(c), row + x)
        }
    }

    /// A texture's `tiles`, read for the texels bilinear samples reach.
    struct Tiles {
        let map: UnsafeMutablePointer<UInt8>
        let columns: Int
        let width: Int, height: Int

        /// Whether every texel that bilinear samples between fixed-point texel coordinates
        /// (u0, v0) and (u1, v1) read (clamped to the edge) lies in a transparent tile.
        @inline(__always)
        func areEmpty(u u0: Int32, _ u1: Int32, v v0: Int32, _ v1: Int32) -> Bool {
            let x0 = min(max(Int(min(u0, u1) >> 16), 0), width - 1), x1 = min(max(Int(max(u0, u1) >> 16) + 1, 0), width - 1)
            let y0 = min(max(Int(min(v0, v1) >> 16), 0), height - 1), y1 = min(max(Int(max(v0, v1) >> 16) + 1, 0), height - 1)
            for ty in (y0 >> 4)...(y1 >> 4) {
                let row = map + ty * columns
                for tx in (x0 >> 4)...(x1 >> 4) where row[tx] != 0 { return false }
            }
            return true
        }
    }

    /// A texture's `rowExtents`, read for rows clamped to it as samples are.
    struct RowExtents {
        let extents: UnsafeMutablePointer<Int32>
        let height: Int

        init?(_ texture: Texture) {
            guard let extents = texture.rowExtents else { return nil }
            self.extents = extents
            height = texture.height
        }

        /// The columns holding anything in texel rows `a` and `b` (clamped), nil when neither does.
        @inline(__always)
        func columns(rows a: Int, _ b: Int) -> (Int, Int)? {
            let ra = min(max(a, 0), height - 1), rb = min(max(b, 0), height - 1)
            let a0 = Int(extents[2 * ra]), a1 = Int(extents[2 * ra + 1]), b0 = Int(extents[2 * rb]), b1 = Int(extents[2 * rb + 1])
            switch (a1 > a0, b1 > b0) {
            case (false, false): return nil
            case (true, false): return (a0, a1)
            case (false, true): return (b0, b1)
            case (true, true): return (min(a0, b0), max(a1, b1))
            }
        }
    }
}

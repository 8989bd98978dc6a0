import Foundation

/// Fast loops for the two commonest items — bilinear-sampled textures and solid colours with
/// no shape or mask — working on packed RGBA8 pixels widened to four 16-bit lanes in a UInt64
/// (one multiply per channel set), with 8-bit filter weights and the GPU's unorm8 blend rounding.
/// Results agree with the general Float path within one step of 8 bits.
enum PackedSpans {
    static let low: UInt32 = 0x00FF00FF

    /// Premultiplied RGBA8 `color` scaled by opacity, packed little-endian (R in the low byte).
    static func pack(_ color: SIMD4<Float>) -> UInt32 {
        let s = color * 255 + 0.5
        return UInt32(PassRasterizer.unorm8(s.x)) | UInt32(PassRasterizer.unorm8(s.y)) << 8
            | UInt32(PassRasterizer.unorm8(s.z)) << 16 | UInt32(PassRasterizer.unorm8(s.w)) << 24
    }

    static let wideMask: UInt64 = 0x00FF_00FF_00FF_00FF

    /// RGBA8 → the four channels in 16-bit lanes (R, B, G, A from the low end).
    @inline(__always)
    static func widen(_ c: UInt32) -> UInt64 { UInt64(c & low) | UInt64((c >> 8) & low) << 32 }

    /// The inverse of `widen` (lanes must hold 0…255).
    @inline(__always)
    static func narrow(_ w: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: w) | UInt32(truncatingIfNeeded: w >> 32) << 8 }

    /// `a + (b − a)·f/256` on all four widened channels at once, f in 0…256.
    @inline(__always)
    static func lerp(_ a: UInt64, _ b: UInt64, _ f: UInt64) -> UInt64 {
        (a &* (256 - f) &+ b &* f &+ 0x0080_0080_0080_0080) >> 8 & wideMask
    }

    /// Each widened channel times s/256, s in 0…256.
    @inline(__always)
    static func scale(_ c: UInt64, _ s: UInt64) -> UInt64 { (c &* s &+ 0x0080_0080_0080_0080) >> 8 & wideMask }

    /// Each widened channel times its own factor/256 (factors 0…256: R, G, B, A).
    @inline(__always)
    static func multiply(_ c: UInt64, _ f: SIMD4<UInt64>) -> UInt64 {
        let r = ((c & 0xFF) &* f.x &+ 0x80) >> 8, b = ((c >> 16 & 0xFF) &* f.z &+ 0x80) >> 8
        let g = ((c >> 32 & 0xFF) &* f.y &+ 0x80) >> 8, a = ((c >> 48 & 0xFF) &* f.w &+ 0x80) >> 8
        return r | b << 16 | g << 32 | a << 48
    }

    /// Source-over of a widened premultiplied `src` onto packed `dst` (Mesa's unorm8 rounding),
    /// saturating; returns packed RGBA8.
    @inline(__always)
    static func over(_ src: UInt64, _ dst: UInt32) -> UInt32 {
        let inverse = 255 - (src >> 48)
        var d = widen(dst) &* inverse &+ 0x0080_0080_0080_0080
        d = ((d &+ ((d >> 8) & wideMask)) >> 8) & wideMask
        let sum = d &+ src
        return narrow((sum | (((sum >> 8) & 0x0001_0001_0001_0001) &* 0xFF)) & wideMask)
    }

    /// Bilinear sample of widened texels at fixed-point texel coordinates (16 fraction bits,
    /// half texel already subtracted), clamped to the edge; returns widened channels.
    @inline(__always)
    static func bilinear(_ texels: UnsafePointer<UInt64>, width: Int, height: Int, x: Int32, y: Int32) -> UInt64 {
        let ix = Int(x >> 16), iy = Int(y >> 16)
        let wx = UInt64(truncatingIfNeeded: x >> 8) & 255, wy = UInt64(truncatingIfNeeded: y >> 8) & 255
        let t00: UInt64, t10: UInt64, t01: UInt64, t11: UInt64
        if ix >= 0, iy >= 0, ix < width - 1, iy < height - 1 {
            let p = texels + iy * width + ix
            t00 = p[0]; t10 = p[1]; t01 = p[width]; t11 = p[width + 1]
        } else {
            let x0 = min(max(ix, 0), width - 1), x1 = min(max(ix + 1, 0), width - 1)
            let y0 = min(max(iy, 0), height - 1) * width, y1 = min(max(iy + 1, 0), height - 1) * width
            t00 = texels[y0 + x0]; t10 = texels[y0 + x1]; t01 = texels[y1 + x0]; t11 = texels[y1 + x1]
        }
        return lerp(lerp(t00, t10, wx), lerp(t01, t11, wx), wy)
    }

    /// A texel coordinate in 16.16 fixed point, kept within ±16384 texels.
    @inline(__always)
    static func fixed(_ v: Float) -> Int32 { Int32(min(max(v, -16384), 16384) * 65536) }

    /// Pixels between exact perspective divisions; in between, texture coordinates are
    /// interpolated linearly (the curvature over 16 pixels stays far below 1/256 texel for any
    /// perspective a layer tree shows).
    static let block = 16
}

extension PassRasterizer {
    /// A solid colour with no shape or mask: one packed value written or blended per pixel.
    func drawSolid(_ item: PreparedItem, color: SIMD4<Float>, rows: Range<Int>, claiming: Bool) {
        let packed = PackedSpans.pack(color * item.opacity)
        let wide = PackedSpans.widen(packed)
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let order = item.order
        let replace = claiming || packed >> 24 == 255
        for y in rows {
            let span = item.polygon.span(row: y)
            guard !span.isEmpty else { continue }
            let row = pixels + y * width
            if let owner {
                let ownerRow = owner + y * width
                for x in span {
                    if claiming ? ownerRow[x] >= 0 : ownerRow[x] > order { continue }
                    row[x] = replace ? packed : PackedSpans.over(wide, row[x])
                    if claiming { ownerRow[x] = order }
                }
            } else if replace {
                for x in span { row[x] = packed }
            } else {
                for x in span { row[x] = PackedSpans.over(wide, row[x]) }
            }
        }
    }

    /// A solid fill's body (`BodyCoverage`): the fill or band colour per pixel centre, corner
    /// squares skipped (not claimed: their corner items draw them).
    func drawBody(_ item: PreparedItem, color: SIMD4<Float>, body: BodyCoverage, rows: Range<Int>, claiming: Bool) {
        let fill = PackedSpans.pack(color * item.opacity)
        let band = PackedSpans.pack((body.band ?? color) * item.opacity)
        let wideFill = PackedSpans.widen(fill), wideBand = PackedSpans.widen(band)
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let order = item.order
        // Item x as an increasing affine function of the pixel centre's x (bodies are made for
        // axis-aligned items only): each row is then three runs — band, fill, band — between
        // its cuts, found once per row instead of per pixel.
        let d = item.denominator.z
        let rowsAreRuns = item.localX.y == 0 && item.localY.x == 0 && item.denominator.x == 0 && item.denominator.y == 0
            && d != 0 && item.localX.x / d > 0
        let a = item.localX.x / d, b = item.localX.z / d
        /// The first column whose centre's item x is at least `t`.
        func column(_ t: Float) -> Int {
            let c = ((t - b) / a - 0.5).rounded(.up)
            return c.isNaN ? 0 : Int(min(max(c, -1e9), 1e9))
        }
        @inline(__always) func put(_ x: Int, _ row: UnsafeMutablePointer<UInt32>, _ ownerRow: UnsafeMutablePointer<Int32>?,
                                   _ packed: UInt32, _ wide: UInt64) {
            if let ownerRow, claiming ? ownerRow[x] >= 0 : ownerRow[x] > order { return }
            row[x] = claiming || packed >> 24 == 255 ? packed : PackedSpans.over(wide, row[x])
            if claiming { ownerRow?[x] = order }
        }
        for y in rows {
            let span = item.polygon.span(row: y)
            guard !span.isEmpty else { continue }
            let row = pixels + y * width
            let ownerRow = owner.map { $0 + y * width }
            let py = Float(y) + 0.5
            guard rowsAreRuns else {
                for x in span {
                    guard let inBand = body.classify(item.local(Float(x) + 0.5, py)) else { continue }
                    put(x, row, ownerRow, inBand ? band : fill, inBand ? wideBand : wideFill)
                }
                continue
            }
            let runs = body.runs(rowY: (item.localY.y * py + item.localY.z) / d)
            let start = max(span.lowerBound, column(runs.start)), end = min(span.upperBound, column(runs.end))
            guard start < end else { continue }
            let fillStart = min(max(column(runs.fillStart), start), end), fillEnd = min(max(column(runs.fillEnd), fillStart), end)
            for x in start..<fillStart { put(x, row, ownerRow, band, wideBand) }
            for x in fillStart..<fillEnd { put(x, row, ownerRow, fill, wideFill) }
            for x in fillEnd..<end { put(x, row, ownerRow, band, wideBand) }
        }
    }

    /// A bilinear-sampled texture with no shape, faded by the item's opacity, multiplied by its
    /// tint and by the alpha of its mask (a texture of the same size, sampled at the same place).
    func drawTextured(_ item: PreparedItem, texture: Texture, rows: Range<Int>, claiming: Bool) {
        guard let texels = texture.wideTexels else { return }
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let fade = UInt64(min(max(item.opacity, 0), 1) * 256 + 0.5)
        // The tint with the fade folded in, as 0…256 factors.
        let factors = item.tint.map { t -> SIMD4<UInt64> in
            let fadeF: Float = min(max(item.opacity, 0), 1) * 256
            let f = t.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1)) * fadeF
            return SIMD4(UInt64(f.x.rounded()), UInt64(f.y.rounded()), UInt64(f.z.rounded()), UInt64(f.w.rounded()))
        }
        let order = item.order
        // Pixel → texel space (minus the half texel), numerators over the shared denominator.
        let texel = item.texelNumerators(width: texture.width, height: texture.height)
        let u = texel.u - item.denominator * 0.5, v = texel.v - item.denominator * 0.5
        let d = item.denominator
        let textureWidth = texture.width, textureHeight = texture.height
        let maskTexels = item.mask?.wideTexels
        @inline(__always) func sample(_ x: Int32, _ y: Int32) -> UInt64 {
            var c = PackedSpans.bilinear(texels, width: textureWidth, height: textureHeight, x: x, y: y)
            if let maskTexels {
                let a = PackedSpans.bilinear(maskTexels, width: textureWidth, height: textureHeight, x: x, y: y) >> 48
                c = PackedSpans.scale(c, a + (a >> 7))  // 0…255 → 0…256
            }
            if let factors { return PackedSpans.multiply(c, factors) }
            return fade < 256 ? PackedSpans.scale(c, fade) : c
        }
        let extents = RowExtents(texture)
        if let (ox, oy) = Self.texelOffset(u: u, v: v, d: d) {
            return drawTexels(item, texels: texels, mask: maskTexels, width: textureWidth, height: textureHeight, offset: (ox, oy),
                              extents: extents,
                              rows: rows, claiming: claiming, sample: { c in
                                  if let factors { return PackedSpans.multiply(c, factors) }
                                  return fade < 256 ? PackedSpans.scale(c, fade) : c
                              })
        }
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
                            if ownerRow[i] <= order { row[i] = PackedSpans.over(sample(fu, fv), row[i]) }
                            fu &+= du; fv &+= dv
                        }
                    }
                } else {
                    for i in x..<(x + n) {
                        row[i] = PackedSpans.over(sample(fu, fv), row[i])
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
    /// the edge as the bilinear sample is), transparent texels skipped when blending over.
    @inline(__always)
    func drawTexels(_ item: PreparedItem, texels: UnsafePointer<UInt64>, mask: UnsafePointer<UInt64>?, width tw: Int, height th: Int,
                    offset: (Int, Int), extents: RowExtents?, rows: Range<Int>, claiming: Bool, sample: (UInt64) -> UInt64) {
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let order = item.order
        for y in rows {
            var span = item.polygon.span(row: y)
            guard !span.isEmpty else { continue }
            if let extents {
                guard let (lo, hi) = extents.columns(rows: y + offset.1, y + offset.1) else { continue }
                let x0 = lo > 0 ? max(span.lowerBound, lo - offset.0) : span.lowerBound
                let x1 = hi < tw ? min(span.upperBound, hi - offset.0) : span.upperBound
                guard x1 > x0 else { continue }
                span = x0..<x1
            }
            let ty = min(max(y + offset.1, 0), th - 1) * tw
            let texelRow = texels + ty, maskRow = mask.map { $0 + ty }
            let row = pixels + y * width
            let ownerRow = owner.map { $0 + y * width }
            for x in span {
                let tx = min(max(x + offset.0, 0), tw - 1)
                var c = texelRow[tx]
                if let maskRow {
                    let a = maskRow[tx] >> 48
                    c = PackedSpans.scale(c, a + (a >> 7))
                }
                if let ownerRow {
                    if claiming {
                        if ownerRow[x] < 0 { row[x] = PackedSpans.narrow(sample(c)); ownerRow[x] = order }
                        continue
                    }
                    if ownerRow[x] > order { continue }
                }
                if c == 0 { continue }   // source-over of nothing leaves the pixel as it is
                row[x] = PackedSpans.over(sample(c), row[x])
            }
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

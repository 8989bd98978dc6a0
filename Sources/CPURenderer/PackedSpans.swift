import Foundation

/// Fast loops for the two commonest items — bilinear-sampled textures (TexturedSpans.swift) and
/// solid colours with no shape or mask — working on packed RGBA8 pixels widened to four 16-bit
/// lanes in a UInt64 (one multiply per channel set), with 8-bit filter weights and the GPU's unorm8 blend rounding.
/// Results agree with the general Float path within one step of 8 bits.
enum PackedSpans {
    static let low: UInt32 = 0x00FF00FF

    /// Premultiplied RGBA8 `color` scaled by opacity, packed little-endian (R in the low byte).
    static func pack(_ color: SIMD4<Float>) -> UInt32 {
        let s = color * 255 + 0.5
        return UInt32(PassRasterizer.unorm8(s.x)) | UInt32(PassRasterizer.unorm8(s.y)) << 8
            | UInt32(PassRasterizer.unorm8(s.z)) << 16 | UInt32(PassRasterizer.unorm8(s.w)) << 24
    }

    /// `unorm8` of four lanes at once (one pixel per lane, a channel per argument), packed as
    /// `pack` packs: the same clamp and truncation, in vector operations instead of a checked
    /// conversion per channel. Truncating a value in 0…255.5 is its floor: adding 2²³ rounds
    /// it to an integer held in the low mantissa bits, which is one too many where that
    /// rounding went up.
    @inline(__always)
    static func pack(red r: SIMD4<Float>, green g: SIMD4<Float>, blue b: SIMD4<Float>, alpha a: SIMD4<Float>) -> SIMD4<UInt32> {
        @inline(__always) func unorm8(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
            // As `Swift.max(0, v)` then `min(255.5, ·)`: NaN and negatives to 0.
            var c = v.replacing(with: 0, where: .!(v .> 0))
            c.replace(with: 255.5, where: c .> 255.5)
            let shifted = c + 8_388_608
            let bits = unsafeBitCast(shifted, to: SIMD4<UInt32>.self) &- 0x4B00_0000
            return bits.replacing(with: bits &- 1, where: (shifted - 8_388_608) .> c)
        }
        return unorm8(r) | unorm8(g) &<< 8 | unorm8(b) &<< 16 | unorm8(a) &<< 24
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

    /// The four texels a bilinear sample at fixed-point (x, y) mixes, clamped to the edge:
    /// (x0, y0), (x1, y0), (x0, y1), (x1, y1).
    @inline(__always)
    static func quad<Texel>(_ texels: UnsafePointer<Texel>, width: Int, height: Int, x: Int32, y: Int32)
        -> (Texel, Texel, Texel, Texel) {
        let ix = Int(x >> 16), iy = Int(y >> 16)
        if ix >= 0, iy >= 0, ix < width - 1, iy < height - 1 {
            let p = texels + iy * width + ix
            return (p[0], p[1], p[width], p[width + 1])
        }
        let x0 = min(max(ix, 0), width - 1), x1 = min(max(ix + 1, 0), width - 1)
        let y0 = min(max(iy, 0), height - 1) * width, y1 = min(max(iy + 1, 0), height - 1) * width
        return (texels[y0 + x0], texels[y0 + x1], texels[y1 + x0], texels[y1 + x1])
    }

    /// `bilinear` on texels already widened (`Texture.widenedTexels`): the same mix, without
    /// widening four texels per sample (what a texture drawn many times a frame is spared).
    @inline(__always)
    static func bilinear(_ texels: UnsafePointer<UInt64>, width: Int, height: Int, x: Int32, y: Int32) -> UInt64 {
        let (t00, t10, t01, t11) = quad(texels, width: width, height: height, x: x, y: y)
        let wx = UInt64(truncatingIfNeeded: x >> 8) & 255, wy = UInt64(truncatingIfNeeded: y >> 8) & 255
        return lerp(lerp(t00, t10, wx), lerp(t01, t11, wx), wy)
    }

    /// Bilinear sample of packed RGBA8 texels at fixed-point texel coordinates (16 fraction bits,
    /// half texel already subtracted), clamped to the edge; returns widened channels. Four equal
    /// texels (inside a fill, or all transparent) are their own mix: no weights applied.
    @inline(__always)
    static func bilinear(_ texels: UnsafePointer<UInt32>, width: Int, height: Int, x: Int32, y: Int32) -> UInt64 {
        let (t00, t10, t01, t11) = quad(texels, width: width, height: height, x: x, y: y)
        if t00 == t10, t00 == t01, t00 == t11 { return widen(t00) }
        let wx = UInt64(truncatingIfNeeded: x >> 8) & 255, wy = UInt64(truncatingIfNeeded: y >> 8) & 255
        return lerp(lerp(widen(t00), widen(t10), wx), lerp(widen(t01), widen(t11), wx), wy)
    }

    /// Source-over of widened `src` onto the packed pixel at `p`, skipping the arithmetic where
    /// it cannot change the result: nothing over anything, an opaque source, anything over
    /// nothing (all exactly what `over` computes there).
    @inline(__always)
    static func blend(_ src: UInt64, into p: UnsafeMutablePointer<UInt32>) {
        if src == 0 { return }
        if src >> 48 == 255 { p.pointee = narrow(src); return }
        let dst = p.pointee
        p.pointee = dst == 0 ? narrow(src) : over(src, dst)
    }

    /// `over` on four packed pixels at once (one per lane), in 16-bit lanes: the same products,
    /// rounding and saturation, so the same bytes, with no case skipped (each skip of `blend`
    /// is what the arithmetic gives there).
    @inline(__always)
    static func over(_ src: SIMD4<UInt32>, _ dst: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let inverse = 255 &- (src &>> 24)
        let factor = unsafeBitCast(inverse | inverse &<< 16, to: SIMD8<UInt16>.self)
        @inline(__always) func faded(_ x: SIMD4<UInt32>) -> SIMD4<UInt32> {
            var t = unsafeBitCast(x, to: SIMD8<UInt16>.self) &* factor &+ 0x80
            t = (t &+ (t &>> 8)) &>> 8
            return unsafeBitCast(t, to: SIMD4<UInt32>.self)
        }
        @inline(__always) func saturated(_ sum: SIMD4<UInt32>) -> SIMD4<UInt32> {
            (sum | ((sum &>> 8) & 0x0001_0001) &* 0xFF) & 0x00FF_00FF
        }
        let rb = saturated(faded(dst & 0x00FF_00FF) &+ (src & 0x00FF_00FF))
        let ga = saturated(faded((dst &>> 8) & 0x00FF_00FF) &+ ((src &>> 8) & 0x00FF_00FF))
        return rb | ga &<< 8
    }

    /// Four packed pixels with each channel times its factor/256, rounded as `scale` and
    /// `multiply` round: `rb` holds each pixel's red and blue factors (low and high 16 bits,
    /// 0…256), `ga` its green and alpha factors.
    @inline(__always)
    static func scale(_ c: SIMD4<UInt32>, rb: SIMD4<UInt32>, ga: SIMD4<UInt32>) -> SIMD4<UInt32> {
        @inline(__always) func lanes(_ x: SIMD4<UInt32>, _ f: SIMD4<UInt32>) -> SIMD4<UInt32> {
            let t = unsafeBitCast(x, to: SIMD8<UInt16>.self) &* unsafeBitCast(f, to: SIMD8<UInt16>.self) &+ 0x80
            return unsafeBitCast(t &>> 8, to: SIMD4<UInt32>.self)
        }
        return lanes(c & 0x00FF_00FF, rb) | lanes((c &>> 8) & 0x00FF_00FF, ga) &<< 8
    }

    /// Four packed pixels each scaled by its mask texel's alpha a, as a factor a + a/128 of
    /// 256 (255 keeps the pixel): what the one-pixel loops do with `scale`.
    @inline(__always)
    static func scale(_ c: SIMD4<UInt32>, byAlphaOf mask: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let a = mask &>> 24, s = a &+ (a &>> 7), pair = s | s &<< 16
        return scale(c, rb: pair, ga: pair)
    }

    /// Four pixels read from `p` (any alignment).
    @inline(__always)
    static func load4(_ p: UnsafePointer<UInt32>) -> SIMD4<UInt32> { UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self) }

    /// Four pixels written to `p` (any alignment).
    @inline(__always)
    static func store4(_ v: SIMD4<UInt32>, _ p: UnsafeMutablePointer<UInt32>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<UInt32>.self) }

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
}

import Foundation
import Rendering

/// A gradient's stops laid out for the pixel loop: per segment between two stops, its ends,
/// its span and its colour step, each computed with the operations `GradientPaint.color(at:)`
/// uses, so a colour found here is bit for bit the one it returns.
struct GradientStops {
    struct Segment {
        let lower: Float, upper: Float, span: Float
        let base: SIMD4<Float>, step: SIMD4<Float>
    }

    let first: SIMD4<Float>, last: SIMD4<Float>
    let firstLocation: Float
    /// Segment i (1 ≤ i < count) in element i, between stops i − 1 and i; element 0 unused.
    let segments: [Segment]

    init(_ g: GradientPaint) {
        let c = g.colors, l = g.locations
        first = c[0]; last = c[c.count - 1]; firstLocation = l[0]
        segments = [Segment(lower: 0, upper: 0, span: 0, base: .zero, step: .zero)] + (1..<c.count).map {
            Segment(lower: l[$0 - 1], upper: l[$0], span: l[$0] - l[$0 - 1], base: c[$0 - 1], step: c[$0] - c[$0 - 1])
        }
    }
}

extension PassRasterizer {
    /// An axial or radial gradient with no shape, mask, body or tint, blended over: for each pixel
    /// the Float loop's gradient parameter and colour from the same operations (so the same bits),
    /// with the stop search resumed from the last pixel's segment and the result blended packed
    /// (`PackedSpans.blend`, the same unorm8 rounding as `SourceOverCompositor`).
    func drawGradient(_ item: PreparedItem, gradient: GradientPaint, rows: Range<Int>) {
        let stops = GradientStops(gradient)
        let kind = gradient.kind
        let s = SIMD2(Float(gradient.startPoint.x), Float(gradient.startPoint.y))
        let e = SIMD2(Float(gradient.endPoint.x), Float(gradient.endPoint.y))
        let d = e - s
        let length = d.x * d.x + d.y * d.y
        let degenerate = kind == .radial ? (d.x == 0 || d.y == 0) : !(length > 0)
        let opacity = item.opacity
        let den = item.denominator, lx = item.localX, ly = item.localY
        let affine = den == SIMD3(0, 0, 1)
        let uvOffset = item.uvOffset, uvScale = item.uvScale
        let order = item.order
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let count = stops.segments.count
        stops.segments.withUnsafeBufferPointer { segments in
            var segment = 1
            /// `GradientPaint.color(at:)`, premultiplied.
            @inline(__always) func color(_ t: Float) -> SIMD4<Float> {
                var c = stops.last
                if t <= stops.firstLocation {
                    c = stops.first
                } else {
                    if !(segment < count && segments[segment].lower < t && t <= segments[segment].upper) {
                        segment = count
                        for i in 1..<count where t <= segments[i].upper { segment = i; break }
                    }
                    if segment < count {
                        let run = segments[segment]
                        let f = run.span > 0 ? (t - run.lower) / run.span : 1
                        c = run.base + run.step * f
                    }
                }
                return premultiplied(c)
            }
            @inline(__always) func premultiplied(_ c: SIMD4<Float>) -> SIMD4<Float> { SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w) }
            /// The parameter at pixel centres `px` (four of them) of row centre `py`: the
            /// single-pixel computation below, lane by lane.
            @inline(__always) func parameters(_ px: SIMD4<Float>, _ py: Float) -> SIMD4<Float> {
                // (m · (px, py, 1)).sum() is ((m.x·px + m.y·py) + m.z·1) in this order.
                var localX = (lx.x * px + lx.y * py) + lx.z, localY = (ly.x * px + ly.y * py) + ly.z
                // Without perspective w is 0·px + 0·py + 1 = 1 (pixel centres are positive), and
                // dividing by 1 changes nothing.
                if !affine {
                    let w = (den.x * px + den.y * py) + den.z
                    localX /= w; localY /= w
                }
                let qx = (uvOffset.x + localX * uvScale.x) - s.x, qy = (uvOffset.y + localY * uvScale.y) - s.y
                if kind == .radial {
                    let rx = qx / d.x, ry = qy / d.y
                    return (rx * rx + ry * ry).squareRoot()
                }
                return (qx * d.x + qy * d.y) / length
            }
            @inline(__always) func parameter(_ x: Int, _ py: Float) -> Float {
                let p = SIMD3<Float>(Float(x) + 0.5, py, 1)
                let w = (den * p).sum()
                var local = SIMD2((lx * p).sum(), (ly * p).sum())
                if w != 1 { local /= w }   // dividing by 1 changes nothing
                let uv = uvOffset + local * uvScale
                if degenerate { return kind == .radial ? .infinity : 0 }
                if kind == .radial {
                    let r = (uv - s) / d
                    return (r.x * r.x + r.y * r.y).squareRoot()
                }
                let q = uv - s
                return (q.x * d.x + q.y * d.y) / length
            }
            /// Premultiplied `c` faded and packed (`PackedSpans.pack` of it times the opacity).
            @inline(__always) func packed(_ c: SIMD4<Float>) -> UInt32 { PackedSpans.pack(c * opacity) }
            @inline(__always) func put(_ c: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt32>) {
                PackedSpans.blendPacked(packed(c), into: p)
            }
            let lanes = SIMD4<Float>(0, 1, 2, 3)
            // What `put` stores for the end colours (the padding), packed once.
            let firstPacked = packed(premultiplied(stops.first)), lastPacked = packed(premultiplied(stops.last))
            let lastLocation = gradient.locations[gradient.locations.count - 1]
            for y in rows {
                let span = item.polygon.span(row: y)
                guard !span.isEmpty else { continue }
                let py = Float(y) + 0.5
                let row = pixels + y * width
                let ownerRow = owner.map { $0 + y * width }
                /// Whether the pixel is shaded (no later opaque item owns it).
                @inline(__always) func shows(_ x: Int) -> Bool { ownerRow.map { $0[x] <= order } ?? true }
                var x = span.lowerBound
                // Four pixels at a time where they lie in one segment: the same operations on
                // four lanes (each lane's result is the single pixel's).
                while !degenerate, x + 4 <= span.upperBound {
                    if ownerRow != nil, !(shows(x) && shows(x + 1) && shows(x + 2) && shows(x + 3)) {
                        for i in x..<(x + 4) where shows(i) { put(color(parameter(i, py)), row + i) }
                        x += 4
                        continue
                    }
                    let t = parameters((Float(x) + lanes) + 0.5, py)
                    // Padding: the end colours.
                    if all(t .<= stops.firstLocation) || all(t .> lastLocation) {
                        let padding = SIMD4(repeating: t[0] <= stops.firstLocation ? firstPacked : lastPacked)
                        PackedSpans.store4(PackedSpans.over(padding, PackedSpans.load4(row + x)), row + x)
                        x += 4
                        continue
                    }
                    if !(segment < count && all(t .> segments[segment].lower) && all(t .<= segments[segment].upper)) {
                        segment = count
                        for i in 1..<count where t[0] <= segments[i].upper { segment = i; break }
                        guard segment < count, all(t .> segments[segment].lower), all(t .<= segments[segment].upper) else {
                            for i in 0..<4 { put(color(t[i]), row + x + i) }
                            x += 4
                            continue
                        }
                    }
                    let run = segments[segment]
                    let f = run.span > 0 ? (t - run.lower) / run.span : SIMD4(repeating: 1)
                    let c0 = run.base, dc = run.step
                    let r = c0.x + dc.x * f, g = c0.y + dc.y * f, b = c0.z + dc.z * f, a = c0.w + dc.w * f
                    // Premultiplied, faded, scaled: color(t) * opacity * 255 + 0.5 per lane.
                    let sr = r * a * opacity * 255 + 0.5, sg = g * a * opacity * 255 + 0.5
                    let sb = b * a * opacity * 255 + 0.5, sa = a * opacity * 255 + 0.5
                    let colors = PackedSpans.pack(red: sr, green: sg, blue: sb, alpha: sa)
                    PackedSpans.store4(PackedSpans.over(colors, PackedSpans.load4(row + x)), row + x)
                    x += 4
                }
                while x < span.upperBound {
                    if shows(x) { put(color(parameter(x, py)), row + x) }
                    x += 1
                }
            }
        }
    }
}

import Foundation
import Rendering

/// A gradient's stops laid out for the pixel loop: per segment between two stops, its ends,
/// its span and its colour step, each computed with the operations `GradientPaint.color(at:)`
/// uses, so a colour found here is bit for bit the one it returns.
struct GradientStops {
    let first: SIMD4<Float>, last: SIMD4<Float>
    let firstLocation: Float
    /// Segment i (1 ≤ i < count) in element i; element 0 unused.
    let lower: [Float], upper: [Float], span: [Float]
    let base: [SIMD4<Float>], step: [SIMD4<Float>]

    init(_ g: GradientPaint) {
        let c = g.colors, l = g.locations
        first = c[0]; last = c[c.count - 1]; firstLocation = l[0]
        lower = [0] + (1..<c.count).map { l[$0 - 1] }
        upper = [0] + (1..<c.count).map { l[$0] }
        span = [0] + (1..<c.count).map { l[$0] - l[$0 - 1] }
        base = [.zero] + (1..<c.count).map { c[$0 - 1] }
        step = [.zero] + (1..<c.count).map { c[$0] - c[$0 - 1] }
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
        let uvOffset = item.uvOffset, uvScale = item.uvScale
        let order = item.order
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let count = stops.upper.count
        stops.lower.withUnsafeBufferPointer { lower in
        stops.upper.withUnsafeBufferPointer { upper in
        stops.span.withUnsafeBufferPointer { spans in
        stops.base.withUnsafeBufferPointer { base in
        stops.step.withUnsafeBufferPointer { step in
            var segment = 1
            /// `GradientPaint.color(at:)`, premultiplied.
            @inline(__always) func color(_ t: Float) -> SIMD4<Float> {
                var c = stops.last
                if t <= stops.firstLocation {
                    c = stops.first
                } else {
                    if !(segment < count && lower[segment] < t && t <= upper[segment]) {
                        segment = count
                        for i in 1..<count where t <= upper[i] { segment = i; break }
                    }
                    if segment < count {
                        let f = spans[segment] > 0 ? (t - lower[segment]) / spans[segment] : 1
                        c = base[segment] + step[segment] * f
                    }
                }
                return SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
            }
            for y in rows {
                let span = item.polygon.span(row: y)
                guard !span.isEmpty else { continue }
                let py = Float(y) + 0.5
                let row = pixels + y * width
                let ownerRow = owner.map { $0 + y * width }
                for x in span {
                    if let ownerRow, ownerRow[x] > order { continue }
                    let p = SIMD3<Float>(Float(x) + 0.5, py, 1)
                    let w = (den * p).sum()
                    var local = SIMD2((lx * p).sum(), (ly * p).sum())
                    if w != 1 { local /= w }   // dividing by 1 changes nothing
                    let uv = uvOffset + local * uvScale
                    let t: Float
                    if degenerate {
                        t = kind == .radial ? .infinity : 0
                    } else if kind == .radial {
                        let r = (uv - s) / d
                        t = (r.x * r.x + r.y * r.y).squareRoot()
                    } else {
                        let q = uv - s
                        t = (q.x * d.x + q.y * d.y) / length
                    }
                    let scaled = color(t) * opacity * 255 + 0.5
                    let packed = UInt32(PassRasterizer.unorm8(scaled.x)) | UInt32(PassRasterizer.unorm8(scaled.y)) << 8
                        | UInt32(PassRasterizer.unorm8(scaled.z)) << 16 | UInt32(PassRasterizer.unorm8(scaled.w)) << 24
                    PackedSpans.blend(PackedSpans.widen(packed), into: row + x)
                }
            }
        }}}}}
    }
}

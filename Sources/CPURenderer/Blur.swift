import Foundation
import Rendering

/// One axis of blur.glsl's Gaussian blur: every target pixel becomes the weighted mean of
/// `GaussianKernel`'s ceil(3σ) (at most 64) samples on each side, taken one target pixel apart,
/// edges clamped, summed in the shader's order (centre, then each pair of opposite taps).
struct Blur {
    let source: Texture
    let sigma: Float
    let horizontal: Bool

    func apply(into target: UnsafeMutablePointer<UInt8>, width: Int, height: Int, threads: Int) {
        let kernel = GaussianKernel(sigma: CGFloat(sigma))
        let radius = kernel.radius
        let view = source.level0
        let sameSize = view.width == width && view.height == height
        let bands = threads == 1 ? 1 : min(height, threads * 4)
        @inline(__always) func sample(_ x: Int, _ y: Int, _ offset: Int) -> SIMD4<Float> {
            if sameSize { return horizontal ? view.texel(x + offset, y) : view.texel(x, y + offset) }
            let u = (Float(x) + 0.5 + (horizontal ? Float(offset) : 0)) / Float(width)
            let v = (Float(y) + 0.5 + (horizontal ? 0 : Float(offset))) / Float(height)
            return view.bilinear(u, v)
        }
        kernel.weights.withUnsafeBufferPointer { weights in
            CPURenderer.forEachBand(bands, height: height, threads: threads) { rows in
                for y in rows {
                    for x in 0..<width {
                        var sum = sample(x, y, 0) * weights[0]
                        if radius > 0 {
                            for i in 1...radius { sum += (sample(x, y, i) + sample(x, y, -i)) * weights[i] }
                        }
                        let s = (sum + 0.5).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255.99))
                        let p = target + (y * width + x) * 4
                        p[0] = UInt8(s.x); p[1] = UInt8(s.y); p[2] = UInt8(s.z); p[3] = UInt8(s.w)
                    }
                }
            }
        }
    }
}

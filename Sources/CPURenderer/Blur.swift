import Foundation
import Rendering

/// One axis of blur.glsl's Gaussian blur: every target pixel becomes the weighted mean of
/// ceil(3σ) (at most 64) samples on each side, taken one target pixel apart, edges clamped.
struct Blur {
    let source: Texture
    let sigma: Float
    let horizontal: Bool

    func apply(into target: UnsafeMutablePointer<UInt8>, width: Int, height: Int, threads: Int) {
        let radius = Int(min(64, (3 * sigma).rounded(.up)))
        var weights: [Float] = (-radius...radius).map { i in
            let x = Float(i)
            return Foundation.exp(-0.5 * x * x / (sigma * sigma))
        }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        let view = source.level0
        let sameSize = view.width == width && view.height == height
        let bands = threads == 1 ? 1 : min(height, threads * 4)
        weights.withUnsafeBufferPointer { weights in
            CPURenderer.forEachBand(bands, height: height, threads: threads) { rows in
                for y in rows {
                    for x in 0..<width {
                        var sum = SIMD4<Float>(repeating: 0)
                        for i in -radius...radius {
                            let sample: SIMD4<Float>
                            if sameSize {
                                sample = horizontal ? view.texel(x + i, y) : view.texel(x, y + i)
                            } else {
                                let u = (Float(x) + 0.5 + (horizontal ? Float(i) : 0)) / Float(width)
                                let v = (Float(y) + 0.5 + (horizontal ? 0 : Float(i))) / Float(height)
                                sample = view.bilinear(u, v)
                            }
                            sum += sample * weights[i + radius]
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

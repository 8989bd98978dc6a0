import Foundation
import Rendering

/// How two images of the same size differ, over premultiplied RGBA8 values.
public struct ImageDifference: Sendable, Equatable {
    /// Peak signal-to-noise ratio in decibels over all four channels of the premultiplied values,
    /// `10·log10(255² / MSE)`, MSE being the mean squared difference over `4 · pixelCount`
    /// samples; `.infinity` when the images are identical.
    public var psnr: Double
    /// The largest difference of one channel (0…255).
    public var maxChannelDifference: Int
    /// Pixels where some channel differs by more than the tolerance.
    public var pixelsOverTolerance: Int
    /// Pixels compared (`width · height`).
    public var pixelCount: Int
    /// The tolerance `pixelsOverTolerance` was counted with.
    public var tolerance: Int

    /// Whether the images are equal byte for byte.
    public var isIdentical: Bool { maxChannelDifference == 0 }

    public init(psnr: Double, maxChannelDifference: Int, pixelsOverTolerance: Int, pixelCount: Int, tolerance: Int) {
        self.psnr = psnr
        self.maxChannelDifference = maxChannelDifference
        self.pixelsOverTolerance = pixelsOverTolerance
        self.pixelCount = pixelCount
        self.tolerance = tolerance
    }
}

/// Image comparison for tests and golden checks.
public enum ImageComparison {
    /// Compares two images channel by channel; `nil` when their sizes differ (or a pixel buffer
    /// does not match its image's size).
    ///
    /// - Parameter tolerance: a pixel counts in `pixelsOverTolerance` when any of its channels
    ///   differs by more than this (default 2, about the rounding noise of two 8-bit conversions).
    public static func compare(_ a: Image, _ b: Image, tolerance: Int = 2) -> ImageDifference? {
        guard let pixelCount = comparablePixelCount(a, b) else { return nil }
        var sumOfSquares: UInt64 = 0
        var maxDifference = 0
        var over = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for p in 0..<pixelCount {
                    let i = p * 4
                    var pixelMax: Int32 = 0
                    var pixelSum: UInt32 = 0
                    for k in 0..<4 {
                        let d = Int32(pa[i + k]) - Int32(pb[i + k])
                        let m = d < 0 ? -d : d
                        pixelMax = max(pixelMax, m)
                        pixelSum &+= UInt32(m * m)
                    }
                    sumOfSquares &+= UInt64(pixelSum)
                    if pixelMax > tolerance { over += 1 }
                    maxDifference = max(maxDifference, Int(pixelMax))
                }
            }
        }
        let psnr: Double
        if sumOfSquares == 0 {
            psnr = .infinity
        } else {
            let mse = Double(sumOfSquares) / Double(pixelCount * 4)
            psnr = 10 * log10(255 * 255 / mse)
        }
        return ImageDifference(psnr: psnr, maxChannelDifference: maxDifference,
                               pixelsOverTolerance: over, pixelCount: pixelCount, tolerance: tolerance)
    }

    /// An opaque picture of where two images differ; `nil` when their sizes differ.
    ///
    /// Each pixel is black where the two pixels are equal and red where they differ, with
    /// `d` the largest channel difference of that pixel (premultiplied values):
    /// `red = d == 0 ? 0 : min(255, 63 + 4·d)`, green = blue = 0, alpha = 255.
    /// So a difference of 1 is already clearly visible (67), and differences of 48 or more are
    /// full red.
    public static func differenceImage(_ a: Image, _ b: Image) -> Image? {
        guard let pixelCount = comparablePixelCount(a, b) else { return nil }
        let pixels = [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { out, count in
            a.pixels.withUnsafeBufferPointer { pa in
                b.pixels.withUnsafeBufferPointer { pb in
                    for p in 0..<pixelCount {
                        let i = p * 4
                        var d: Int32 = 0
                        for k in 0..<4 {
                            let v = Int32(pa[i + k]) - Int32(pb[i + k])
                            d = max(d, v < 0 ? -v : v)
                        }
                        out[i] = differenceRed(Int(d))
                        out[i + 1] = 0
                        out[i + 2] = 0
                        out[i + 3] = 255
                    }
                }
            }
            count = pixelCount * 4
        }
        return Image(width: a.width, height: a.height, pixels: pixels)
    }

    /// `width · height` when both images have that size and whole pixel buffers (`pixels` is a
    /// public var, so its length is checked too), else `nil`.
    private static func comparablePixelCount(_ a: Image, _ b: Image) -> Int? {
        let count = a.width * a.height
        guard a.width == b.width, a.height == b.height,
              a.pixels.count == count * 4, b.pixels.count == count * 4 else { return nil }
        return count
    }

    /// The red level `differenceImage` uses for a largest channel difference `d`.
    public static func differenceRed(_ d: Int) -> UInt8 {
        d <= 0 ? 0 : UInt8(min(255, 63 + 4 * d))
    }
}

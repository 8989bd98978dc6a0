import Rendering
import XCTest

/// Small readers over images, so assertions talk about ink rather than bytes.
extension Image {
    /// The alpha of pixel (x, y).
    public func alpha(_ x: Int, _ y: Int) -> UInt8 { self[x, y].a }

    /// Whether any pixel in the rectangle `xs` × `ys` has alpha above `threshold`.
    public func hasInk(x xs: Range<Int>, y ys: Range<Int>, threshold: UInt8 = 32) -> Bool {
        for y in ys.clamped(to: 0..<height) {
            for x in xs.clamped(to: 0..<width) where self[x, y].a > threshold { return true }
        }
        return false
    }

    /// The leftmost and rightmost columns with ink, or nil for a blank image.
    public func inkColumns(threshold: UInt8 = 32) -> ClosedRange<Int>? {
        var low = Int.max, high = Int.min
        for y in 0..<height {
            for x in 0..<width where self[x, y].a > threshold {
                low = min(low, x)
                high = max(high, x)
            }
        }
        return low <= high ? low...high : nil
    }

    /// The lowest row with ink, or nil for a blank image.
    public func lowestInkRow(threshold: UInt8 = 32) -> Int? {
        for y in stride(from: height - 1, through: 0, by: -1) where hasInk(x: 0..<width, y: y..<(y + 1), threshold: threshold) {
            return y
        }
        return nil
    }

    /// Whether some pixel in the rectangle is mostly red (red channel well above green and blue).
    public func hasRed(x xs: Range<Int>, y ys: Range<Int>) -> Bool {
        contains(x: xs, y: ys) { $0.a > 64 && Int($0.r) > Int($0.b) + 64 && Int($0.r) > Int($0.g) + 64 }
    }

    /// Whether some pixel in the rectangle is mostly blue.
    public func hasBlue(x xs: Range<Int>, y ys: Range<Int>) -> Bool {
        contains(x: xs, y: ys) { $0.a > 64 && Int($0.b) > Int($0.r) + 64 && Int($0.b) > Int($0.g) + 64 }
    }

    private func contains(x xs: Range<Int>, y ys: Range<Int>,
                          where predicate: ((r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool) -> Bool {
        for y in ys.clamped(to: 0..<height) {
            for x in xs.clamped(to: 0..<width) where predicate(self[x, y]) { return true }
        }
        return false
    }

    /// Pixel values as [r, g, b, a] lists, for readable assertions.
    public var pixelList: [[UInt8]] { stride(from: 0, to: pixels.count, by: 4).map { Array(pixels[$0..<$0 + 4]) } }
}

/// Asserts that pixel (x, y) is exactly `expected` (premultiplied RGBA).
public func XCTAssertPixel(_ image: Image, _ x: Int, _ y: Int, _ expected: (UInt8, UInt8, UInt8, UInt8),
                           file: StaticString = #filePath, line: UInt = #line) {
    let p = image[x, y]
    XCTAssertTrue(p == expected, "pixel (\(x), \(y)) is \(p), expected \(expected)", file: file, line: line)
}

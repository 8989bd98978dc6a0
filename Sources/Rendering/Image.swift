import Foundation

/// A frame or texture in memory: RGBA, 8 bits per channel, premultiplied alpha, top row first.
///
/// This is the currency between stages: renderers produce it, image I/O reads and writes it,
/// comparisons diff it.
public struct Image: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width · height · 4` bytes, row by row from the top.
    public var pixels: [UInt8]

    /// A transparent image; `nil` when a side is not positive or the size overflows.
    public init?(width: Int, height: Int) {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return nil }
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Wraps existing pixels; `nil` when their count does not match the size.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Whether every pixel has alpha 1 (drawn unfaded, it hides what is below it).
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { bytes in bytes.withMemoryRebound(to: UInt32.self) { words in
            guard words.count == width * height, width > 0 else { return false }
            @inline(__always) func opaque(_ word: UInt32) -> Bool { UInt32(littleEndian: word) >> 24 == 0xFF }
            // A shape's raster that is not opaque is nearly always transparent at its edges, which
            // are looked at first: the last row, then the first and last pixel of every row.
            let last = (height - 1) * width
            for i in last..<words.count where !opaque(words[i]) { return false }
            for y in 0..<height where !opaque(words[y * width] & words[y * width + width - 1]) { return false }
            // Whole pixels as words (alpha in the top byte), ANDed a block at a time: the loop
            // vectorizes, and a translucent image still stops at its first block.
            var start = 0
            while start < last {
                let end = min(start + 64, last)
                var all: UInt32 = 0xFFFF_FFFF
                for i in start..<end { all &= words[i] }
                if !opaque(all) { return false }
                start = end
            }
            return true
        } }
    }

    /// The premultiplied RGBA of pixel (x, y), (0, 0) being the top left.
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

import Foundation
import Rendering
import ImageIO

/// A contact sheet: thumbnails of evenly spaced frames laid out in a grid, written as one PNG
/// when the frames are done (`lamina demo` writes one beside its video).
public final class ContactSheetSink: FrameSink {
    public let output: URL
    /// Thumbnails taken (default 12), laid out `columns` wide (default 4), each `thumbnailWidth`
    /// pixels wide or less (default 320; the frame shrunk by a whole factor).
    public let count: Int, columns: Int, thumbnailWidth: Int
    private var picks: Set<Int> = []
    private var thumbnails: [Int: Image] = [:]

    public init(output: URL, count: Int = 12, columns: Int = 4, thumbnailWidth: Int = 320) {
        self.output = output
        self.count = max(1, count); self.columns = max(1, columns); self.thumbnailWidth = max(1, thumbnailWidth)
    }

    public func begin(frames: ClosedRange<Int>) throws(ExportError) {
        let last = max(1, count - 1)
        picks = Set((0..<count).map { frames.lowerBound + $0 * (frames.count - 1) / last })
        thumbnails = [:]
    }

    public func consume(_ index: Int, _ image: Image) throws(ExportError) {
        guard picks.contains(index), let thumbnail = Self.thumbnail(image, width: thumbnailWidth) else { return }
        thumbnails[index] = thumbnail
    }

    public func finish() throws(ExportError) {
        guard let sheet = Self.grid(thumbnails.keys.sorted().compactMap { thumbnails[$0] }, columns: columns) else { return }
        do { try ImageFile.writePNG(sheet, to: output, overwrite: true) } catch { throw .imageOutput(error) }
    }

    public func cancel() { thumbnails = [:] }

    /// `image` shrunk to at most `width` pixels wide by averaging boxes of a whole factor
    /// (premultiplied, so edges stay clean).
    public static func thumbnail(_ image: Image, width: Int) -> Image? {
        let factor = max(1, image.width / width)
        let w = image.width / factor, h = image.height / factor
        guard var out = Image(width: w, height: h) else { return nil }
        let area = UInt32(factor * factor)
        image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                        for dy in 0..<factor {
                            var i = ((y * factor + dy) * image.width + x * factor) * 4
                            for _ in 0..<factor {
                                sum.0 += UInt32(src[i]); sum.1 += UInt32(src[i + 1]); sum.2 += UInt32(src[i + 2]); sum.3 += UInt32(src[i + 3])
                                i += 4
                            }
                        }
                        let o = (y * w + x) * 4
                        dst[o] = UInt8((sum.0 + area / 2) / area); dst[o + 1] = UInt8((sum.1 + area / 2) / area)
                        dst[o + 2] = UInt8((sum.2 + area / 2) / area); dst[o + 3] = UInt8((sum.3 + area / 2) / area)
                    }
                }
            }
        }
        return out
    }

    /// Images of one size laid out in rows of `columns`, left to right, top to bottom.
    public static func grid(_ images: [Image], columns: Int) -> Image? {
        guard let first = images.first else { return nil }
        let rows = (images.count + columns - 1) / columns
        guard var sheet = Image(width: first.width * columns, height: first.height * rows) else { return nil }
        for (n, image) in images.enumerated() where image.width == first.width && image.height == first.height {
            let ox = (n % columns) * first.width, oy = (n / columns) * first.height
            for y in 0..<image.height {
                let src = y * image.width * 4
                let dst = ((oy + y) * sheet.width + ox) * 4
                sheet.pixels.replaceSubrange(dst..<(dst + image.width * 4), with: image.pixels[src..<(src + image.width * 4)])
            }
        }
        return sheet
    }
}

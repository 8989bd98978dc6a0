import Foundation

// The option types of Core Graphics drawing (CGContext takes them).

/// How paint combines with what is below. Core Graphics: `CGBlendMode`.
public enum CGBlendMode: Int32, Sendable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut, destinationAtop
    case xor, plusDarker, plusLighter
}

/// How images are resampled when drawn scaled. Core Graphics: `CGInterpolationQuality`.
public enum CGInterpolationQuality: Int32, Sendable {
    case `default` = 0, none = 1, low = 2, medium = 4, high = 3
}

/// Which rule decides the inside of a path. Core Graphics: `CGPathFillRule`.
public enum CGPathFillRule: Int, Sendable {
    case winding, evenOdd
}

/// What `drawPath(using:)` paints. Core Graphics: `CGPathDrawingMode`.
public enum CGPathDrawingMode: Int32, Sendable {
    case fill, eoFill, stroke, fillStroke, eoFillStroke
}

/// Where the alpha channel sits in a pixel, and whether colours are premultiplied by it.
/// Core Graphics: `CGImageAlphaInfo`.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

/// The layout of a bitmap's pixels: an alpha position (`CGImageAlphaInfo`) and a byte order.
/// Core Graphics: `CGBitmapInfo`.
public struct CGBitmapInfo: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
    public static let byteOrderDefault = CGBitmapInfo([])

    /// Bitmap info holding just an alpha position.
    public init(alphaInfo: CGImageAlphaInfo) { self.init(rawValue: alphaInfo.rawValue) }
}

extension CGImage {
    /// Bits per colour component: 8.
    public var bitsPerComponent: Int { 8 }
    /// Bits per pixel: 32 (RGBA).
    public var bitsPerPixel: Int { 32 }
    /// Bytes per row of the pixels: `width · 4`.
    public var bytesPerRow: Int { width * 4 }
    /// Lamina's images are premultiplied RGBA.
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(alphaInfo: .premultipliedLast) }
    /// sRGB.
    public var colorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }

    /// The part of an in-memory image inside `rect` (pixels, top-left origin), or nil when the
    /// image's pixels are not in memory or the rectangle misses it. Core Graphics: `cropping(to:)`.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard let pixels else { return nil }
        let r = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width >= 1, r.height >= 1 else { return nil }
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        var cropped = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let from = ((y0 + y) * width + x0) * 4
            cropped.replaceSubrange(y * w * 4..<(y + 1) * w * 4, with: pixels[from..<from + w * 4])
        }
        return CGImage(width: w, height: h, premultipliedRGBA: cropped)
    }
}

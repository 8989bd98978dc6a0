import Foundation

/// Which ends of a gradient extend past its start and end. Core Graphics: `CGGradientDrawingOptions`.
public struct CGGradientDrawingOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Fill before the start point (or inside the start circle) with the first colour.
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    /// Fill past the end point (or outside the end circle) with the last colour.
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

/// Colour stops for `CGContext.drawLinearGradient` and `drawRadialGradient`. Core Graphics: `CGGradient`.
public final class CGGradient: Hashable, Sendable, CustomStringConvertible {
    /// Stop colours (sRGB, straight alpha), one per location.
    public let colors: [CGColor]
    /// Stop locations in 0…1, non-decreasing.
    public let locations: [CGFloat]

    /// A gradient of `colors` (`CGColor` or `UIColor` values; `[CGColor] as CFArray` in Apple
    /// code) at `locations`, which are read for as many colours as there are; nil locations
    /// space the colours evenly from 0 to 1. Nil when a colour is of another type or there are none.
    public init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        var stops: [CGColor] = []
        for value in colors {
            if let color = value as? CGColor { stops.append(color) } else if let color = value as? UIColor { stops.append(color.cgColor) } else { return nil }
        }
        guard !stops.isEmpty else { return nil }
        self.colors = stops
        self.locations = Self.resolve(locations, count: stops.count)
    }

    /// A gradient of `count` colours given as components in `colorSpace` (alpha last), at
    /// `locations` (nil: evenly spaced). Core Graphics: `CGGradient(colorSpace:colorComponents:locations:count:)`.
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                 locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0 else { return nil }
        let stride = space.numberOfComponents + 1
        var stops: [CGColor] = []
        for i in 0..<count {
            let values = Array(UnsafeBufferPointer(start: components + i * stride, count: stride))
            guard let color = space.color(components: values) else { return nil }
            stops.append(color)
        }
        colors = stops
        self.locations = Self.resolve(locations, count: count)
    }

    /// Given locations clamped to 0…1 and sorted, or even spacing.
    private static func resolve(_ locations: UnsafePointer<CGFloat>?, count: Int) -> [CGFloat] {
        guard let locations else {
            return count == 1 ? [0] : (0..<count).map { CGFloat($0) / CGFloat(count - 1) }
        }
        return UnsafeBufferPointer(start: locations, count: count).map { $0.isFinite ? min(max($0, 0), 1) : 0 }
    }

    public static func == (a: CGGradient, b: CGGradient) -> Bool { a.colors == b.colors && a.locations == b.locations }
    public func hash(into hasher: inout Hasher) { hasher.combine(colors); hasher.combine(locations) }
    public var description: String { "CGGradient(\(colors.count) stops)" }
}

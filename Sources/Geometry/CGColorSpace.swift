import Foundation

/// The model of a colour space. Core Graphics: `CGColorSpaceModel`.
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1, monochrome = 0, rgb = 1, cmyk = 2, lab = 3, deviceN = 4, indexed = 5, pattern = 6, XYZ = 7
}

/// A colour space. Core Graphics: `CGColorSpace`.
///
/// Lamina draws in sRGB: every RGB space (device RGB, sRGB, Display P3, the linear and
/// extended variants) is treated as sRGB, every grey space as sRGB grey. The space decides
/// how many components a colour or a gradient stop has.
public final class CGColorSpace: Hashable, Sendable, CustomStringConvertible {
    /// The space's name (`CGColorSpace.sRGB`, …), nil for the device spaces.
    public let name: CFString?
    public let model: CGColorSpaceModel

    init(name: CFString?, model: CGColorSpaceModel) {
        self.name = name
        self.model = model
    }

    /// The named space; nil for names Lamina does not know.
    public convenience init?(name: CFString) {
        if Self.rgbNames.contains(name) {
            self.init(name: name, model: .rgb)
        } else if Self.grayNames.contains(name) {
            self.init(name: name, model: .monochrome)
        } else {
            return nil
        }
    }

    /// Colour components without alpha: 3 for RGB, 1 for grey.
    public var numberOfComponents: Int { model == .monochrome ? 1 : 3 }

    public static let sRGB: CFString = "kCGColorSpaceSRGB"
    public static let extendedSRGB: CFString = "kCGColorSpaceExtendedSRGB"
    public static let linearSRGB: CFString = "kCGColorSpaceLinearSRGB"
    public static let extendedLinearSRGB: CFString = "kCGColorSpaceExtendedLinearSRGB"
    public static let displayP3: CFString = "kCGColorSpaceDisplayP3"
    public static let genericRGBLinear: CFString = "kCGColorSpaceGenericRGBLinear"
    public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearGray: CFString = "kCGColorSpaceLinearGray"
    public static let extendedGray: CFString = "kCGColorSpaceExtendedGray"

    static let rgbNames: Set<String> = [sRGB, extendedSRGB, linearSRGB, extendedLinearSRGB, displayP3, genericRGBLinear]
    static let grayNames: Set<String> = [genericGrayGamma2_2, linearGray, extendedGray]

    /// The device RGB space (sRGB here).
    static let deviceRGB = CGColorSpace(name: nil, model: .rgb)
    /// The device grey space.
    static let deviceGray = CGColorSpace(name: nil, model: .monochrome)

    /// The colour these components (alpha last) denote; nil when there are too few.
    func color(components: [CGFloat]) -> CGColor? {
        switch model {
        case .monochrome:
            guard components.count >= 2 else { return nil }
            return CGColor(gray: components[0], alpha: components[1])
        default:
            guard components.count >= 4 else { return nil }
            return CGColor(red: components[0], green: components[1], blue: components[2], alpha: components[3])
        }
    }

    public static func == (a: CGColorSpace, b: CGColorSpace) -> Bool { a.name == b.name && a.model == b.model }
    public func hash(into hasher: inout Hasher) { hasher.combine(name); hasher.combine(model) }
    public var description: String { "CGColorSpace(\(name ?? (model == .monochrome ? "device gray" : "device RGB")))" }
}

/// The device RGB colour space (sRGB). Core Graphics: `CGColorSpaceCreateDeviceRGB`.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { .deviceRGB }
/// The device grey colour space. Core Graphics: `CGColorSpaceCreateDeviceGray`.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { .deviceGray }

extension CGColor {
    /// A colour from components in `colorSpace`, alpha last (`[gray, alpha]` or `[r, g, b, a]`).
    /// Core Graphics: `CGColor(colorSpace:components:)`.
    public init?(colorSpace: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let count = colorSpace.numberOfComponents + 1
        guard let color = colorSpace.color(components: Array(UnsafeBufferPointer(start: components, count: count))) else { return nil }
        self = color
    }

    /// An sRGB colour. Core Graphics: `CGColor(srgbRed:green:blue:alpha:)`.
    public init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The colour's space: sRGB (Lamina's colours are sRGB values).
    public var colorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }
}

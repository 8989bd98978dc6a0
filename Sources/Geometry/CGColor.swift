import Foundation

/// An sRGB colour with straight (unpremultiplied) alpha, components in 0…1.
///
/// Core Animation counterpart: `CGColor` in the sRGB colour space. Lamina's colour is a value,
/// so `layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)` ports unchanged.
public struct CGColor: Hashable, Sendable, CustomStringConvertible {
    public var red: CGFloat
    public var green: CGFloat
    public var blue: CGFloat
    public var alpha: CGFloat

    /// An sRGB colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// A grey of the given brightness.
    public init(gray: CGFloat, alpha: CGFloat) { self.init(red: gray, green: gray, blue: gray, alpha: alpha) }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (sRGB, straight alpha); `nil` when malformed.
    public init?(hex: String) {
        var text = Substring(hex)
        guard text.first == "#" else { return nil }
        text = text.dropFirst()
        guard text.count == 6 || text.count == 8, let value = UInt32(text, radix: 16),
              text.allSatisfy(\.isHexDigit) else { return nil }
        let v = text.count == 6 ? (value << 8) | 0xFF : value
        self.init(red: CGFloat((v >> 24) & 0xFF) / 255, green: CGFloat((v >> 16) & 0xFF) / 255,
                  blue: CGFloat((v >> 8) & 0xFF) / 255, alpha: CGFloat(v & 0xFF) / 255)
    }

    /// The components `[r, g, b, a]`, as `CGColor.components` returns for an RGB colour.
    public var components: [CGFloat]? { [red, green, blue, alpha] }
    public var numberOfComponents: Int { 4 }

    /// The same colour with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? { CGColor(red: red, green: green, blue: blue, alpha: alpha) }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// Component-wise linear interpolation (straight alpha, as Core Animation blends colours).
    public func interpolated(to other: CGColor, fraction t: CGFloat) -> CGColor {
        CGColor(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
                blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    public var description: String {
        "CGColor(\(red), \(green), \(blue), \(alpha))"
    }
}

/// A UIKit-style colour, so `UIColor.red.cgColor` in ported code compiles unchanged.
public struct UIColor: Hashable, Sendable {
    public var cgColor: CGColor
    public init(cgColor: CGColor) { self.cgColor = cgColor }
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public init(white: CGFloat, alpha: CGFloat) { cgColor = CGColor(gray: white, alpha: alpha) }
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(red: cgColor.red, green: cgColor.green, blue: cgColor.blue, alpha: alpha)
    }

    public static let black = UIColor(white: 0, alpha: 1)
    public static let darkGray = UIColor(white: 1.0 / 3, alpha: 1)
    public static let lightGray = UIColor(white: 2.0 / 3, alpha: 1)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    public static let clear = UIColor(white: 0, alpha: 0)
}

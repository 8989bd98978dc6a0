import Foundation

// Core Animation's string-valued option types, with its Swift names and raw values.

/// How contents fit the bounds. Core Animation: `CALayerContentsGravity`.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let center = Self(rawValue: "center")
    public static let top = Self(rawValue: "top")
    public static let bottom = Self(rawValue: "bottom")
    public static let left = Self(rawValue: "left")
    public static let right = Self(rawValue: "right")
    public static let topLeft = Self(rawValue: "topLeft")
    public static let topRight = Self(rawValue: "topRight")
    public static let bottomLeft = Self(rawValue: "bottomLeft")
    public static let bottomRight = Self(rawValue: "bottomRight")
    public static let resize = Self(rawValue: "resize")
    public static let resizeAspect = Self(rawValue: "resizeAspect")
    public static let resizeAspectFill = Self(rawValue: "resizeAspectFill")
    /// All twelve gravities.
    public static let allCases: [Self] = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                          .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
}

/// Texture sampling filter. Core Animation: `CALayerContentsFilter`.
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = Self(rawValue: "linear")
    public static let nearest = Self(rawValue: "nearest")
    public static let trilinear = Self(rawValue: "trilinear")
}

/// Shape of rounded corners. Core Animation: `CALayerCornerCurve`.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let circular = Self(rawValue: "circular")
    public static let continuous = Self(rawValue: "continuous")

    /// How much more room a corner of this curve needs than a circular one.
    public static func expansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
        curve == .continuous ? 1.528665 : 1
    }
}

/// Which corners `cornerRadius` rounds. Core Animation: `CACornerMask`.
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
    public static let all: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// Shape layer fill rule. Core Animation: `CAShapeLayerFillRule`.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let nonZero = Self(rawValue: "non-zero")
    public static let evenOdd = Self(rawValue: "even-odd")
}

/// Stroke end caps. Core Animation: `CAShapeLayerLineCap`.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = Self(rawValue: "butt")
    public static let round = Self(rawValue: "round")
    public static let square = Self(rawValue: "square")
}

/// Stroke joins. Core Animation: `CAShapeLayerLineJoin`.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = Self(rawValue: "miter")
    public static let round = Self(rawValue: "round")
    public static let bevel = Self(rawValue: "bevel")
}

/// Text truncation. Core Animation: `CATextLayerTruncationMode`.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = Self(rawValue: "none")
    public static let start = Self(rawValue: "start")
    public static let middle = Self(rawValue: "middle")
    public static let end = Self(rawValue: "end")
}

/// Text alignment. Core Animation: `CATextLayerAlignmentMode`.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let natural = Self(rawValue: "natural")
    public static let left = Self(rawValue: "left")
    public static let right = Self(rawValue: "right")
    public static let center = Self(rawValue: "center")
    public static let justified = Self(rawValue: "justified")
}

/// Gradient geometry. Core Animation: `CAGradientLayerType`.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = Self(rawValue: "axial")
    public static let radial = Self(rawValue: "radial")
    public static let conic = Self(rawValue: "conic")
}

/// Emitter shapes. Core Animation: `CAEmitterLayerEmitterShape`.
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let point = Self(rawValue: "point")
    public static let line = Self(rawValue: "line")
    public static let rectangle = Self(rawValue: "rectangle")
    public static let cuboid = Self(rawValue: "cuboid")
    public static let circle = Self(rawValue: "circle")
    public static let sphere = Self(rawValue: "sphere")
}

/// Where on the shape particles start. Core Animation: `CAEmitterLayerEmitterMode`.
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let points = Self(rawValue: "points")
    public static let outline = Self(rawValue: "outline")
    public static let surface = Self(rawValue: "surface")
    public static let volume = Self(rawValue: "volume")
}

/// Particle draw order. Core Animation: `CAEmitterLayerRenderMode`.
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unordered = Self(rawValue: "unordered")
    public static let oldestFirst = Self(rawValue: "oldestFirst")
    public static let oldestLast = Self(rawValue: "oldestLast")
    public static let backToFront = Self(rawValue: "backToFront")
    public static let additive = Self(rawValue: "additive")
}

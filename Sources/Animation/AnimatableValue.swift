import Foundation
import Geometry
import Filters

/// The type of an animatable property, which decides how values convert and interpolate.
public enum AnimatableValueKind: Sendable, Hashable {
    case number, point, size, rect, color, transform, path, bool, contents, numbers, colors
    /// `compositingFilter`: one filter or none, switched discretely.
    case filter
    /// `filters`, `backgroundFilters`: a list whose inputs interpolate while its filters match.
    case filters
}

/// Layer contents mid-animation: both ends and the cross-fade fraction (blending is the renderer's job).
public struct ContentsValue: Sendable, Hashable {
    public var image: CGImage?
    /// The image being faded in, with `fraction` its weight; `nil` when not cross-fading.
    public var fadingTo: CGImage?
    public var fraction: Double
    public init(image: CGImage?, fadingTo: CGImage? = nil, fraction: Double = 0) {
        self.image = image; self.fadingTo = fadingTo; self.fraction = fraction
    }
}

/// A value of an animatable property, in a form animations can interpolate and add.
public enum AnimatableValue: Sendable, Hashable {
    case number(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case color(CGColor?)
    /// Boxed: a transform is 128 bytes, and keeping it inline made every value (numbers included)
    /// that large to copy.
    indirect case transform(CATransform3D)
    case path(CGPath?)
    case bool(Bool)
    case contents(ContentsValue)
    case numbers([Double])
    case colors([CGColor])
    case filter(LayerFilter?)
    case filters([LayerFilter])

    public var kind: AnimatableValueKind {
        switch self {
        case .number: .number
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .path: .path
        case .bool: .bool
        case .contents: .contents
        case .numbers: .numbers
        case .colors: .colors
        case .filter: .filter
        case .filters: .filters
        }
    }

    /// The scalar, when this is a number.
    public var number: Double? { if case .number(let v) = self { v } else { nil } }
}

// MARK: - Conversion from the `Any` values Core Animation's API takes

extension AnimatableValue {
    /// Converts a value given to `fromValue`, `values` and the like into the property's type.
    ///
    /// Accepts what Core Animation accepts: numbers of any Swift or Foundation type for scalars,
    /// `CGPoint`/`CGSize`/`CGRect`, `CGColor` or `UIColor`, `CATransform3D`, `CGPath` or
    /// `UIBezierPath`, `CGImage`, and arrays for list-valued properties. `nil` when it does not fit.
    public init?(converting value: Any?, to kind: AnimatableValueKind) {
        guard let value else {
            switch kind {
            case .color: self = .color(nil)
            case .path: self = .path(nil)
            case .contents: self = .contents(ContentsValue(image: nil))
            case .filter: self = .filter(nil)
            case .filters: self = .filters([])
            default: return nil
            }
            return
        }
        switch kind {
        case .number:
            guard let n = Self.double(value) else { return nil }
            self = .number(n)
        case .bool:
            if let b = value as? Bool { self = .bool(b) } else if let n = Self.double(value) { self = .bool(n != 0) } else { return nil }
        case .point:
            guard let p = value as? CGPoint else { return nil }
            self = .point(p)
        case .size:
            guard let s = value as? CGSize else { return nil }
            self = .size(s)
        case .rect:
            guard let r = value as? CGRect else { return nil }
            self = .rect(r)
        case .color:
            guard let c = Self.color(value) else { return nil }
            self = .color(c)
        case .transform:
            guard let t = value as? CATransform3D else { return nil }
            self = .transform(t)
        case .path:
            if let p = value as? CGPath { self = .path(p) } else if let b = value as? UIBezierPath { self = .path(b.cgPath) } else { return nil }
        case .contents:
            guard let image = value as? CGImage else { return nil }
            self = .contents(ContentsValue(image: image))
        case .numbers:
            guard let list = value as? [Any] else { return nil }
            var numbers: [Double] = []
            numbers.reserveCapacity(list.count)
            for element in list {
                guard let n = Self.double(element) else { return nil }
                numbers.append(n)
            }
            self = .numbers(numbers)
        case .colors:
            guard let list = value as? [Any] else { return nil }
            var colors: [CGColor] = []
            for element in list {
                guard let c = Self.color(element) else { return nil }
                colors.append(c)
            }
            self = .colors(colors)
        case .filter:
            if let filter = value as? LayerFilter { self = .filter(filter); return }
            self = .filter(LayerFilter.compositing(from: value))
        case .filters:
            if let filters = value as? [LayerFilter] { self = .filters(filters); return }
            guard let list = value as? [Any] else { return nil }
            self = .filters(LayerFilter.imageFilters(from: list, for: "filters"))
        }
    }

    /// The value of a custom (key-value coded) property, its kind read from the value's type:
    /// numbers, Booleans, points, sizes, rectangles, colours, transforms and paths; nil for
    /// other values (strings, objects), which are stored but do not animate.
    public init?(inferring value: Any) {
        switch value {
        case let b as Bool where type(of: value) == Bool.self: self = .bool(b)
        case let p as CGPoint: self = .point(p)
        case let s as CGSize: self = .size(s)
        case let r as CGRect: self = .rect(r)
        case let t as CATransform3D: self = .transform(t)
        case let c as CGColor: self = .color(c)
        case let c as UIColor: self = .color(c.cgColor)
        case let p as CGPath: self = .path(p)
        case let p as UIBezierPath: self = .path(p.cgPath)
        default:
            guard let n = Self.double(value) else { return nil }
            self = .number(n)
        }
    }

    /// Whether every number in the value is finite (a value that is not is never applied).
    public var isFinite: Bool {
        switch self {
        case .number(let v): v.isFinite
        case .point(let p): p.x.isFinite && p.y.isFinite
        case .size(let s): s.width.isFinite && s.height.isFinite
        case .rect(let r): r.origin.x.isFinite && r.origin.y.isFinite && r.width.isFinite && r.height.isFinite
        case .color(let c): c.map { $0.red.isFinite && $0.green.isFinite && $0.blue.isFinite && $0.alpha.isFinite } ?? true
        case .transform(let t): t.isFinite
        case .path(let p): p.map { path in path.elements.allSatisfy(\.isFinite) } ?? true
        case .bool: true
        case .contents(let c): c.fraction.isFinite
        case .numbers(let v): v.allSatisfy(\.isFinite)
        case .colors(let v): v.allSatisfy { $0.red.isFinite && $0.green.isFinite && $0.blue.isFinite && $0.alpha.isFinite }
        case .filter, .filters: true  // a filter takes finite inputs only
        }
    }

    /// A number from any numeric type Swift or Foundation code might pass.
    public static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: v
        case let v as CGFloat: Double(v)
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as Int32: Double(v)
        case let v as Int64: Double(v)
        case let v as UInt: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    private static func color(_ value: Any) -> CGColor? {
        if let c = value as? CGColor { return c }
        if let c = value as? UIColor { return c.cgColor }
        return nil
    }

    /// The value as the `Any` Core Animation's API hands back (`CGFloat` for numbers, etc.).
    public var anyValue: Any? {
        switch self {
        case .number(let v): NSNumber(value: v)  // readable as CGFloat, Double, Float, as on Apple
        case .point(let v): v
        case .size(let v): v
        case .rect(let v): v
        case .color(let v): v
        case .transform(let v): v
        case .path(let v): v
        case .bool(let v): v
        case .contents(let v): v.image
        case .numbers(let v): v.map { CGFloat($0) }
        case .colors(let v): v
        case .filter(let v): v?.publicValue
        case .filters(let v): v.map { CIFilter($0) }
        }
    }
}

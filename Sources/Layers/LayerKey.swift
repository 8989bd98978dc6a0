import Foundation
import Geometry
import Animation
import Filters

/// An animatable layer property, named as Core Animation names its key.
public enum LayerKey: String, CaseIterable, Sendable {
    case bounds, position, zPosition, anchorPoint, anchorPointZ, transform, sublayerTransform
    case opacity, hidden, backgroundColor, cornerRadius, borderWidth, borderColor
    case contents, contentsRect, contentsCenter, contentsScale, masksToBounds, doubleSided
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath
    case shouldRasterize, rasterizationScale, minificationFilterBias
    case compositingFilter, filters, backgroundFilters
    // CAShapeLayer
    case path, fillColor, strokeColor, strokeStart, strokeEnd, lineWidth, miterLimit, lineDashPhase, lineDashPattern
    // CATextLayer
    case fontSize, foregroundColor
    // CAGradientLayer
    case colors, locations, startPoint, endPoint
    // CAReplicatorLayer
    case instanceCount, instanceDelay, instanceTransform, instanceColor
    case instanceRedOffset, instanceGreenOffset, instanceBlueOffset, instanceAlphaOffset
    // CAEmitterLayer
    case emitterPosition, emitterZPosition, emitterSize, emitterDepth
    case birthRate, lifetime, velocity, scale, spin

    /// The value type of the property.
    public var kind: AnimatableValueKind {
        switch self {
        case .bounds, .contentsRect, .contentsCenter: .rect
        case .position, .anchorPoint, .startPoint, .endPoint, .emitterPosition: .point
        case .shadowOffset, .emitterSize: .size
        case .transform, .sublayerTransform, .instanceTransform: .transform
        case .hidden, .masksToBounds, .doubleSided, .shouldRasterize: .bool
        case .backgroundColor, .borderColor, .shadowColor, .fillColor, .strokeColor, .foregroundColor, .instanceColor: .color
        case .contents: .contents
        case .shadowPath, .path: .path
        case .lineDashPattern, .locations: .numbers
        case .colors: .colors
        case .compositingFilter: .filter
        case .filters, .backgroundFilters: .filters
        default: .number
        }
    }

    /// True for properties that get an implicit animation when changed (CALayer.h "Animatable").
    ///
    /// `path` is animatable but never implicitly (§15.1).
    public var isImplicitlyAnimatable: Bool {
        switch self {
        case .path, .lineDashPattern, .minificationFilterBias: false
        default: true
        }
    }

    /// The class-specific group the key belongs to, or `nil` for `CALayer`'s own keys.
    var contentGroup: ContentGroup? {
        switch self {
        case .path, .fillColor, .strokeColor, .strokeStart, .strokeEnd, .lineWidth, .miterLimit, .lineDashPhase, .lineDashPattern: .shape
        case .fontSize, .foregroundColor: .text
        case .colors, .locations, .startPoint, .endPoint: .gradient
        case .instanceCount, .instanceDelay, .instanceTransform, .instanceColor,
             .instanceRedOffset, .instanceGreenOffset, .instanceBlueOffset, .instanceAlphaOffset: .replicator
        case .emitterPosition, .emitterZPosition, .emitterSize, .emitterDepth, .birthRate, .lifetime, .velocity, .scale, .spin: .emitter
        default: nil
        }
    }

    enum ContentGroup { case shape, text, gradient, replicator, emitter }
}

/// A field inside a structured value: `position.x`, `bounds.size.width`, `transform.rotation.z`, …
public enum KeyPathField: String, Sendable, CaseIterable {
    case x, y, width, height
    case origin, originX = "origin.x", originY = "origin.y"
    case size, sizeWidth = "size.width", sizeHeight = "size.height"
    case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation
    case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z", scale
    case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z", translation

    /// Whether the field exists on values of `kind`.
    func applies(to kind: AnimatableValueKind) -> Bool {
        switch self {
        case .x, .y: kind == .point
        case .width, .height: kind == .size
        case .origin, .originX, .originY, .size, .sizeWidth, .sizeHeight: kind == .rect
        default: kind == .transform
        }
    }

    /// The value type of the field.
    public var kind: AnimatableValueKind {
        switch self {
        case .origin: .point
        case .size, .translation: .size
        default: .number
        }
    }
}

/// An input of one filter in a layer's `filters` or `backgroundFilters`, by the filter's name:
/// the `NAME.inputRadius` of `filters.NAME.inputRadius`.
public struct FilterInputPath: Sendable, Equatable {
    public var filter: String
    public var input: String
    public init(filter: String, input: String) { self.filter = filter; self.input = input }
    /// Numbers, or four-number vectors for the colour matrix's `input…Vector` inputs.
    public var kind: AnimatableValueKind { LayerFilter.isVectorParameter(input) ? .numbers : .number }
}

/// A parsed animation key path: a layer property and an optional field inside it.
public struct LayerKeyPath: Sendable, Equatable, CustomStringConvertible {
    public var key: LayerKey
    public var field: KeyPathField?
    /// For `filters.NAME.INPUT` and `backgroundFilters.NAME.INPUT`: the filter input addressed.
    public var filterInput: FilterInputPath?

    /// Parses a Core Animation key path; `nil` for unknown keys or fields that do not fit the key.
    public init?(_ string: String) {
        let parts = string.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = parts.first else { return nil }
        let key: LayerKey? = switch first {
        case "isHidden": .hidden
        case "isDoubleSided": .doubleSided
        default: LayerKey(rawValue: first)
        }
        guard let key else { return nil }
        self.key = key
        if parts.count == 2, key == .filters || key == .backgroundFilters {
            // The filter's name may not contain a dot; the input is what follows it.
            let rest = parts[1].split(separator: ".", maxSplits: 1).map(String.init)
            guard rest.count == 2, !rest[0].isEmpty, rest[1].hasPrefix("input") else { return nil }
            filterInput = FilterInputPath(filter: rest[0], input: rest[1])
        } else if parts.count == 2 {
            guard let field = KeyPathField(rawValue: parts[1]), field.applies(to: key.kind) else { return nil }
            self.field = field
        }
    }

    public init(key: LayerKey, field: KeyPathField? = nil) { self.key = key; self.field = field }

    /// The value type the animation interpolates.
    public var kind: AnimatableValueKind { filterInput?.kind ?? field?.kind ?? key.kind }

    public var description: String {
        if let f = filterInput { return "\(key.rawValue).\(f.filter).\(f.input)" }
        return field.map { "\(key.rawValue).\($0.rawValue)" } ?? key.rawValue
    }
}

// MARK: - Reading and writing fields

extension KeyPathField {
    /// Reads the field out of a whole value.
    func read(from value: AnimatableValue) -> AnimatableValue {
        switch value {
        case .point(let p): return .number(self == .x ? p.x : p.y)
        case .size(let s): return .number(self == .width ? s.width : s.height)
        case .rect(let r):
            switch self {
            case .origin: return .point(r.origin)
            case .originX: return .number(r.origin.x)
            case .originY: return .number(r.origin.y)
            case .size: return .size(r.size)
            case .sizeWidth: return .number(r.size.width)
            default: return .number(r.size.height)
            }
        case .transform(let t): return read(transform: t)
        default: return value
        }
    }

    /// Writes the field into a whole value, leaving the other fields as they are.
    func write(_ field: AnimatableValue, into value: AnimatableValue) -> AnimatableValue {
        let n = field.number ?? 0
        switch value {
        case .point(var p):
            if self == .x { p.x = n } else { p.y = n }
            return .point(p)
        case .size(var s):
            if self == .width { s.width = n } else { s.height = n }
            return .size(s)
        case .rect(var r):
            switch self {
            case .origin: if case .point(let p) = field { r.origin = p }
            case .originX: r.origin.x = n
            case .originY: r.origin.y = n
            case .size: if case .size(let s) = field { r.size = s }
            case .sizeWidth: r.size.width = n
            default: r.size.height = n
            }
            return .rect(r)
        case .transform(let t): return .transform(write(field, into: t))
        default: return value
        }
    }
}

extension KeyPathField {
    /// Reads the field out of a transform (decomposing it unless it is the identity).
    func read(transform t: CATransform3D) -> AnimatableValue {
        if t.isIdentity {
            // The common case needs no decomposition.
            switch self {
            case .scaleX, .scaleY, .scaleZ, .scale: return .number(1)
            case .translation: return .size(.zero)
            default: return .number(0)
            }
        }
        let c = t.components ?? TransformComponents()
        switch self {
        case .rotationX: return .number(c.eulerAngles.x)
        case .rotationY: return .number(c.eulerAngles.y)
        case .rotationZ, .rotation: return .number(c.eulerAngles.z)
        case .scaleX: return .number(c.scale.x)
        case .scaleY: return .number(c.scale.y)
        case .scaleZ: return .number(c.scale.z)
        case .scale: return .number((c.scale.x + c.scale.y + c.scale.z) / 3)
        case .translationX: return .number(c.translation.x)
        case .translationY: return .number(c.translation.y)
        case .translationZ: return .number(c.translation.z)
        default: return .size(CGSize(width: c.translation.x, height: c.translation.y))
        }
    }

    /// Writes the field into a transform, leaving the other components as they are.
    func write(_ field: AnimatableValue, into t: CATransform3D) -> CATransform3D {
        let n = field.number ?? 0
        if t.isIdentity, let direct = identityWrite(n, field) { return direct }
        // Decompose, replace the field, recompose as S · R · T (§10) keeping perspective.
        var c = t.components ?? TransformComponents()
        switch self {
        case .rotationX: c.eulerAngles.x = n
        case .rotationY: c.eulerAngles.y = n
        case .rotationZ, .rotation: c.eulerAngles.z = n
        case .scaleX: c.scale.x = n
        case .scaleY: c.scale.y = n
        case .scaleZ: c.scale.z = n
        case .scale: c.scale = SIMD3(n, n, n)
        case .translationX: c.translation.x = n
        case .translationY: c.translation.y = n
        case .translationZ: c.translation.z = n
        default:
            if case .size(let s) = field { c.translation.x = s.width; c.translation.y = s.height }
        }
        return c.transform
    }
}

extension KeyPathField {
    /// Writing one field into the identity transform, without decomposing it.
    func identityWrite(_ n: Double, _ field: AnimatableValue) -> CATransform3D? {
        switch self {
        case .rotationX: CATransform3DMakeRotation(n, 1, 0, 0)
        case .rotationY: CATransform3DMakeRotation(n, 0, 1, 0)
        case .rotationZ, .rotation: CATransform3DMakeRotation(n, 0, 0, 1)
        case .scaleX: CATransform3DMakeScale(n, 1, 1)
        case .scaleY: CATransform3DMakeScale(1, n, 1)
        case .scaleZ: CATransform3DMakeScale(1, 1, n)
        case .scale: CATransform3DMakeScale(n, n, n)
        case .translationX: CATransform3DMakeTranslation(n, 0, 0)
        case .translationY: CATransform3DMakeTranslation(0, n, 0)
        case .translationZ: CATransform3DMakeTranslation(0, 0, n)
        case .translation:
            if case .size(let s) = field { CATransform3DMakeTranslation(s.width, s.height, 0) } else { nil }
        default: nil
        }
    }
}

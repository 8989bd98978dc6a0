import Foundation

/// A filter parameter's value: a number (`inputRadius`) or a vector (`inputRVector`).
public enum FilterParameter: Sendable, Hashable {
    case number(Double)
    case vector([Double])

    public var number: Double? { if case .number(let v) = self { v } else { nil } }
    public var vector: [Double]? { if case .vector(let v) = self { v } else { nil } }
}

/// One filter of a layer's `filters`, `backgroundFilters` or `compositingFilter`, as a value:
/// what a `CIFilter` (or a Core Animation filter name) is turned into when it is assigned, so
/// that presentation copies and animations can carry and interpolate it.
///
/// Every parameter of the kind is present (defaults filled in), so two filters that draw alike
/// compare equal.
public struct LayerFilter: Sendable, Hashable, CustomStringConvertible {
    /// The filters Lamina draws, by their Core Animation names (`CIFilter` names map onto them).
    public enum Kind: String, Sendable, CaseIterable {
        case gaussianBlur, colorControls, colorMatrix, colorInvert, sepiaTone
        case normalBlendMode, multiplyBlendMode, screenBlendMode, overlayBlendMode, darkenBlendMode, lightenBlendMode
        case colorDodgeBlendMode, colorBurnBlendMode, softLightBlendMode, hardLightBlendMode, differenceBlendMode
        case exclusionBlendMode, hueBlendMode, saturationBlendMode, colorBlendMode, luminosityBlendMode
        /// `CIAdditionCompositing`: the premultiplied sum, clamped.
        case addition

        /// The Core Image name: `CIGaussianBlur`, `CIMultiplyBlendMode`, `CIAdditionCompositing`, …
        public var coreImageName: String {
            switch self {
            case .addition: "CIAdditionCompositing"
            case .normalBlendMode: "CISourceOverCompositing"
            default: "CI" + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
            }
        }

        /// The kind named `name`: a Core Animation name (`multiplyBlendMode`, `gaussianBlur`) or a
        /// Core Image one (`CIMultiplyBlendMode`, `CIGaussianBlur`).
        public init?(filterName name: String) {
            if let kind = Kind(rawValue: name) {
                self = kind
            } else if let kind = Kind.allCases.first(where: { $0.coreImageName == name }) {
                self = kind
            } else {
                return nil
            }
        }

        /// Blend modes and `addition`: what `compositingFilter` takes. The others filter an image
        /// (`filters`, `backgroundFilters`).
        public var isCompositing: Bool {
            switch self {
            case .gaussianBlur, .colorControls, .colorMatrix, .colorInvert, .sepiaTone: false
            default: true
            }
        }

        /// Every input of the kind with its Core Image default.
        public var defaults: [String: FilterParameter] {
            switch self {
            case .gaussianBlur: [kCIInputRadiusKey: .number(10)]
            case .colorControls: [kCIInputSaturationKey: .number(1), kCIInputBrightnessKey: .number(0), kCIInputContrastKey: .number(1)]
            case .colorMatrix:
                ["inputRVector": .vector([1, 0, 0, 0]), "inputGVector": .vector([0, 1, 0, 0]),
                 "inputBVector": .vector([0, 0, 1, 0]), "inputAVector": .vector([0, 0, 0, 1]),
                 "inputBiasVector": .vector([0, 0, 0, 0])]
            case .sepiaTone: [kCIInputIntensityKey: .number(1)]
            default: [:]
            }
        }
    }

    public var kind: Kind
    /// The name key paths address it by (`filters.NAME.inputRadius`); the name it was created with
    /// unless changed.
    public var name: String
    public private(set) var parameters: [String: FilterParameter]

    /// A filter of `kind` with its defaults, named `name` (the Core Animation name by default).
    public init(_ kind: Kind, name: String? = nil) {
        self.kind = kind
        self.name = name ?? kind.rawValue
        parameters = kind.defaults
    }

    /// The value of an input, nil when the kind has no such input.
    public func value(forKey key: String) -> FilterParameter? { parameters[key] }

    /// The number of a numeric input (its default when unset), nil when the kind has no such input.
    public func number(_ key: String) -> Double? { parameters[key]?.number }

    /// Sets an input; false (and nothing changes) when the kind has no such input or the value is
    /// of the other type (a number for a vector) or a vector of the wrong length.
    @discardableResult
    public mutating func setValue(_ value: FilterParameter, forKey key: String) -> Bool {
        guard let current = parameters[key] else { return false }
        switch (current, value) {
        case (.number, .number(let n)) where n.isFinite: parameters[key] = value
        case (.vector(let a), .vector(let b)) where a.count == b.count && b.allSatisfy(\.isFinite): parameters[key] = value
        default: return false
        }
        return true
    }

    /// The filter `t` of the way to `other`, parameter by parameter; nil when the two are not the
    /// same filter (kind and name), which animations then switch between half-way.
    public func interpolated(to other: LayerFilter, fraction t: Double) -> LayerFilter? {
        guard kind == other.kind, name == other.name else { return nil }
        var result = self
        for (key, a) in parameters {
            switch (a, other.parameters[key]) {
            case (.number(let x), .number(let y)?): result.parameters[key] = .number(x + (y - x) * t)
            case (.vector(let x), .vector(let y)?) where x.count == y.count:
                result.parameters[key] = .vector(zip(x, y).map { $0 + ($1 - $0) * t })
            default: break
            }
        }
        return result
    }

    /// The kind of value an input of this name holds, whatever the filter (for key paths such as
    /// `filters.NAME.inputRVector`, parsed before the layer's filters are known).
    public static func isVectorParameter(_ key: String) -> Bool { key.hasSuffix("Vector") }

    public var description: String {
        let inputs = parameters.keys.sorted().map { key -> String in
            switch parameters[key]! {
            case .number(let v): "\(key)=\(Self.format(v))"
            case .vector(let v): "\(key)=(\(v.map(Self.format).joined(separator: ",")))"
            }
        }
        let label = name == kind.rawValue || name == kind.coreImageName ? kind.rawValue : "\(kind.rawValue) \"\(name)\""
        return inputs.isEmpty ? label : "\(label) " + inputs.joined(separator: " ")
    }

    static func format(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(format: "%g", r)
    }
}

extension LayerFilter {
    /// Converts what Core Animation's filter properties take: a `CIFilter`, a filter name
    /// (`"multiplyBlendMode"`, `"CIGaussianBlur"`) or a `LayerFilter`. Unsupported filters give
    /// nil and a warning (Core Animation ignores filters it cannot apply).
    public init?(any value: Any, for property: String) {
        switch value {
        case let filter as LayerFilter:
            self = filter
        case let filter as CIFilter:
            guard let converted = filter.layerFilter else {
                FilterWarnings.report("\(property): \(filter.filterName) is not supported by Lamina; the filter is ignored")
                return nil
            }
            self = converted
        case let name as String:
            guard let kind = Kind(filterName: name) else {
                FilterWarnings.report("\(property): unknown filter \"\(name)\"; the filter is ignored")
                return nil
            }
            self.init(kind, name: name)
        default:
            FilterWarnings.report("\(property): \(type(of: value)) is not a filter; it is ignored")
            return nil
        }
    }

    /// The value the layer's getter hands back: the name when the filter was given as a
    /// Core Animation name with default inputs, otherwise a `CIFilter` carrying it.
    public var publicValue: Any {
        if name == kind.rawValue, parameters == kind.defaults { return name }
        return CIFilter(self)
    }

    /// `compositingFilter`'s value from what was assigned: nil for nil, for `normalBlendMode`
    /// (plain source-over) is kept as given, and anything that is not a blend mode is ignored
    /// with a warning.
    public static func compositing(from value: Any?) -> LayerFilter? {
        guard let value, let filter = LayerFilter(any: value, for: "compositingFilter") else { return nil }
        guard filter.kind.isCompositing else {
            FilterWarnings.report("compositingFilter: \(filter.kind.coreImageName) is not a compositing filter; it is ignored")
            return nil
        }
        return filter
    }

    /// `filters`/`backgroundFilters` from what was assigned: the supported image filters, in
    /// order; blend modes and unknown filters are dropped with a warning.
    public static func imageFilters(from value: [Any]?, for property: String) -> [LayerFilter] {
        (value ?? []).compactMap { element in
            guard let filter = LayerFilter(any: element, for: property) else { return nil }
            guard !filter.kind.isCompositing else {
                FilterWarnings.report("\(property): \(filter.kind.coreImageName) needs a background image here; it is ignored")
                return nil
            }
            return filter
        }
    }
}

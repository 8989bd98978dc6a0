import Foundation

// Core Image's input keys (CIFilter.h); the colour-matrix vectors have no constants on Apple.
public let kCIInputImageKey = "inputImage"
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
public let kCIInputRadiusKey = "inputRadius"
public let kCIInputSaturationKey = "inputSaturation"
public let kCIInputBrightnessKey = "inputBrightness"
public let kCIInputContrastKey = "inputContrast"
public let kCIInputIntensityKey = "inputIntensity"
public let kCIAttributeFilterName = "CIAttributeFilterName"

/// A vector of numbers, as Core Image passes colour-matrix rows. Core Image: `CIVector`.
public final class CIVector: CustomStringConvertible, @unchecked Sendable {
    public let values: [CGFloat]
    public init(values: UnsafePointer<CGFloat>, count: Int) { self.values = Array(UnsafeBufferPointer(start: values, count: count)) }
    public init(x: CGFloat) { values = [x] }
    public init(x: CGFloat, y: CGFloat) { values = [x, y] }
    public init(x: CGFloat, y: CGFloat, z: CGFloat) { values = [x, y, z] }
    public init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { values = [x, y, z, w] }
    /// A Lamina convenience: the vector of `values`.
    public init(_ values: [CGFloat]) { self.values = values }
    public var count: Int { values.count }
    public func value(at index: Int) -> CGFloat { index < values.count ? values[index] : 0 }
    public var x: CGFloat { value(at: 0) }
    public var y: CGFloat { value(at: 1) }
    public var z: CGFloat { value(at: 2) }
    public var w: CGFloat { value(at: 3) }
    public var description: String { "[" + values.map { "\($0)" }.joined(separator: " ") + "]" }
}

/// A Core Image filter as layers use it: a name, a kind and its inputs, set by key-value coding.
/// Core Image: `CIFilter`. Lamina draws `CIGaussianBlur`, `CIColorControls`, `CIColorMatrix`,
/// `CIColorInvert`, `CISepiaTone`, the `CI…BlendMode` filters and `CIAdditionCompositing`
/// (`LayerFilter.Kind`); other Core Image names make a filter that layers ignore with a warning,
/// so code written for Apple still runs.
///
/// A layer copies the filter's inputs when it is assigned: change them afterwards through the
/// layer (`layer.setValue(20, forKeyPath: "filters.NAME.inputRadius")`), as on Apple.
open class CIFilter: CustomStringConvertible {
    /// The Core Image name the filter was made with (`CIGaussianBlur`).
    public let filterName: String
    /// The name key paths address the filter by (`filters.NAME.inputRadius`); the filter's Core
    /// Image name unless set.
    open var name: String {
        didSet { value?.name = name }
    }
    /// The inputs as Lamina draws them; nil for a filter Lamina does not support.
    private var value: LayerFilter?
    /// Inputs set under keys the filter does not draw (`inputImage`), kept for `value(forKey:)`.
    private var otherInputs: [String: Any] = [:]

    /// The filter named `name` with default inputs; nil for a name that is not a Core Image
    /// filter (names that do not start with `CI`, nor are one of Lamina's).
    public init?(name: String) {
        let kind = LayerFilter.Kind(filterName: name)
        guard kind != nil || name.hasPrefix("CI") else { return nil }
        filterName = kind?.coreImageName ?? name
        self.name = name
        value = kind.map { LayerFilter($0, name: name) }
    }

    /// The filter named `name` with `parameters` set on top of its defaults.
    public convenience init?(name: String, parameters: [String: Any]?) {
        self.init(name: name)
        for (key, v) in parameters ?? [:] { setValue(v, forKey: key) }
    }

    /// Core Image's older spelling of `init(name:parameters:)`.
    public convenience init?(name: String, withInputParameters parameters: [String: Any]?) {
        self.init(name: name, parameters: parameters)
    }

    /// A filter carrying `value` (what a layer's getter hands back).
    public init(_ value: LayerFilter) {
        filterName = value.kind.coreImageName
        name = value.name
        self.value = value
    }

    /// The value a layer stores, nil when Lamina does not support the filter.
    public var layerFilter: LayerFilter? { value }

    /// The input keys (Lamina's drawn inputs; `inputImage` and the like are accepted and ignored).
    open var inputKeys: [String] {
        (value?.parameters.keys.sorted() ?? []) + otherInputs.keys.sorted().filter { value?.parameters[$0] == nil }
    }

    open var attributes: [String: Any] { [kCIAttributeFilterName: filterName] }

    /// Resets every input to its default.
    open func setDefaults() {
        if let kind = value?.kind { value = LayerFilter(kind, name: name) }
        otherInputs = [:]
    }

    /// Sets an input: numbers (`NSNumber`, `Double`, `CGFloat`, `Int`, …) and `CIVector`s; values
    /// of the wrong type are ignored with a warning.
    open func setValue(_ newValue: Any?, forKey key: String) {
        guard var filter = value, filter.value(forKey: key) != nil else {
            otherInputs[key] = newValue
            return
        }
        let parameter: FilterParameter? = switch newValue {
        case let vector as CIVector: .vector(vector.values.map(Double.init))
        case let numbers as [Double]: .vector(numbers)
        case let numbers as [CGFloat]: .vector(numbers.map(Double.init))
        case let v?: Self.double(v).map(FilterParameter.number)
        case nil: filter.kind.defaults[key]
        }
        guard let parameter, filter.setValue(parameter, forKey: key) else {
            FilterWarnings.report("\(filterName).\(key): \(newValue.map { "\($0)" } ?? "nil") does not fit this input; it is ignored")
            return
        }
        value = filter
    }

    /// An input's value: an `NSNumber` for numbers, a `CIVector` for vectors.
    open func value(forKey key: String) -> Any? {
        switch value?.value(forKey: key) {
        case .number(let v)?: return NSNumber(value: v)
        case .vector(let v)?: return CIVector(v.map { CGFloat($0) })
        case nil: return key == "name" ? name : otherInputs[key]
        }
    }

    open var description: String { "<CIFilter \(filterName) \"\(name)\"\(value.map { ": \($0)" } ?? " (not drawn by Lamina)")>" }

    static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: v
        case let v as CGFloat: Double(v)
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }
}

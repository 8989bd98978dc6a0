import Foundation
import Geometry
import Animation
import Filters
import Timing

/// Answers action searches for a layer. Core Animation: `CALayerDelegate`.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event`, `NSNull()` to stop the search with no action, or nil to continue.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
}

extension CALayerDelegate {
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}

/// A rectangle of content in a tree of layers, placed by geometry and changed by animations.
/// Core Animation: `CALayer`.
///
/// Coordinates: a layer's sublayers are placed in its bounds space; on a Lamina root the origin
/// is the top left and y grows downward (as on iOS). Matrices use row vectors (`p' = p · M`).
/// Animations never change these (model) values; `presentation()` shows them applied.
open class CALayer: CAMediaTiming, CAAnimationHost, CustomStringConvertible {
    /// The property values; the presentation tree evaluates copies of it.
    public internal(set) var properties = LayerProperties()

    public internal(set) weak var superlayer: CALayer?
    var sublayerStorage: [CALayer] = []
    var maskStorage: CALayer?
    weak var maskOwner: CALayer?

    /// Animations in application order.
    var attached: [AttachedAnimation] = []

    /// The presentation copy's model layer (nil on model layers).
    weak var modelLayerReference: CALayer?
    /// The timeline driving this tree, set on its root (nil while standalone).
    weak var timeline: LayerTimeline?
    /// True once the layer was in a live tree at a frame: only then do changes animate implicitly.
    var isCommitted = false

    /// Answers action searches first.
    open weak var delegate: CALayerDelegate?
    /// Actions by event key; `NSNull()` stops the search.
    open var actions: [String: CAAction]?
    /// Default values and nested `"actions"`/`"style"` dictionaries, searched after `actions`.
    open var style: [AnyHashable: Any]?
    /// Arbitrary values stored by key-value coding on keys the layer does not know.
    private var userValues: [String: Any] = [:]

    /// A new layer with Core Animation's defaults.
    public required init() { configureContent() }

    /// A copy of `layer`'s properties (Core Animation uses this to make presentation layers).
    public required init(layer: Any) {
        if let other = layer as? CALayer {
            properties = other.properties
            actions = other.actions; style = other.style
            userValues = other.userValues
        }
        configureContent()
    }

    /// Sets the class-specific part of `properties` when the class needs one.
    open func configureContent() {}

    /// A new layer. Core Animation: `+layer`.
    public class func layer() -> Self { Self() }

    // MARK: - Setting with implicit actions

    /// Assigns a stored property and, when it changed, runs the action for `key`.
    func update<Value: Equatable>(_ key: LayerKey?, _ path: WritableKeyPath<LayerProperties, Value>, _ value: Value) {
        let old = properties[keyPath: path]
        guard old != value else { return }
        let oldValue = key.flatMap { properties.value(for: $0) }
        properties[keyPath: path] = value
        if let key, let oldValue { didChangeValue(forKey: key, from: oldValue) }
    }

    /// Assigns a class-specific property through a closure, then runs the action for `key`.
    func updateContent(_ key: LayerKey?, _ change: (inout LayerContentProperties) -> Void) {
        var content = properties.content
        change(&content)
        guard content != properties.content else { return }
        let oldValue = key.flatMap { properties.value(for: $0) }
        properties.content = content
        if let key, let oldValue { didChangeValue(forKey: key, from: oldValue) }
    }

    // MARK: - Geometry properties

    public var name: String? {
        get { properties.name }
        set { properties.name = newValue }
    }
    /// The layer's own coordinate rectangle; its origin scrolls the sublayers. Animatable.
    public var bounds: CGRect {
        get { properties.bounds }
        set { update(.bounds, \.bounds, newValue) }
    }
    /// Where the anchor point sits in the superlayer's bounds space. Animatable.
    public var position: CGPoint {
        get { properties.position }
        set { update(.position, \.position, newValue) }
    }
    /// Depth: orders siblings (higher is nearer) and translates along z. Animatable.
    public var zPosition: CGFloat {
        get { properties.zPosition }
        set { update(.zPosition, \.zPosition, newValue) }
    }
    /// The point of the bounds (unit coordinates) that `position` and transforms refer to. Animatable.
    public var anchorPoint: CGPoint {
        get { properties.anchorPoint }
        set { update(.anchorPoint, \.anchorPoint, newValue) }
    }
    /// The anchor's z coordinate. Animatable.
    public var anchorPointZ: CGFloat {
        get { properties.anchorPointZ }
        set { update(.anchorPointZ, \.anchorPointZ, newValue) }
    }
    /// The layer's transform about its anchor point. Animatable.
    public var transform: CATransform3D {
        get { properties.transform }
        set { update(.transform, \.transform, newValue) }
    }
    /// A transform applied to the sublayers, about the anchor point (put perspective here). Animatable.
    public var sublayerTransform: CATransform3D {
        get { properties.sublayerTransform }
        set { update(.sublayerTransform, \.sublayerTransform, newValue) }
    }
    /// Measures sublayer geometry from the top of the bounds (flips y for sublayers).
    public var isGeometryFlipped: Bool {
        get { properties.isGeometryFlipped }
        set { update(nil, \.isGeometryFlipped, newValue) }
    }

    // MARK: - Appearance properties

    public var opacity: Float {
        get { properties.opacity }
        set { update(.opacity, \.opacity, newValue) }
    }
    /// Hidden layers and their sublayers are not drawn; (un)hiding runs `onOrderOut`/`onOrderIn`.
    public var isHidden: Bool {
        get { properties.isHidden }
        set {
            guard newValue != properties.isHidden else { return }
            update(.hidden, \.isHidden, newValue)
            runAction(forKey: newValue ? kCAOnOrderOut : kCAOnOrderIn)
        }
    }
    public var backgroundColor: CGColor? {
        get { properties.backgroundColor }
        set { update(.backgroundColor, \.backgroundColor, newValue) }
    }
    public var cornerRadius: CGFloat {
        get { properties.cornerRadius }
        set { update(.cornerRadius, \.cornerRadius, newValue) }
    }
    public var maskedCorners: CACornerMask {
        get { properties.maskedCorners }
        set { update(nil, \.maskedCorners, newValue) }
    }
    public var cornerCurve: CALayerCornerCurve {
        get { properties.cornerCurve }
        set { update(nil, \.cornerCurve, newValue) }
    }
    public var borderWidth: CGFloat {
        get { properties.borderWidth }
        set { update(.borderWidth, \.borderWidth, newValue) }
    }
    public var borderColor: CGColor? {
        get { properties.borderColor }
        set { update(.borderColor, \.borderColor, newValue) }
    }
    /// The image drawn in the bounds (a `CGImage`; other values draw nothing).
    public var contents: Any? {
        get { properties.contents.image }
        set { update(.contents, \.contents, ContentsValue(image: newValue as? CGImage)) }
    }
    public var contentsRect: CGRect {
        get { properties.contentsRect }
        set { update(.contentsRect, \.contentsRect, newValue) }
    }
    public var contentsCenter: CGRect {
        get { properties.contentsCenter }
        set { update(.contentsCenter, \.contentsCenter, newValue) }
    }
    public var contentsGravity: CALayerContentsGravity {
        get { properties.contentsGravity }
        set { update(nil, \.contentsGravity, newValue) }
    }
    public var contentsScale: CGFloat {
        get { properties.contentsScale }
        set { update(.contentsScale, \.contentsScale, newValue) }
    }
    public var minificationFilter: CALayerContentsFilter {
        get { properties.minificationFilter }
        set { update(nil, \.minificationFilter, newValue) }
    }
    public var magnificationFilter: CALayerContentsFilter {
        get { properties.magnificationFilter }
        set { update(nil, \.magnificationFilter, newValue) }
    }
    public var minificationFilterBias: Float {
        get { properties.minificationFilterBias }
        set { update(.minificationFilterBias, \.minificationFilterBias, newValue) }
    }
    public var masksToBounds: Bool {
        get { properties.masksToBounds }
        set { update(.masksToBounds, \.masksToBounds, newValue) }
    }
    public var isDoubleSided: Bool {
        get { properties.isDoubleSided }
        set { update(.doubleSided, \.isDoubleSided, newValue) }
    }
    public var allowsEdgeAntialiasing: Bool {
        get { properties.allowsEdgeAntialiasing }
        set { update(nil, \.allowsEdgeAntialiasing, newValue) }
    }
    public var allowsGroupOpacity: Bool {
        get { properties.allowsGroupOpacity }
        set { update(nil, \.allowsGroupOpacity, newValue) }
    }
    public var isOpaque: Bool {
        get { properties.isOpaque }
        set { update(nil, \.isOpaque, newValue) }
    }
    public var shouldRasterize: Bool {
        get { properties.shouldRasterize }
        set { update(.shouldRasterize, \.shouldRasterize, newValue) }
    }
    public var rasterizationScale: CGFloat {
        get { properties.rasterizationScale }
        set { update(.rasterizationScale, \.rasterizationScale, newValue) }
    }
    public var shadowColor: CGColor? {
        get { properties.shadowColor }
        set { update(.shadowColor, \.shadowColor, newValue) }
    }
    public var shadowOpacity: Float {
        get { properties.shadowOpacity }
        set { update(.shadowOpacity, \.shadowOpacity, newValue) }
    }
    public var shadowOffset: CGSize {
        get { properties.shadowOffset }
        set { update(.shadowOffset, \.shadowOffset, newValue) }
    }
    public var shadowRadius: CGFloat {
        get { properties.shadowRadius }
        set { update(.shadowRadius, \.shadowRadius, newValue) }
    }
    public var shadowPath: CGPath? {
        get { properties.shadowPath }
        set { update(.shadowPath, \.shadowPath, newValue?.copy()) }
    }

    /// How the flattened layer is composited onto what lies beneath it: a blend-mode name
    /// (`"multiplyBlendMode"`, …, `"luminosityBlendMode"`), a `CIFilter` of one
    /// (`CIFilter(name: "CIMultiplyBlendMode")`) or `CIAdditionCompositing`; nil for source-over.
    /// Other values are ignored with a warning. Animatable (discretely).
    public var compositingFilter: Any? {
        get { properties.compositingFilter?.publicValue }
        set { update(.compositingFilter, \.compositingFilter, LayerFilter.compositing(from: newValue)) }
    }
    /// Core Image filters applied to the layer and its sublayers, flattened, in order
    /// (`CIGaussianBlur`, `CIColorControls`, `CIColorMatrix`, `CIColorInvert`, `CISepiaTone`);
    /// other filters are ignored with a warning. Their inputs animate through
    /// `filters.NAME.INPUT` key paths. Animatable.
    public var filters: [Any]? {
        get { properties.filters.isEmpty ? nil : properties.filters.map { CIFilter($0) } }
        set { update(.filters, \.filters, LayerFilter.imageFilters(from: newValue, for: "filters")) }
    }
    /// Core Image filters applied to what lies behind the layer, inside its shape, before the
    /// layer draws (a frosted panel: `CIGaussianBlur`). The same filters as `filters`. Animatable.
    public var backgroundFilters: [Any]? {
        get { properties.backgroundFilters.isEmpty ? nil : properties.backgroundFilters.map { CIFilter($0) } }
        set { update(.backgroundFilters, \.backgroundFilters, LayerFilter.imageFilters(from: newValue, for: "backgroundFilters")) }
    }

    // MARK: - CAMediaTiming (a layer's duration is infinite)

    open var beginTime: CFTimeInterval {
        get { properties.timing.beginTime }
        set { properties.timing.beginTime = newValue }
    }
    open var duration: CFTimeInterval {
        get { properties.timing.duration }
        set { properties.timing.duration = newValue }
    }
    open var speed: Float {
        get { Float(properties.timing.speed) }
        set { properties.timing.speed = Double(newValue) }
    }
    open var timeOffset: CFTimeInterval {
        get { properties.timing.timeOffset }
        set { properties.timing.timeOffset = newValue }
    }
    open var repeatCount: Float {
        get { Float(properties.timing.repeatCount) }
        set { properties.timing.repeatCount = Double(newValue) }
    }
    open var repeatDuration: CFTimeInterval {
        get { properties.timing.repeatDuration }
        set { properties.timing.repeatDuration = newValue }
    }
    open var autoreverses: Bool {
        get { properties.timing.autoreverses }
        set { properties.timing.autoreverses = newValue }
    }
    open var fillMode: CAMediaTimingFillMode {
        get { properties.timing.fillMode }
        set { properties.timing.fillMode = newValue }
    }

    // MARK: - Actions

    /// The action for `event`: the delegate's answer, then `actions`, then the `style` chain,
    /// then `defaultAction(forKey:)`. `NSNull` anywhere stops the search and gives nil.
    /// Core Animation: `action(forKey:)`.
    open func action(forKey event: String) -> CAAction? {
        if case .found(let action) = searchAction(forKey: event) { return action }
        return nil
    }

    /// The class's default action; nil, as Core Animation answers for its own keys (§8.1).
    open class func defaultAction(forKey event: String) -> CAAction? { nil }

    // MARK: - Key-value coding

    /// Sets a property by key path (`"position.x"`, `"transform.rotation.z"`, `"opacity"`, …).
    /// Unknown keys store the value for `value(forKey:)`, as Core Animation's KVC allows.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let path = LayerKeyPath(keyPath),
              let converted = AnimatableValue(converting: value, to: path.kind),
              properties.value(for: path.key) != nil else {
            userValues[keyPath] = value
            return
        }
        var updated = properties
        updated.setValue(converted, at: path)
        guard let new = updated.value(for: path.key), let old = properties.value(for: path.key), new != old else { return }
        properties = updated
        didChangeValue(forKey: path.key, from: old)
    }

    open func setValue(_ value: Any?, forKey key: String) { setValue(value, forKeyPath: key) }

    /// Reads a property by key path, or a value stored under an unknown key.
    open func value(forKeyPath keyPath: String) -> Any? {
        if let path = LayerKeyPath(keyPath), let value = properties.value(at: path) { return value.anyValue }
        return userValues[keyPath]
    }

    open func value(forKey key: String) -> Any? { value(forKeyPath: key) }

    /// Core Animation's default for a key (`+defaultValueForKey:`).
    open class func defaultValue(forKey key: String) -> Any? {
        guard let path = LayerKeyPath(key) else { return nil }
        var defaults = LayerProperties()
        defaults.content = Self().properties.content
        return defaults.value(at: path)?.anyValue
    }

    /// Whether a change to `key` redraws the layer. Core Animation: `+needsDisplayForKey:`.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    // Drawing hooks kept so ported code compiles; contents come from images and content classes.
    open func setNeedsDisplay() {}
    open func displayIfNeeded() {}
    open func setNeedsLayout() {}
    open func layoutIfNeeded() {}
    open func layoutSublayers() {}

    open var description: String {
        let kind = String(describing: Swift.type(of: self))
        return "<\(kind) \(name.map { "\"\($0)\" " } ?? "")bounds=\(bounds) position=\(position)>"
    }
}

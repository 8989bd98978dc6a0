import Foundation
import Geometry
import Drawing
import Animation
import Filters
import Timing
import Synchronization

/// Answers action searches for a layer and can draw it. Core Animation: `CALayerDelegate`.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event`, `NSNull()` to stop the search with no action, or nil to continue.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
    /// Provides the layer's contents (typically by setting `layer.contents`); the default draws
    /// the layer with `draw(in:)`.
    func display(_ layer: CALayer)
    /// Draws the layer's contents into `ctx` (the layer's bounds, y down, at its `contentsScale`).
    func draw(_ layer: CALayer, in ctx: CGContext)
    /// Called before the layer lays out its sublayers.
    func layoutSublayers(of layer: CALayer)
}

extension CALayerDelegate {
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    public func display(_ layer: CALayer) { layer.drawContents() }
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
    public func layoutSublayers(of layer: CALayer) {}
}

/// A rectangle of content in a tree of layers, placed by geometry and changed by animations.
/// Core Animation: `CALayer`.
///
/// Coordinates: a layer's sublayers are placed in its bounds space; on a Lamina root the origin
/// is the top left and y grows downward (as on iOS). Matrices use row vectors (`p' = p · M`).
/// Animations never change these (model) values; `presentation()` shows them applied.
open class CALayer: CAMediaTiming, CAAnimationHost, CustomStringConvertible {
    // The stored properties every frame's evaluation reads opt out of dynamic exclusivity
    // checks: each checked access costs more than the read itself (a runtime access-set insert),
    // and a layer tree is not mutated while it is evaluated (model changes go through the
    // tree's owner, one thread at a time, as on Apple's main thread).
    //
    // Declaration order is memory order: what every frame reads comes first (the values, the
    // sublayers, the mask, the display generation and the compiled animations fill the object's
    // first two cache lines), so presenting a layer of a big tree costs two cache misses on it,
    // not three.

    /// The property values; the presentation tree evaluates copies of it.
    @exclusivity(unchecked) public internal(set) var properties = LayerProperties(unsharedDefaults: ())
    @exclusivity(unchecked) var sublayerStorage: [CALayer] = [] { didSet { noteHierarchyChange() } }
    @exclusivity(unchecked) var maskStorage: CALayer? { didSet { noteHierarchyChange() } }
    /// Display bookkeeping: the generation `setNeedsDisplay()` gave (0: never marked; see
    /// CALayer+Display and `displayedGeneration`).
    @exclusivity(unchecked) var displayGeneration: UInt64 = 0
    /// `attached` compiled for per-frame evaluation (set only by `attached`'s observer).
    @exclusivity(unchecked) var animationSteps = AnimationSteps()

    public internal(set) weak var superlayer: CALayer?
    /// How many times the model presents its sublayers: 1, or a replicator's `instanceCount`.
    /// (Overridden rather than cast: `estimatedPresentedLayerCount` asks every layer every frame.)
    var presentedCopiesOfSublayers: Int { 1 }
    weak var maskOwner: CALayer?

    /// Animations in application order.
    var attached: [AttachedAnimation] = [] {
        didSet { animationSteps = AnimationSteps(attached) }
    }

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
    open var style: [AnyHashable: Any]? {
        didSet { didChange("style") }
    }
    /// Values stored by key-value coding on keys the layer does not know that are not
    /// animatable (strings, objects); animatable ones live in `properties.customValues`.
    var userValues: [String: Any] = [:]
    /// The display generation last displayed (see `displayGeneration`).
    var displayedGeneration: UInt64 = 0
    /// The image `display()` last made, to tell drawn contents from assigned ones.
    weak var displayedImage: CGImage?
    /// Set on a drawing copy, which has no ancestors: whether they flip its contents.
    var drawsFlipped: Bool?
    /// `estimatedPresentedLayerCount` as last counted, with the hierarchy generation it was
    /// counted in (`generation << 17 | count`; 0: never counted).
    let presentedLayerEstimate = Atomic<UInt64>(0)
    /// The geometry block an earlier evaluation's animations wrote, held (retained) to be written
    /// again once that evaluation's tree is gone (see ReusableGeometry.swift).
    let reusableGeometry = Atomic<Unmanaged<PropertyBlock<LayerGeometryValues>>?>(nil)

    /// A new layer with Core Animation's defaults.
    ///
    /// Subclasses override `init()`, `init(layer:)` and `init?(coder:)` as on Apple (all three,
    /// or none): presentation copies are made through an initializer they then inherit.
    public init() { configureContent() }

    deinit { releaseReusableGeometry() }

    /// A copy of `layer`'s properties, custom key-value properties included (Core Animation uses
    /// this to make presentation layers; override it to copy a subclass's stored properties).
    public init(layer: Any) {
        if let other = layer as? CALayer {
            properties = other.properties
            actions = other.actions; style = other.style
            userValues = other.userValues
            needsDisplayOnBoundsChange = other.needsDisplayOnBoundsChange
            drawsAsynchronously = other.drawsAsynchronously
            displayGeneration = other.displayGeneration
            displayedGeneration = other.displayedGeneration
        }
        configureContent()
    }

    /// Lamina does not archive layers: this makes a layer with the defaults, so that subclasses'
    /// `required init?(coder:)` compile and `super.init(coder:)` works.
    public required init?(coder: NSCoder) { configureContent() }

    /// A copy of `layer` made by the dynamic type's `init(layer:)` (presentation copies, drawing copies).
    public required convenience init(_copying layer: CALayer) { self.init(layer: layer) }

    /// A new layer made by the dynamic type's `init()` (`layer()` of a generic type).
    public required convenience init(_defaults: Void) { self.init() }

    /// Sets the class-specific part of `properties` when the class needs one.
    open func configureContent() {}

    /// A new layer. Core Animation: `+layer`.
    public class func layer() -> Self { Self(_defaults: ()) }

    // MARK: - Setting with implicit actions

    /// Assigns a stored property and, when it changed, runs the action for `key`.
    /// `name` is the key-value coding key of a property without a `LayerKey` (it decides
    /// whether the change marks the layer for display).
    func update<Value: Equatable>(_ key: LayerKey?, _ path: WritableKeyPath<LayerProperties, Value>, _ value: Value,
                                  name: String? = nil) {
        let old = properties[keyPath: path]
        guard old != value else { return }
        let oldValue = key.flatMap { properties.value(for: $0) }
        properties[keyPath: path] = value
        didChange(key?.rawValue ?? name)
        if let key, let oldValue { didChangeValue(forKey: key, from: oldValue) }
    }

    /// Assigns a class-specific property through a closure, then runs the action for `key`.
    func updateContent(_ key: LayerKey?, name: String? = nil, _ change: (inout LayerContentProperties) -> Void) {
        var content = properties.content
        change(&content)
        guard content != properties.content else { return }
        let oldValue = key.flatMap { properties.value(for: $0) }
        properties.content = content
        didChange(key?.rawValue ?? name)
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
        set { update(nil, \.isGeometryFlipped, newValue, name: "geometryFlipped") }
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
    /// The image drawn in the bounds (a `CGImage`; other values draw nothing). While a
    /// `contents` animation runs, a presentation layer reports the nearer end (the new image
    /// from the midpoint on), as on Apple, though the frame shows the cross-fade.
    public var contents: Any? {
        get {
            let c = properties.contents
            return c.fadingTo != nil && c.fraction >= 0.5 ? c.fadingTo : c.image
        }
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
        set { update(nil, \.contentsGravity, newValue, name: "contentsGravity") }
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
        set { update(nil, \.isOpaque, newValue, name: "opaque") }
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

    // MARK: - Key-value coding (see CALayer+KeyValueCoding)

    /// Sets a property by key path (`"position.x"`, `"transform.rotation.z"`, `"opacity"`, …),
    /// or stores the value under a key the layer does not know: numbers, Booleans, points,
    /// sizes, rectangles, colours, transforms and paths as animatable custom properties, other
    /// values as they are. A change runs the key's action (custom keys get no implicit
    /// animation, as on Apple) and marks the layer for display when `needsDisplay(forKey:)` says so.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setKeyValue(value, forKeyPath: keyPath) }

    open func setValue(_ value: Any?, forKey key: String) { setValue(value, forKeyPath: key) }

    /// Reads a property by key path, or a value stored under another key; numbers come back as
    /// `NSNumber`, readable as `CGFloat`, `Double`, `Float` or `NSNumber` alike.
    open func value(forKeyPath keyPath: String) -> Any? { keyValue(forKeyPath: keyPath) }

    open func value(forKey key: String) -> Any? { value(forKeyPath: key) }

    /// Core Animation's default for a key (`+defaultValueForKey:`), as measured on Apple: the
    /// class's non-zero defaults and its Boolean ones; nil for keys whose default is zero or
    /// nil (`bounds`, `position`, `shadowOpacity`, `timeOffset`, …), for Swift spellings
    /// (`isHidden`) and for unknown keys.
    open class func defaultValue(forKey key: String) -> Any? { defaultKeyValue(forKey: key) }

    /// Whether a change to `key` redraws the layer (false for all of `CALayer`'s own keys);
    /// override it to redraw on custom properties. Core Animation: `+needsDisplayForKey:`.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    // MARK: - Drawing (see CALayer+Display)

    /// Redraws whenever `bounds` changes (default false).
    open var needsDisplayOnBoundsChange = false
    /// Accepted for porting: Lamina draws layers on whatever thread renders them.
    open var drawsAsynchronously = false

    /// Marks the layer's contents for redrawing: `displayIfNeeded()` (each frame of a
    /// `LayerTimeline`, or the renderer) draws it again.
    open func setNeedsDisplay() { markNeedsDisplay() }

    /// Marks the layer for redrawing; Lamina always redraws the whole layer.
    open func setNeedsDisplay(_ rect: CGRect) { setNeedsDisplay() }

    /// Whether the layer is marked for redrawing.
    open func needsDisplay() -> Bool { displayGeneration != displayedGeneration }

    /// Redraws the layer now if it is marked.
    open func displayIfNeeded() {
        guard needsDisplay() else { return }
        let generation = displayGeneration
        display()
        // A display that marked the layer again keeps the newer mark.
        displayedGeneration = max(displayedGeneration, generation)
    }

    /// Provides the contents: the delegate's `display(_:)` if there is a delegate, else
    /// `draw(in:)` into a bitmap of the bounds at `contentsScale`, which becomes `contents`.
    open func display() {
        if let delegate { delegate.display(self) } else { drawContents() }
    }

    /// Draws the layer's contents. The default calls the delegate's `draw(_:in:)`. `ctx` covers
    /// the bounds, origin at the top left and y down (as on iOS), at `contentsScale` pixels per
    /// point; it is UIKit's current context meanwhile, so `UIBezierPath.fill()` draws into it.
    open func draw(in ctx: CGContext) { delegate?.draw(self, in: ctx) }

    open func setNeedsLayout() {}
    open func layoutIfNeeded() {}
    open func layoutSublayers() { delegate?.layoutSublayers(of: self) }

    open var description: String {
        let kind = String(describing: Swift.type(of: self))
        return "<\(kind) \(name.map { "\"\($0)\" " } ?? "")bounds=\(bounds) position=\(position)>"
    }
}

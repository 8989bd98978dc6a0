import Foundation
import Geometry
import Animation
import Filters
import Timing

/// Every property of a layer, as a value: the model layer stores one, and the presentation at a
/// time is a copy with the active animations applied. Defaults are Core Animation's (§11.1).
///
/// Copy-on-write: the values live in one shared block, so copying a layer's properties (every
/// frame, for every presented layer) costs a reference count, and only a layer whose animations
/// change something gets a block of its own (copied once, on the first write).
public struct LayerProperties: Sendable, Equatable {
    // Shared only while unwritten (copy-on-write), so sharing across threads is safe.
    @usableFromInline nonisolated(unsafe) var storage: PropertyBlock<LayerPropertyValues>
    /// The plain values animations usually change, in a block of their own: an animated layer
    /// copies these (no reference counts) and keeps sharing `storage` with its model.
    @usableFromInline nonisolated(unsafe) var geometry: PropertyBlock<LayerGeometryValues>

    public init() { storage = defaultPropertyBlock; geometry = defaultGeometryBlock }

    /// The defaults in blocks of their own, for a model layer: the presentation of a tree then
    /// retains no block that another layer shares, so threads evaluating parts of one tree do
    /// not contend on the reference count of the shared default block (one cache line that
    /// every plain layer's presentation would retain and release).
    init(unsharedDefaults: Void) {
        storage = PropertyBlock.make(defaultPropertyBlock.values.pointee)
        geometry = PropertyBlock.make(defaultGeometryBlock.values.pointee)
    }

    /// Values made of these blocks (shared until written, as any copy's).
    init(storage: PropertyBlock<LayerPropertyValues>, geometry: PropertyBlock<LayerGeometryValues>) {
        self.storage = storage
        self.geometry = geometry
    }

    /// Gives this value a block of its own before a write, when the block is shared.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = PropertyBlock.make(storage.values.pointee) }
    }

    /// Gives this value a geometry block of its own before a write, when the block is shared.
    @inlinable @inline(__always)
    mutating func makeGeometryUnique() {
        if !isKnownUniquelyReferenced(&geometry) { geometry = PropertyBlock.make(geometry.values.pointee) }
    }

    public static func == (a: LayerProperties, b: LayerProperties) -> Bool {
        (a.geometry === b.geometry || a.geometry.values.pointee == b.geometry.values.pointee)
            && (a.storage === b.storage || a.storage.values.pointee == b.storage.values.pointee)
    }

    @inlinable public var name: String? {
        get { storage.values.pointee.name }
        _modify { makeUnique(); yield &storage.values.pointee.name }
    }
    @inlinable public var bounds: CGRect {
        get { geometry.values.pointee.bounds }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.bounds }
    }
    @inlinable public var position: CGPoint {
        get { geometry.values.pointee.position }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.position }
    }
    @inlinable public var zPosition: CGFloat {
        get { geometry.values.pointee.zPosition }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.zPosition }
    }
    @inlinable public var anchorPoint: CGPoint {
        get { geometry.values.pointee.anchorPoint }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.anchorPoint }
    }
    @inlinable public var anchorPointZ: CGFloat {
        get { geometry.values.pointee.anchorPointZ }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.anchorPointZ }
    }
    @inlinable public var transform: CATransform3D {
        get { geometry.values.pointee.transform }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.transform }
    }
    /// In the shared block, not the geometry block: it is seldom animated, and the geometry
    /// block is copied for every animated layer every frame.
    @inlinable public var sublayerTransform: CATransform3D {
        get { storage.values.pointee.sublayerTransform }
        _modify { makeUnique(); yield &storage.values.pointee.sublayerTransform }
    }
    @inlinable public var opacity: Float {
        get { geometry.values.pointee.opacity }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.opacity }
    }
    @inlinable public var isHidden: Bool {
        get { geometry.values.pointee.isHidden }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.isHidden }
    }
    @inlinable public var backgroundColor: CGColor? {
        get { geometry.values.pointee.backgroundColor }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.backgroundColor }
    }
    @inlinable public var cornerRadius: CGFloat {
        get { geometry.values.pointee.cornerRadius }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.cornerRadius }
    }
    @inlinable public var maskedCorners: CACornerMask {
        get { storage.values.pointee.maskedCorners }
        _modify { makeUnique(); yield &storage.values.pointee.maskedCorners }
    }
    @inlinable public var cornerCurve: CALayerCornerCurve {
        get { storage.values.pointee.cornerCurve }
        _modify { makeUnique(); yield &storage.values.pointee.cornerCurve }
    }
    @inlinable public var borderWidth: CGFloat {
        get { geometry.values.pointee.borderWidth }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.borderWidth }
    }
    @inlinable public var borderColor: CGColor? {
        get { geometry.values.pointee.borderColor }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.borderColor }
    }
    @inlinable public var contents: ContentsValue {
        get { storage.values.pointee.contents }
        _modify { makeUnique(); yield &storage.values.pointee.contents }
    }
    @inlinable public var contentsRect: CGRect {
        get { geometry.values.pointee.contentsRect }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.contentsRect }
    }
    @inlinable public var contentsCenter: CGRect {
        get { storage.values.pointee.contentsCenter }
        _modify { makeUnique(); yield &storage.values.pointee.contentsCenter }
    }
    @inlinable public var contentsGravity: CALayerContentsGravity {
        get { storage.values.pointee.contentsGravity }
        _modify { makeUnique(); yield &storage.values.pointee.contentsGravity }
    }
    @inlinable public var contentsScale: CGFloat {
        get { storage.values.pointee.contentsScale }
        _modify { makeUnique(); yield &storage.values.pointee.contentsScale }
    }
    @inlinable public var minificationFilter: CALayerContentsFilter {
        get { storage.values.pointee.minificationFilter }
        _modify { makeUnique(); yield &storage.values.pointee.minificationFilter }
    }
    @inlinable public var magnificationFilter: CALayerContentsFilter {
        get { storage.values.pointee.magnificationFilter }
        _modify { makeUnique(); yield &storage.values.pointee.magnificationFilter }
    }
    @inlinable public var minificationFilterBias: Float {
        get { storage.values.pointee.minificationFilterBias }
        _modify { makeUnique(); yield &storage.values.pointee.minificationFilterBias }
    }
    @inlinable public var masksToBounds: Bool {
        get { storage.values.pointee.masksToBounds }
        _modify { makeUnique(); yield &storage.values.pointee.masksToBounds }
    }
    @inlinable public var isDoubleSided: Bool {
        get { storage.values.pointee.isDoubleSided }
        _modify { makeUnique(); yield &storage.values.pointee.isDoubleSided }
    }
    @inlinable public var isGeometryFlipped: Bool {
        get { storage.values.pointee.isGeometryFlipped }
        _modify { makeUnique(); yield &storage.values.pointee.isGeometryFlipped }
    }
    @inlinable public var allowsEdgeAntialiasing: Bool {
        get { storage.values.pointee.allowsEdgeAntialiasing }
        _modify { makeUnique(); yield &storage.values.pointee.allowsEdgeAntialiasing }
    }
    @inlinable public var allowsGroupOpacity: Bool {
        get { storage.values.pointee.allowsGroupOpacity }
        _modify { makeUnique(); yield &storage.values.pointee.allowsGroupOpacity }
    }
    @inlinable public var isOpaque: Bool {
        get { storage.values.pointee.isOpaque }
        _modify { makeUnique(); yield &storage.values.pointee.isOpaque }
    }
    @inlinable public var shouldRasterize: Bool {
        get { storage.values.pointee.shouldRasterize }
        _modify { makeUnique(); yield &storage.values.pointee.shouldRasterize }
    }
    @inlinable public var rasterizationScale: CGFloat {
        get { storage.values.pointee.rasterizationScale }
        _modify { makeUnique(); yield &storage.values.pointee.rasterizationScale }
    }
    @inlinable public var shadowColor: CGColor? {
        get { geometry.values.pointee.shadowColor }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.shadowColor }
    }
    @inlinable public var shadowOpacity: Float {
        get { geometry.values.pointee.shadowOpacity }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.shadowOpacity }
    }
    @inlinable public var shadowOffset: CGSize {
        get { geometry.values.pointee.shadowOffset }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.shadowOffset }
    }
    @inlinable public var shadowRadius: CGFloat {
        get { geometry.values.pointee.shadowRadius }
        _modify { makeGeometryUnique(); yield &geometry.values.pointee.shadowRadius }
    }
    @inlinable public var shadowPath: CGPath? {
        get { storage.values.pointee.shadowPath }
        _modify { makeUnique(); yield &storage.values.pointee.shadowPath }
    }
    /// Blends the flattened layer onto what lies beneath it (a blend mode or `addition`).
    @inlinable public var compositingFilter: LayerFilter? {
        get { storage.values.pointee.compositingFilter }
        _modify { makeUnique(); yield &storage.values.pointee.compositingFilter }
    }
    /// Applied to the flattened layer (itself and its sublayers), in order, before compositing.
    @inlinable public var filters: [LayerFilter] {
        get { storage.values.pointee.filters }
        _modify { makeUnique(); yield &storage.values.pointee.filters }
    }
    /// Applied to what lies behind the layer, inside its shape, before the layer draws.
    @inlinable public var backgroundFilters: [LayerFilter] {
        get { storage.values.pointee.backgroundFilters }
        _modify { makeUnique(); yield &storage.values.pointee.backgroundFilters }
    }
    /// Layer timing: duration is infinite for layers.
    @inlinable public var timing: TimingParameters {
        get { storage.values.pointee.timing }
        _modify { makeUnique(); yield &storage.values.pointee.timing }
    }
    /// The properties of the layer's class (shape, text, gradient, …).
    @inlinable public var content: LayerContentProperties {
        get { storage.values.pointee.content }
        _modify { makeUnique(); yield &storage.values.pointee.content }
    }
    /// A running `CATransition`, if any (set on presentation values only).
    @inlinable public var transition: TransitionState? {
        get { storage.values.pointee.transition }
        _modify { makeUnique(); yield &storage.values.pointee.transition }
    }
    /// Animatable values stored by key-value coding under keys the layer's class does not
    /// know (`setValue(0.5, forKey: "progress")`): custom properties, animatable by key.
    @inlinable public var customValues: [String: AnimatableValue] {
        get { storage.values.pointee.customValues }
        _modify { makeUnique(); yield &storage.values.pointee.customValues }
    }
}

/// The stored values of `LayerProperties`, with Core Animation's defaults.
@usableFromInline
struct LayerPropertyValues: Sendable, Equatable {
    // First: what every frame reads of every layer (its local time, its class, whether a
    // transition runs) lies in the block's first cache line, the one the evaluation prefetches.
    @usableFromInline var timing: TimingParameters = {
        var t = TimingParameters()
        t.duration = .infinity
        return t
    }()
    @usableFromInline var content: LayerContentProperties = .plain
    @usableFromInline var transition: TransitionState?
    @usableFromInline var name: String?
    @usableFromInline var maskedCorners: CACornerMask = .all
    @usableFromInline var cornerCurve: CALayerCornerCurve = .circular
    @usableFromInline var contents = ContentsValue(image: nil)
    @usableFromInline var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    @usableFromInline var contentsGravity: CALayerContentsGravity = .resize
    @usableFromInline var contentsScale: CGFloat = 1
    @usableFromInline var minificationFilter: CALayerContentsFilter = .linear
    @usableFromInline var magnificationFilter: CALayerContentsFilter = .linear
    @usableFromInline var minificationFilterBias: Float = 0
    @usableFromInline var masksToBounds = false
    @usableFromInline var isDoubleSided = true
    @usableFromInline var isGeometryFlipped = false
    @usableFromInline var allowsEdgeAntialiasing = false
    @usableFromInline var allowsGroupOpacity = true
    @usableFromInline var isOpaque = false
    @usableFromInline var shouldRasterize = false
    @usableFromInline var rasterizationScale: CGFloat = 1
    @usableFromInline var sublayerTransform = CATransform3DIdentity
    @usableFromInline var shadowPath: CGPath?
    @usableFromInline var compositingFilter: LayerFilter?
    @usableFromInline var filters: [LayerFilter] = []
    @usableFromInline var backgroundFilters: [LayerFilter] = []
    @usableFromInline var customValues: [String: AnimatableValue] = [:]

    @usableFromInline init() {}
}

/// The values of `LayerProperties` that animations usually change: plain values only (no
/// references), so giving an animated layer its own copy each frame is one small memory copy,
/// while the rest of its properties stay shared with the model.
@usableFromInline
struct LayerGeometryValues: Sendable, Equatable {
    @usableFromInline var bounds = CGRect.zero
    @usableFromInline var position = CGPoint.zero
    @usableFromInline var zPosition: CGFloat = 0
    @usableFromInline var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    @usableFromInline var anchorPointZ: CGFloat = 0
    @usableFromInline var transform = CATransform3DIdentity
    @usableFromInline var opacity: Float = 1
    @usableFromInline var isHidden = false
    @usableFromInline var backgroundColor: CGColor?
    @usableFromInline var cornerRadius: CGFloat = 0
    @usableFromInline var borderWidth: CGFloat = 0
    @usableFromInline var borderColor: CGColor? = .black
    @usableFromInline var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    @usableFromInline var shadowColor: CGColor? = .black
    @usableFromInline var shadowOpacity: Float = 0
    @usableFromInline var shadowOffset = CGSize(width: 0, height: -3)
    @usableFromInline var shadowRadius: CGFloat = 3

    @usableFromInline init() {}
}

/// One block of layer property values, shared by the `LayerProperties` copies that hold it and
/// never written while shared. Tail-allocated: one allocation, read through a pointer (no
/// exclusivity bookkeeping on the per-frame path).
@usableFromInline
final class PropertyBlock<Values>: ManagedBuffer<Void, Values> {
    @usableFromInline
    static func make(_ values: Values) -> PropertyBlock<Values> {
        let buffer = create(minimumCapacity: 1) { _ in () }
        buffer.withUnsafeMutablePointerToElements { $0.initialize(to: values) }
        return unsafeDowncast(buffer, to: PropertyBlock<Values>.self)
    }

    /// The values (valid while this block is alive).
    @inlinable var values: UnsafeMutablePointer<Values> {
        withUnsafeMutablePointerToElements { $0 }
    }

    deinit { _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) } }
}

/// The blocks of `LayerProperties()`, shared by every new layer until its first change.
@usableFromInline nonisolated(unsafe) let defaultPropertyBlock = PropertyBlock.make(LayerPropertyValues())
@usableFromInline nonisolated(unsafe) let defaultGeometryBlock = PropertyBlock.make(LayerGeometryValues())

/// A transition in progress on a layer: what the renderer needs to draw it.
public struct TransitionState: Sendable, Equatable {
    public var type: CATransitionType
    public var subtype: CATransitionSubtype?
    /// Progress 0…1 after start/end progress and the timing function.
    public var progress: Double
    public init(type: CATransitionType, subtype: CATransitionSubtype?, progress: Double) {
        self.type = type; self.subtype = subtype; self.progress = progress
    }
}

/// The class-specific part of a layer's properties.
///
/// Indirect: the payloads live in shared boxes, so copying a layer's properties (every frame,
/// for every layer) costs a reference count instead of a few hundred bytes.
public indirect enum LayerContentProperties: Sendable, Equatable {
    case plain
    case transformLayer
    /// Shows the frames of the scene's video (the `AVVideoCompositionCoreAnimationTool` video layer).
    case video
    case shape(ShapeProperties)
    case text(TextProperties)
    case gradient(GradientProperties)
    case replicator(ReplicatorProperties)
    case emitter(EmitterProperties)
}

/// `CAShapeLayer`'s properties (§15.1 defaults).
public struct ShapeProperties: Sendable, Hashable {
    public var path: CGPath?
    public var fillColor: CGColor? = .black
    public var fillRule: CAShapeLayerFillRule = .nonZero
    public var strokeColor: CGColor?
    public var strokeStart: CGFloat = 0
    public var strokeEnd: CGFloat = 1
    public var lineWidth: CGFloat = 1
    public var miterLimit: CGFloat = 10
    public var lineCap: CAShapeLayerLineCap = .butt
    public var lineJoin: CAShapeLayerLineJoin = .miter
    public var lineDashPhase: CGFloat = 0
    public var lineDashPattern: [Double]?
    /// Lamina extension: the trim applies to the fill too (Lottie's trim paths).
    public var trimsFill = false
    public init() {}
}

/// One run of attributed text: its characters and, where set, its own font, size and colour.
public struct TextRun: Sendable, Hashable {
    public var text: String
    public var font: String?
    public var fontSize: CGFloat?
    public var color: CGColor?
    public init(text: String, font: String? = nil, fontSize: CGFloat? = nil, color: CGColor? = nil) {
        self.text = text; self.font = font; self.fontSize = fontSize; self.color = color
    }
}

/// `CATextLayer`'s properties (§15.3 defaults).
public struct TextProperties: Sendable, Hashable {
    /// Plain text, or attributed runs when `runs` is set.
    public var string: String?
    public var runs: [TextRun]?
    public var font = "Helvetica"
    public var fontSize: CGFloat = 36
    public var foregroundColor: CGColor? = .white
    public var isWrapped = false
    public var truncationMode: CATextLayerTruncationMode = .none
    public var alignmentMode: CATextLayerAlignmentMode = .natural
    public var allowsFontSubpixelQuantization = false
    public init() {}
}

/// `CAGradientLayer`'s properties (§15.2 defaults).
public struct GradientProperties: Sendable, Hashable {
    public var colors: [CGColor]?
    public var locations: [Double]?
    public var startPoint = CGPoint(x: 0.5, y: 0)
    public var endPoint = CGPoint(x: 0.5, y: 1)
    public var type: CAGradientLayerType = .axial
    public init() {}
}

/// `CAReplicatorLayer`'s properties (§15.4 defaults).
public struct ReplicatorProperties: Sendable, Equatable {
    public var instanceCount = 1 { didSet { noteHierarchyChange() } }
    public var instanceDelay: CFTimeInterval = 0
    public var instanceTransform = CATransform3DIdentity
    public var preservesDepth = false
    public var instanceColor: CGColor? = .white
    public var instanceRedOffset: Float = 0
    public var instanceGreenOffset: Float = 0
    public var instanceBlueOffset: Float = 0
    public var instanceAlphaOffset: Float = 0
    public init() {}
}

/// `CAEmitterLayer`'s properties (§15.5 defaults); the cells are shared objects.
public struct EmitterProperties: Sendable, Equatable {
    public var emitterCells: [EmitterCellProperties]?
    public var birthRate: Float = 1
    public var lifetime: Float = 1
    public var velocity: Float = 1
    public var scale: Float = 1
    public var spin: Float = 1
    public var emitterPosition = CGPoint.zero
    public var emitterZPosition: CGFloat = 0
    public var emitterSize = CGSize.zero
    public var emitterDepth: CGFloat = 0
    public var emitterShape: CAEmitterLayerEmitterShape = .point
    public var emitterMode: CAEmitterLayerEmitterMode = .volume
    public var renderMode: CAEmitterLayerRenderMode = .unordered
    public var preservesDepth = false
    public var seed: UInt32 = 0
    public init() {}
}

extension LayerProperties {
    /// The anchor point in bounds coordinates: `(minX + ax·w, minY + ay·h, anchorPointZ)`.
    public var anchorInBounds: (x: CGFloat, y: CGFloat, z: CGFloat) {
        (bounds.minX + anchorPoint.x * bounds.width, bounds.minY + anchorPoint.y * bounds.height, anchorPointZ)
    }

    /// Layer → superlayer-bounds matrix before the parent's sublayerTransform:
    /// `T(−A) · transform · T(position, zPosition)`, computed without full matrix products.
    public var transformToSuperlayer: CATransform3D {
        let a = anchorInBounds
        var m = transform
        // T(−A)·M changes only the last row: row3 − (ax·row0 + ay·row1 + az·row2).
        m.m41 -= a.x * m.m11 + a.y * m.m21 + a.z * m.m31
        m.m42 -= a.x * m.m12 + a.y * m.m22 + a.z * m.m32
        m.m43 -= a.x * m.m13 + a.y * m.m23 + a.z * m.m33
        m.m44 -= a.x * m.m14 + a.y * m.m24 + a.z * m.m34
        // M·T(p) adds w·p to every row's x, y, z.
        let (px, py, pz) = (position.x, position.y, zPosition)
        m.m11 += m.m14 * px; m.m12 += m.m14 * py; m.m13 += m.m14 * pz
        m.m21 += m.m24 * px; m.m22 += m.m24 * py; m.m23 += m.m24 * pz
        m.m31 += m.m34 * px; m.m32 += m.m34 * py; m.m33 += m.m34 * pz
        m.m41 += m.m44 * px; m.m42 += m.m44 * py; m.m43 += m.m44 * pz
        return m
    }

    /// The matrix a sublayer's placement is followed by: `sublayerTransform` about the anchor's
    /// x and y (§11.1), then the geometry flip (y measured from the top of the bounds); nil when
    /// both are identities.
    public var transformForSublayers: CATransform3D? {
        guard !sublayerTransform.isIdentity || isGeometryFlipped else { return nil }
        let a = anchorInBounds
        var m = CATransform3DMakeTranslation(-a.x, -a.y, 0)
            .concatenating(sublayerTransform)
            .concatenating(CATransform3DMakeTranslation(a.x, a.y, 0))
        if isGeometryFlipped {
            // y ↦ minY + maxY − y.
            m = m.concatenating(CATransform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: -1, m23: 0, m24: 0,
                                              m31: 0, m32: 0, m33: 1, m34: 0,
                                              m41: 0, m42: bounds.minY + bounds.maxY, m43: 0, m44: 1))
        }
        return m
    }

    /// The layer's rectangle in its superlayer: the box around the bounds corners mapped by
    /// anchor, transform and position (divided by w). Core Animation: `frame`.
    public var frame: CGRect {
        let m = transformToSuperlayer
        let points = [CGPoint(x: bounds.minX, y: bounds.minY), CGPoint(x: bounds.maxX, y: bounds.minY),
                      CGPoint(x: bounds.minX, y: bounds.maxY), CGPoint(x: bounds.maxX, y: bounds.maxY)].map { m.projecting($0) }
        let xs = points.map(\.x), ys = points.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return CGRect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }
}

extension LayerContentProperties {
    /// The scene-format name of the layer type.
    public var typeName: String {
        switch self {
        case .plain: "layer"
        case .transformLayer: "transform"
        case .video: "video"
        case .shape: "shape"
        case .text: "text"
        case .gradient: "gradient"
        case .replicator: "replicator"
        case .emitter: "emitter"
        }
    }
}

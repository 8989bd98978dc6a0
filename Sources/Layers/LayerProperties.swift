import Foundation
import Geometry
import Animation
import Filters
import Timing

/// Every property of a layer, as a value: the model layer stores one, and the presentation at a
/// time is a copy with the active animations applied. Defaults are Core Animation's (§11.1).
public struct LayerProperties: Sendable, Equatable {
    public var name: String?
    public var bounds = CGRect.zero
    public var position = CGPoint.zero
    public var zPosition: CGFloat = 0
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    public var anchorPointZ: CGFloat = 0
    public var transform = CATransform3DIdentity
    public var sublayerTransform = CATransform3DIdentity
    public var opacity: Float = 1
    public var isHidden = false
    public var backgroundColor: CGColor?
    public var cornerRadius: CGFloat = 0
    public var maskedCorners: CACornerMask = .all
    public var cornerCurve: CALayerCornerCurve = .circular
    public var borderWidth: CGFloat = 0
    public var borderColor: CGColor? = .black
    public var contents = ContentsValue(image: nil)
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    public var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    public var contentsGravity: CALayerContentsGravity = .resize
    public var contentsScale: CGFloat = 1
    public var minificationFilter: CALayerContentsFilter = .linear
    public var magnificationFilter: CALayerContentsFilter = .linear
    public var minificationFilterBias: Float = 0
    public var masksToBounds = false
    public var isDoubleSided = true
    public var isGeometryFlipped = false
    public var allowsEdgeAntialiasing = false
    public var allowsGroupOpacity = true
    public var isOpaque = false
    public var shouldRasterize = false
    public var rasterizationScale: CGFloat = 1
    public var shadowColor: CGColor? = .black
    public var shadowOpacity: Float = 0
    public var shadowOffset = CGSize(width: 0, height: -3)
    public var shadowRadius: CGFloat = 3
    public var shadowPath: CGPath?
    /// Blends the flattened layer onto what lies beneath it (a blend mode or `addition`).
    public var compositingFilter: LayerFilter?
    /// Applied to the flattened layer (itself and its sublayers), in order, before compositing.
    public var filters: [LayerFilter] = []
    /// Applied to what lies behind the layer, inside its shape, before the layer draws.
    public var backgroundFilters: [LayerFilter] = []
    /// Layer timing: duration is infinite for layers.
    public var timing: TimingParameters = {
        var t = TimingParameters()
        t.duration = .infinity
        return t
    }()
    /// The properties of the layer's class (shape, text, gradient, …).
    public var content: LayerContentProperties = .plain
    /// A running `CATransition`, if any (set on presentation values only).
    public var transition: TransitionState?
    /// Animatable values stored by key-value coding under keys the layer's class does not
    /// know (`setValue(0.5, forKey: "progress")`): custom properties, animatable by key.
    public var customValues: [String: AnimatableValue] = [:]

    public init() {}
}

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
    public var instanceCount = 1
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

import Foundation
import Geometry

// The Lottie (Bodymovin) document as the importer reads it: only what lottie-ios's Core Animation
// engine draws. Names follow the Lottie schema's meanings, not its one-letter keys.

/// A whole Lottie file: the root composition and its assets.
struct LottieDocument {
    var version: String?
    var name: String?
    var width: Double
    var height: Double
    /// Frames per second (`fr`).
    var frameRate: Double
    /// First and one-past-last frame of the composition (`ip`, `op`).
    var inFrame: Double
    var outFrame: Double
    var layers: [LottieLayerModel]
    /// Precomposition assets by id.
    var precomps: [String: [LottieLayerModel]]
    /// Image assets by id.
    var images: [String: LottieImageAsset]
    var markers: [LottieMarkerModel]
}

struct LottieMarkerModel {
    var name: String
    var frame: Double
    var durationFrames: Double
}

struct LottieImageAsset {
    var id: String
    var width: Double
    var height: Double
    var image: CGImage?
}

enum LottieLayerKind: Int {
    case precomp = 0, solid = 1, image = 2, null = 3, shape = 4, text = 5
}

enum LottieMatteMode: Int {
    case none = 0, alpha = 1, alphaInverted = 2, luma = 3, lumaInverted = 4
}

/// One layer of a composition (`layers[i]`).
struct LottieLayerModel {
    var path: String
    var name: String
    var index: Int?
    /// nil for layer types the importer does not know (they are skipped).
    var kind: LottieLayerKind?
    var parent: Int?
    var inFrame: Double
    var outFrame: Double
    var startTime: Double
    var timeStretch: Double
    var transform: LottieTransform
    var masks: [LottieMask]
    var matte: LottieMatteMode
    var matteParent: Int?
    var isMatteSource: Bool
    var hidden: Bool
    var is3D: Bool
    var autoOrient: Bool
    var blendMode: Int
    var shapes: [LottieShapeItem]
    var refId: String?
    var width: Double?
    var height: Double?
    var solidColor: [Double]?
    var timeRemap: KeyframeGroup<[Double]>?
    var dropShadow: LottieDropShadow?
    var text: LottieTextModel?
}

/// A layer or shape-group transform (`ks`, or a shape `tr`).
struct LottieTransform {
    var anchor: KeyframeGroup<[Double]> = .constant([0, 0, 0])
    var position: KeyframeGroup<[Double]>? = .constant([0, 0, 0])
    var positionX: KeyframeGroup<[Double]>?
    var positionY: KeyframeGroup<[Double]>?
    var scale: KeyframeGroup<[Double]> = .constant([100, 100, 100])
    var rotationX: KeyframeGroup<[Double]> = .constant([0])
    var rotationY: KeyframeGroup<[Double]> = .constant([0])
    var rotationZ: KeyframeGroup<[Double]> = .constant([0])
    var opacity: KeyframeGroup<[Double]> = .constant([100])
    var skew: KeyframeGroup<[Double]> = .constant([0])
    var skewAxis: KeyframeGroup<[Double]> = .constant([0])

    var hasSkew: Bool {
        skew.keyframes.contains { ($0.value.first ?? 0) != 0 }
    }
}

enum LottieMaskMode: String {
    case add = "a", subtract = "s", intersect = "i", lighten = "l", darken = "d", difference = "f", none = "n"
}

struct LottieMask {
    var mode: LottieMaskMode
    var inverted: Bool
    var shape: KeyframeGroup<BezierShape>
    var opacity: KeyframeGroup<[Double]>
    var expansion: KeyframeGroup<[Double]>
}

struct LottieDropShadow {
    var color: KeyframeGroup<[Double]>?
    /// 0…100.
    var opacity: KeyframeGroup<[Double]>?
    var radius: KeyframeGroup<[Double]>?
    /// Degrees, 90 = straight down.
    var angle: KeyframeGroup<[Double]>?
    var distance: KeyframeGroup<[Double]>?
}

struct LottieTextModel {
    var text: String
    var fontName: String
    var fontSize: Double
    var fillColor: [Double]?
    var strokeColor: [Double]?
    var strokeWidth: Double
    var justification: Int
    var lineHeight: Double
    var tracking: Double
    var boxPosition: [Double]?
    var boxSize: [Double]?
    var hasAnimators: Bool
}

enum LottieLineCap: Int { case butt = 1, round = 2, square = 3 }
enum LottieLineJoin: Int { case miter = 1, round = 2, bevel = 3 }

struct LottieStrokeStyle {
    var width: KeyframeGroup<[Double]>
    var opacity: KeyframeGroup<[Double]>
    var lineCap: LottieLineCap
    var lineJoin: LottieLineJoin
    var miterLimit: Double
    /// `d` entries: dashes and gaps in order, plus the offset.
    var dashes: [KeyframeGroup<[Double]>]
    var dashOffset: KeyframeGroup<[Double]>?
}

struct LottieGradient {
    /// 1 linear, 2 radial.
    var type: Int
    var colorCount: Int
    var colors: KeyframeGroup<[Double]>
    var start: KeyframeGroup<[Double]>
    var end: KeyframeGroup<[Double]>
    var opacity: KeyframeGroup<[Double]>
}

/// One shape item (`shapes[i]`, `it[i]`).
struct LottieShapeItem {
    enum Kind {
        case group([LottieShapeItem])
        case path(KeyframeGroup<BezierShape>)
        case rectangle(position: KeyframeGroup<[Double]>, size: KeyframeGroup<[Double]>, roundness: KeyframeGroup<[Double]>)
        case ellipse(position: KeyframeGroup<[Double]>, size: KeyframeGroup<[Double]>)
        case star(LottieStar)
        case fill(color: KeyframeGroup<[Double]>, opacity: KeyframeGroup<[Double]>, evenOdd: Bool)
        case stroke(color: KeyframeGroup<[Double]>, style: LottieStrokeStyle)
        case gradientFill(LottieGradient, evenOdd: Bool)
        case gradientStroke(LottieGradient, style: LottieStrokeStyle)
        case trim(start: KeyframeGroup<[Double]>, end: KeyframeGroup<[Double]>, offset: KeyframeGroup<[Double]>)
        case transform(LottieTransform)
        case repeater(LottieRepeater)
        case roundedCorners(KeyframeGroup<[Double]>)
        case merge
        case unknown(String)
    }

    var kind: Kind
    var name: String
    var hidden: Bool
    /// `d == 3`: the path runs counter-clockwise.
    var reversed: Bool

    var drawsPath: Bool {
        switch kind {
        case .path, .rectangle, .ellipse, .star: true
        default: false
        }
    }
    var isFill: Bool {
        switch kind {
        case .fill, .gradientFill: true
        default: false
        }
    }
    var isStroke: Bool {
        switch kind {
        case .stroke, .gradientStroke: true
        default: false
        }
    }
    var isGroup: Bool {
        if case .group = kind { return true }
        return false
    }
    var isRepeater: Bool {
        if case .repeater = kind { return true }
        return false
    }
    var isTrim: Bool {
        if case .trim = kind { return true }
        return false
    }
    /// A stroke handed down to a child group, its width divided by the group's x scale so the
    /// group's transform leaves it as wide as it was (lottie-ios's `scaledCopyForChildGroup`).
    func strokeScaledBack(by scale: KeyframeGroup<[Double]>) -> LottieShapeItem {
        func scaled(_ width: KeyframeGroup<[Double]>) -> KeyframeGroup<[Double]> {
            guard scale.keyframes.contains(where: { ($0.value.first ?? 100) != 100 }) else { return width }
            return KeyframeCombining.combined(width, scale) { w, s in
                let sx = s.first ?? 100
                return [sx == 0 ? (w.first ?? 0) : (w.first ?? 0) * 100 / sx]
            }
        }
        var copy = self
        switch kind {
        case .stroke(let color, var style):
            style.width = scaled(style.width)
            copy.kind = .stroke(color: color, style: style)
        case .gradientStroke(let gradient, var style):
            style.width = scaled(style.width)
            copy.kind = .gradientStroke(gradient, style: style)
        default:
            break
        }
        return copy
    }
    /// The opacity keyframes of a fill or stroke.
    var paintOpacity: KeyframeGroup<[Double]>? {
        switch kind {
        case .fill(_, let opacity, _): opacity
        case .stroke(_, let style): style.opacity
        case .gradientFill(let g, _): g.opacity
        case .gradientStroke(let g, _): g.opacity
        default: nil
        }
    }
}

struct LottieStar {
    /// 1 star, 2 polygon.
    var type: Int
    var position: KeyframeGroup<[Double]>
    var outerRadius: KeyframeGroup<[Double]>
    var innerRadius: KeyframeGroup<[Double]>
    var outerRoundness: KeyframeGroup<[Double]>
    var innerRoundness: KeyframeGroup<[Double]>
    var points: KeyframeGroup<[Double]>
    var rotation: KeyframeGroup<[Double]>
}

struct LottieRepeater {
    var copies: KeyframeGroup<[Double]>
    var offset: KeyframeGroup<[Double]>
    var transform: LottieTransform
    var startOpacity: KeyframeGroup<[Double]>
    var endOpacity: KeyframeGroup<[Double]>
}

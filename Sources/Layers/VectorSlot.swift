import Foundation
import Geometry
import Animation

/// Where a vector animation (numbers, points, sizes, rectangles, colours) reads and writes its
/// value, resolved once when the animation is compiled: the geometry-block properties animations
/// usually change are read and written as four lanes, without building an `AnimatableValue` or
/// switching over key and value kinds every frame. Anything else is `.general` and goes through
/// `LayerProperties.value(at:)` and `setValue(_:at:)`.
///
/// Reads and writes are those of the general path, lane for lane (`value(at:)` of
/// `position.x` is `.number(position.x)`, whose vector is `(x, 0, 0, 0)`; `opacity` is stored as
/// `Float(v)`), so results are bit-identical.
enum VectorSlot {
    case position, positionX, positionY, anchorPoint, zPosition
    case bounds, boundsSize, boundsWidth, boundsHeight
    case opacity, cornerRadius, borderWidth, shadowOpacity, shadowRadius, shadowOffset
    case backgroundColor, borderColor, shadowColor
    /// A number inside `transform` or `sublayerTransform` (`transform.rotation.z`): written into
    /// the matrix as `setValue(_:at:)` writes it.
    case transformField(KeyPathField), sublayerTransformField(KeyPathField)
    case general

    /// The slot of `path` for values of `kind`; `.general` where the kinds differ or the path
    /// has no direct slot.
    init(_ path: LayerKeyPath, kind: AnimatableValueKind) {
        guard path.filterInput == nil, path.kind == kind else { self = .general; return }
        switch (path.key, path.field) {
        case (.position, nil): self = .position
        case (.position, .x): self = .positionX
        case (.position, .y): self = .positionY
        case (.anchorPoint, nil): self = .anchorPoint
        case (.zPosition, nil): self = .zPosition
        case (.bounds, nil): self = .bounds
        case (.bounds, .size): self = .boundsSize
        case (.bounds, .sizeWidth): self = .boundsWidth
        case (.bounds, .sizeHeight): self = .boundsHeight
        case (.opacity, nil): self = .opacity
        case (.cornerRadius, nil): self = .cornerRadius
        case (.borderWidth, nil): self = .borderWidth
        case (.shadowOpacity, nil): self = .shadowOpacity
        case (.shadowRadius, nil): self = .shadowRadius
        case (.shadowOffset, nil): self = .shadowOffset
        case (.backgroundColor, nil): self = .backgroundColor
        case (.borderColor, nil): self = .borderColor
        case (.shadowColor, nil): self = .shadowColor
        case (.transform, let field?) where field.kind == .number: self = .transformField(field)
        case (.sublayerTransform, let field?) where field.kind == .number: self = .sublayerTransformField(field)
        default: self = .general
        }
    }

    /// Whether the slot's property lives in `LayerProperties.geometry`.
    var isInGeometryBlock: Bool {
        switch self {
        case .sublayerTransformField, .general: false
        default: true
        }
    }

    /// The property's value as a vector; nil for a nil colour (and for `.general`).
    @inline(__always)
    func read(_ p: LayerProperties) -> SIMD4<Double>? {
        switch self {
        case .position: let v = p.position; return SIMD4(v.x, v.y, 0, 0)
        case .positionX: return SIMD4(p.position.x, 0, 0, 0)
        case .positionY: return SIMD4(p.position.y, 0, 0, 0)
        case .anchorPoint: let v = p.anchorPoint; return SIMD4(v.x, v.y, 0, 0)
        case .zPosition: return SIMD4(p.zPosition, 0, 0, 0)
        case .bounds: let r = p.bounds; return SIMD4(r.origin.x, r.origin.y, r.size.width, r.size.height)
        case .boundsSize: let s = p.bounds.size; return SIMD4(s.width, s.height, 0, 0)
        case .boundsWidth: return SIMD4(p.bounds.size.width, 0, 0, 0)
        case .boundsHeight: return SIMD4(p.bounds.size.height, 0, 0, 0)
        case .opacity: return SIMD4(Double(p.opacity), 0, 0, 0)
        case .cornerRadius: return SIMD4(p.cornerRadius, 0, 0, 0)
        case .borderWidth: return SIMD4(p.borderWidth, 0, 0, 0)
        case .shadowOpacity: return SIMD4(Double(p.shadowOpacity), 0, 0, 0)
        case .shadowRadius: return SIMD4(p.shadowRadius, 0, 0, 0)
        case .shadowOffset: let s = p.shadowOffset; return SIMD4(s.width, s.height, 0, 0)
        case .backgroundColor: return Self.vector(p.backgroundColor)
        case .borderColor: return Self.vector(p.borderColor)
        case .shadowColor: return Self.vector(p.shadowColor)
        case .transformField(let field): return field.read(transform: p.transform).number.map { SIMD4($0, 0, 0, 0) }
        case .sublayerTransformField(let field): return field.read(transform: p.sublayerTransform).number.map { SIMD4($0, 0, 0, 0) }
        case .general: return nil
        }
    }

    /// Writes a vector into the property (the lanes its kind uses).
    @inline(__always)
    func write(_ v: SIMD4<Double>, into p: inout LayerProperties) {
        switch self {
        case .position: p.position = CGPoint(x: v.x, y: v.y)
        case .positionX: p.position.x = v.x
        case .positionY: p.position.y = v.x
        case .anchorPoint: p.anchorPoint = CGPoint(x: v.x, y: v.y)
        case .zPosition: p.zPosition = v.x
        case .bounds: p.bounds = CGRect(x: v.x, y: v.y, width: v.z, height: v.w)
        case .boundsSize: p.bounds.size = CGSize(width: v.x, height: v.y)
        case .boundsWidth: p.bounds.size.width = v.x
        case .boundsHeight: p.bounds.size.height = v.x
        case .opacity: p.opacity = Float(v.x)
        case .cornerRadius: p.cornerRadius = v.x
        case .borderWidth: p.borderWidth = v.x
        case .shadowOpacity: p.shadowOpacity = Float(v.x)
        case .shadowRadius: p.shadowRadius = v.x
        case .shadowOffset: p.shadowOffset = CGSize(width: v.x, height: v.y)
        case .backgroundColor: p.backgroundColor = Self.color(v)
        case .borderColor: p.borderColor = Self.color(v)
        case .shadowColor: p.shadowColor = Self.color(v)
        case .transformField(let field): p.transform = field.write(.number(v.x), into: p.transform)
        case .sublayerTransformField(let field): p.sublayerTransform = field.write(.number(v.x), into: p.sublayerTransform)
        case .general: break
        }
    }

    @inline(__always)
    private static func vector(_ c: CGColor?) -> SIMD4<Double>? {
        guard let c else { return nil }
        return SIMD4(c.red, c.green, c.blue, c.alpha)
    }

    @inline(__always)
    private static func color(_ v: SIMD4<Double>) -> CGColor { CGColor(red: v.x, green: v.y, blue: v.z, alpha: v.w) }
}

extension AnimatableValueKind {
    /// Whether the lanes a vector of this kind uses are all finite (`AnimatableValue.isFinite`).
    @inline(__always)
    func isFinite(_ v: SIMD4<Double>) -> Bool {
        switch self {
        case .number: v.x.isFinite
        case .point, .size: v.x.isFinite && v.y.isFinite
        default: v.x.isFinite && v.y.isFinite && v.z.isFinite && v.w.isFinite
        }
    }
}

import Foundation
import Geometry
import Layers

/// A layer's masks (`masksProperties`) as lottie-ios builds them: added masks are shape layers
/// side by side; each other mode masks the container of the masks before it (subtracted and
/// inverted ones as a huge rectangle with the path cut out, even-odd).
enum MaskBuilder {
    static let veryLargeRect = CGRect(x: -100_000, y: -100_000, width: 200_000, height: 200_000)

    static func build(_ masks: [LottieMask], bounds: CGRect, animations: AnimationBuilder, time: TimeContext) -> CALayer {
        func fill(_ layer: CALayer) -> CALayer {
            layer.anchorPoint = .zero; layer.bounds = bounds; layer.position = .zero
            return layer
        }
        let root = fill(CALayer())
        root.name = "masks"
        var container = fill(CALayer())
        var first = true
        for mask in masks {
            let mode = usableMode(mask.mode)
            guard mode != .none else { continue }
            let shape = fill(CAShapeLayer()) as! CAShapeLayer
            shape.fillRule = .evenOdd
            let invert = (mode == .subtract && !mask.inverted) || (mode == .add && mask.inverted)
            animations.animate(shape, "path", mask.shape, time) { path -> CGPath in
                guard invert else { return path.cgPath }
                let inverted = CGMutablePath()
                inverted.addRect(veryLargeRect)
                path.append(to: inverted)
                return inverted
            }
            if mode == .add || first {
                first = false
                container.addSublayer(shape)
            } else {
                container.mask = shape
                let next = fill(CALayer())
                next.addSublayer(container)
                container = next
            }
        }
        root.addSublayer(container)
        return root
    }

    /// lottie-ios's mapping of After Effects' mask modes onto the ones it draws.
    static func usableMode(_ mode: LottieMaskMode) -> LottieMaskMode {
        switch mode {
        case .lighten: .add
        case .difference: .intersect
        default: mode
        }
    }
}

import Foundation
import Geometry
import Timing
import Animation
import Layers

// The animations of §13's inputs column, as data: each factory takes the spec's words (from, to,
// duration, repeatCount, fill …) and returns a recipe that builds a fresh animation for every run.
// `beginTime` is already resolved (0 = parent time 0) unless a row says otherwise.

extension WorkedExamplesTests {
    struct Recipe {
        let make: () -> CAAnimation
    }

    /// A `CABasicAnimation`, of `position.x` unless `keyPath` says otherwise.
    static func basic(_ from: Double?, _ to: Double?, by: Double? = nil, keyPath: String = "position.x",
                      duration: Double = 1, begin: Double = 0, speed: Float = 1, timeOffset: Double = 0,
                      repeatCount: Float = 0, autoreverses: Bool = false, fill: CAMediaTimingFillMode = .removed,
                      removedOnCompletion: Bool = true, additive: Bool = false, cumulative: Bool = false,
                      curve: CAMediaTimingFunctionName? = nil) -> Recipe {
        Recipe {
            let a = CABasicAnimation(keyPath: keyPath)
            a.fromValue = from; a.toValue = to; a.byValue = by
            a.duration = duration; a.beginTime = begin; a.speed = speed; a.timeOffset = timeOffset
            a.repeatCount = repeatCount; a.autoreverses = autoreverses
            a.fillMode = fill; a.isRemovedOnCompletion = removedOnCompletion
            a.isAdditive = additive; a.isCumulative = cumulative
            if let curve { a.timingFunction = CAMediaTimingFunction(name: curve) }
            return a
        }
    }

    /// A `CABasicAnimation` of `transform` through a value function, over one second.
    static func valueFunction(_ name: CAValueFunctionName, from: Any, to: Any) -> Recipe {
        Recipe {
            let a = CABasicAnimation(keyPath: "transform")
            a.valueFunction = CAValueFunction(name: name)
            a.fromValue = from; a.toValue = to
            a.duration = 1; a.beginTime = 0
            return a
        }
    }

    /// A `CAKeyframeAnimation` of `position.x` over scalar values.
    static func keyframes(_ values: [Double], mode: CAAnimationCalculationMode = .linear, keyTimes: [Double]? = nil,
                          duration: Double = 1, tension: [Double]? = nil, continuity: [Double]? = nil,
                          segmentCurves: [CAMediaTimingFunctionName]? = nil, curve: CAMediaTimingFunctionName? = nil) -> Recipe {
        Recipe {
            let a = CAKeyframeAnimation(keyPath: "position.x")
            a.values = values
            a.calculationMode = mode
            a.keyTimes = keyTimes?.map { NSNumber(value: $0) }
            a.duration = duration; a.beginTime = 0
            if let tension { a.tensionValues = tension.map { NSNumber(value: $0) } }
            if let continuity { a.continuityValues = continuity.map { NSNumber(value: $0) } }
            if let segmentCurves { a.timingFunctions = segmentCurves.map { CAMediaTimingFunction(name: $0) } }
            if let curve { a.timingFunction = CAMediaTimingFunction(name: curve) }
            return a
        }
    }

    /// A `CAKeyframeAnimation` of `position` over points.
    static func points(_ values: [(x: Double, y: Double)], mode: CAAnimationCalculationMode, duration: Double = 1) -> Recipe {
        Recipe {
            let a = CAKeyframeAnimation(keyPath: "position")
            a.values = values.map { CGPoint(x: $0.x, y: $0.y) }
            a.calculationMode = mode
            a.duration = duration; a.beginTime = 0
            return a
        }
    }

    /// A `CAKeyframeAnimation` of `position` along a path, over one second.
    static func path(_ path: @escaping () -> CGPath, mode: CAAnimationCalculationMode = .linear,
                     rotation: CAAnimationRotationMode? = nil) -> Recipe {
        Recipe {
            let a = CAKeyframeAnimation(keyPath: "position")
            a.path = path()
            a.calculationMode = mode
            if let rotation { a.rotationMode = rotation }
            a.duration = 1; a.beginTime = 0
            return a
        }
    }

    /// A `CASpringAnimation` of `position.x` from 0 to 100 (5 s long, so it never ends early);
    /// mass 1, stiffness 100 and damping 10 unless given.
    static func spring(damping: CGFloat? = nil, initialVelocity: CGFloat? = nil, allowsOverdamping: Bool? = nil) -> Recipe {
        Recipe {
            let s = CASpringAnimation(keyPath: "position.x")
            s.fromValue = 0.0; s.toValue = 100.0
            s.duration = 5; s.beginTime = 0
            if let damping { s.damping = damping }
            if let initialVelocity { s.initialVelocity = initialVelocity }
            if let allowsOverdamping { s.allowsOverdamping = allowsOverdamping }
            return s
        }
    }

    /// A `CAAnimationGroup` of `children`.
    static func group(duration: Double, speed: Float = 1, fill: CAMediaTimingFillMode = .removed,
                      removedOnCompletion: Bool = true, _ children: [Recipe]) -> Recipe {
        Recipe {
            let g = CAAnimationGroup()
            g.duration = duration; g.speed = speed; g.beginTime = 0
            g.fillMode = fill; g.isRemovedOnCompletion = removedOnCompletion
            g.animations = children.map { $0.make() }
            return g
        }
    }

    // MARK: - Layers the rows read

    /// A standalone layer (no implicit animations) at model `position.x` = `x`, with `recipes`
    /// added in order.
    static func layer(x: Double = 0, _ recipes: [Recipe]) -> CALayer {
        let layer = CALayer()
        layer.position = CGPoint(x: x, y: 0)
        for (i, recipe) in recipes.enumerated() { layer.add(recipe.make(), forKey: "row\(i)") }
        return layer
    }

    /// `position.x` of `layer` at its local time `t`.
    static func x(_ layer: CALayer, _ t: Double) -> Double {
        Double(layer.presentationProperties(atLocalTime: t).position.x)
    }

    /// E41/E42's paths.
    static func diagonal() -> CGPath {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 100, y: 100))
        return path
    }

    static func arch() -> CGPath {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        return path
    }
}

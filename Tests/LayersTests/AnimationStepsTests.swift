import XCTest
import Foundation
import Geometry
import Timing
import Animation
@testable import Layers

/// The compiled per-frame steps (`AnimationSteps`: in-place vector slots, vector keyframes)
/// give exactly what the general `AnimationProgram`s give, bit for bit, at every time.
final class AnimationStepsTests: XCTestCase {
    /// Applies the layer's programs one by one (the general path).
    private func programResult(_ layer: CALayer, at t: Double) -> LayerProperties {
        var state = layer.properties
        withUnsafePointer(to: layer.properties) { model in
            for item in layer.attached {
                item.program.apply(parentTime: t, model: model, to: &state, removedOnCompletion: item.isRemovedOnCompletion)
            }
        }
        return state
    }

    private func assertStepsMatchPrograms(_ layer: CALayer, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(layer.animationSteps.isEmpty, label, file: file, line: line)
        var changed = 0
        for i in -10...70 {
            let t = Double(i) * 0.05 + 0.013
            let steps = layer.presentationProperties(atLocalTime: t)
            let programs = programResult(layer, at: t)
            XCTAssertEqual(steps, programs, "\(label) at t = \(t)", file: file, line: line)
            if steps != layer.properties { changed += 1 }
        }
        // The animation did something (a comparison of two unchanged copies would prove nothing).
        XCTAssertGreaterThan(changed, 10, label, file: file, line: line)
    }

    private func timed(_ a: CAAnimation, _ seed: Int) -> CAAnimation {
        a.duration = 0.9
        a.beginTime = Double(seed % 3) * 0.1
        a.repeatCount = seed % 2 == 0 ? 2.5 : 0
        a.autoreverses = seed % 4 == 1
        a.fillMode = [.removed, .backwards, .forwards, .both][seed % 4]
        if seed % 3 == 1 { a.timingFunction = CAMediaTimingFunction(controlPoints: 0.3, 0.1, 0.2, 1.4) }
        return a
    }

    private func baseLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        layer.position = CGPoint(x: 7, y: 9)
        layer.zPosition = 1.5
        layer.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        layer.opacity = 0.8
        layer.cornerRadius = 3
        layer.borderWidth = 2
        layer.shadowOpacity = 0.4
        layer.shadowRadius = 5
        layer.shadowOffset = CGSize(width: 1, height: 2)
        layer.backgroundColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.9)
        layer.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        layer.sublayerTransform = CATransform3DMakeScale(0.9, 1.1, 1)
        return layer
    }

    /// (key path, from, to, by) for every in-place slot and a few general ones.
    private let vectorCases: [(String, Any, Any, Any)] = [
        ("position", CGPoint(x: 0, y: 0), CGPoint(x: 200, y: 100), CGPoint(x: 5, y: -3)),
        ("position.x", 3.0, 90.0, 4.5), ("position.y", -2.0, 40.0, 1.25),
        ("anchorPoint", CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0.5), CGPoint(x: 0.1, y: 0.2)),
        ("zPosition", -4.0, 6.0, 0.5),
        ("bounds", CGRect(x: 0, y: 0, width: 10, height: 20), CGRect(x: 5, y: 5, width: 80, height: 60), CGRect(x: 1, y: 1, width: 2, height: 3)),
        ("bounds.size", CGSize(width: 3, height: 4), CGSize(width: 50, height: 70), CGSize(width: 1, height: 2)),
        ("bounds.size.width", 10.0, 80.0, 7.0), ("bounds.size.height", 12.0, 3.0, -2.0),
        ("opacity", 1.0, 0.2, -0.1), ("cornerRadius", 0.0, 12.0, 1.0), ("borderWidth", 1.0, 6.0, 0.5),
        ("shadowOpacity", 0.0, 1.0, 0.25), ("shadowRadius", 1.0, 9.0, 2.0),
        ("shadowOffset", CGSize(width: 0, height: 0), CGSize(width: 4, height: -6), CGSize(width: 1, height: 1)),
        ("backgroundColor", CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0.5, blue: 1, alpha: 0.5),
         CGColor(red: 0.1, green: 0.1, blue: 0, alpha: 0)),
        ("borderColor", CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0.2, green: 0.3, blue: 0.4, alpha: 1),
         CGColor(red: 0, green: 0, blue: 0.2, alpha: 0)),
        ("shadowColor", CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 0, alpha: 0.3),
         CGColor(red: 0.5, green: 0, blue: 0, alpha: 0)),
        // Numbers inside the transforms, written into a matrix that is not the identity too.
        ("transform.scale", 0.5, 1.5, 0.25), ("transform.rotation.z", 0.0, 2.0, 0.5),
        ("sublayerTransform.rotation.z", -0.5, 0.5, 0.1), ("transform.translation.x", 4.0, 30.0, 5.0),
        // General (no in-place slot): a field of the anchor point, a size inside a transform.
        ("anchorPoint.x", 0.0, 1.0, 0.25), ("transform.translation", CGSize(width: 1, height: 2), CGSize(width: 9, height: -4),
                                           CGSize(width: 1, height: 1)),
    ]

    func testBasicAndSpringStepsMatchTheirPrograms() {
        for (n, (keyPath, from, to, by)) in vectorCases.enumerated() {
            // Every from/to/by combination (the open ends read the model), additive and cumulative.
            let ends: [(Any?, Any?, Any?)] = [(from, to, nil), (from, nil, by), (nil, to, by), (from, nil, nil),
                                              (nil, to, nil), (nil, nil, by)]
            for (e, (f, t, b)) in ends.enumerated() {
                let layer = baseLayer()
                let basic = CABasicAnimation(keyPath: keyPath)
                basic.fromValue = f; basic.toValue = t; basic.byValue = b
                basic.isAdditive = e % 2 == 1
                basic.isCumulative = e % 3 == 0
                layer.add(timed(basic, n + e), forKey: "basic")
                let spring = CASpringAnimation(keyPath: keyPath)
                spring.fromValue = f; spring.toValue = t; spring.byValue = b
                spring.damping = 6
                layer.add(timed(spring, n + e + 1), forKey: "spring")
                assertStepsMatchPrograms(layer, "\(keyPath) ends \(e)")
            }
        }
    }

    func testANilColourUnderneathFallsBackAsTheProgramDoes() {
        let layer = baseLayer()
        layer.backgroundColor = nil
        let a = CABasicAnimation(keyPath: "backgroundColor")
        a.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.add(timed(a, 3), forKey: "colour")
        let b = CABasicAnimation(keyPath: "position.x")
        b.byValue = 10.0
        layer.add(timed(b, 1), forKey: "x")
        assertStepsMatchPrograms(layer, "nil colour")
    }

    func testVectorKeyframeStepsMatchTheirPrograms() {
        let tracks: [(String, [Any])] = [
            ("opacity", [1.0, 0.3, 0.8, 0.1]),
            ("position", [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 80), CGPoint(x: 120, y: 20), CGPoint(x: 200, y: 90)]),
            ("bounds", [CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 3, y: 4, width: 60, height: 20),
                        CGRect(x: 1, y: 9, width: 30, height: 80)]),
            ("bounds.size.width", [10.0, 40.0, 25.0, 60.0, 5.0]),
            ("backgroundColor", [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 0.5),
                                 CGColor(red: 0, green: 0, blue: 1, alpha: 1)]),
            ("anchorPoint.y", [0.0, 1.0, 0.5]),  // general slot
            ("zPosition", [4.0]),                // a single keyframe
        ]
        let modes: [CAAnimationCalculationMode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
        for (n, (keyPath, values)) in tracks.enumerated() {
            for (m, mode) in modes.enumerated() {
                let layer = baseLayer()
                let a = CAKeyframeAnimation(keyPath: keyPath)
                a.values = values
                a.calculationMode = mode
                if m % 2 == 0, values.count > 2 {
                    let count = mode == .discrete ? values.count + 1 : values.count
                    a.keyTimes = (0..<count).map { NSNumber(value: pow(Double($0) / Double(count - 1), 1.3)) }
                }
                if mode == .linear { a.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)] }
                if mode == .cubic { a.tensionValues = [0.2, -0.3]; a.biasValues = [0.5] }
                a.isAdditive = (n + m) % 2 == 1
                a.isCumulative = (n + m) % 3 == 0
                layer.add(timed(a, n + m), forKey: "k")
                XCTAssertNotNil(layer.attached.first.flatMap { item -> VectorKeyframes? in
                    if case .property(_, let p) = item.program { return p.vectorKeyframes } else { return nil }
                }, "\(keyPath) \(mode.rawValue) compiles to vector keyframes")
                assertStepsMatchPrograms(layer, "\(keyPath) \(mode.rawValue)")
            }
        }
    }

    func testPathKeyframeStepsMatchTheirPrograms() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addCurve(to: CGPoint(x: 120, y: 40), control1: CGPoint(x: 40, y: -60), control2: CGPoint(x: 80, y: 100))
        path.addLine(to: CGPoint(x: 160, y: 0))
        path.move(to: CGPoint(x: 10, y: 90))  // a second subpath: the jump adds no time
        path.addQuadCurve(to: CGPoint(x: 0, y: 0), control: CGPoint(x: 80, y: -80))
        for (m, mode) in [CAAnimationCalculationMode.linear, .paced, .cubic, .cubicPaced].enumerated() {
            for keyPath in ["position", "anchorPoint"] {
                let layer = baseLayer()
                let a = CAKeyframeAnimation(keyPath: keyPath)
                a.path = path
                a.calculationMode = mode
                a.isAdditive = m % 2 == 0
                a.isCumulative = m % 3 == 0
                layer.add(timed(a, m), forKey: "p")
                assertStepsMatchPrograms(layer, "path \(keyPath) \(mode.rawValue)")
            }
        }
    }
}

import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation

// Values measured on Apple's QuartzCore, each test naming its source. "OCA" is the public clone
// 1amageek/OpenCoreAnimation, whose tests state values cross-checked against QuartzCore on
// macOS (file and test named). See docs/semantics-addenda.md for the rules.
//
// Tolerance: exact for stored values; 1e-9 for arithmetic; 0.02 s for OCA's settling durations.

final class AppleMeasuredSemanticsTests: XCTestCase {
    // MARK: - defaultValue(forKey:) (OCA CALayerDefaultValueTests, CAAnimationDefaultValueTests)

    func testLayerDefaultValuesAnswerNonZeroAndBooleanDefaults() {
        XCTAssertEqual(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(CALayer.defaultValue(forKey: "contentsRect") as? CGRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(CALayer.defaultValue(forKey: "contentsCenter") as? CGRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(CALayer.defaultValue(forKey: "contentsGravity") as? CALayerContentsGravity, .resize)
        XCTAssertEqual(CALayer.defaultValue(forKey: "contentsScale") as? CGFloat, 1)
        XCTAssertEqual(CALayer.defaultValue(forKey: "minificationFilter") as? CALayerContentsFilter, .linear)
        XCTAssertEqual(CALayer.defaultValue(forKey: "magnificationFilter") as? CALayerContentsFilter, .linear)
        XCTAssertEqual((CALayer.defaultValue(forKey: "maskedCorners") as? CACornerMask)?.rawValue, 15)
        XCTAssertEqual(CALayer.defaultValue(forKey: "cornerCurve") as? CALayerCornerCurve, .circular)
        XCTAssertEqual(CALayer.defaultValue(forKey: "opacity") as? Float, 1)
        XCTAssertEqual(CALayer.defaultValue(forKey: "hidden") as? Bool, false)
        XCTAssertEqual(CALayer.defaultValue(forKey: "doubleSided") as? Bool, true)
        for key in ["masksToBounds", "geometryFlipped", "opaque", "shouldRasterize", "drawsAsynchronously", "needsDisplayOnBoundsChange"] {
            XCTAssertEqual(CALayer.defaultValue(forKey: key) as? Bool, false, key)
        }
        XCTAssertEqual(CALayer.defaultValue(forKey: "allowsGroupOpacity") as? Bool, true)
        XCTAssertEqual(CALayer.defaultValue(forKey: "rasterizationScale") as? CGFloat, 1)
        XCTAssertEqual(CALayer.defaultValue(forKey: "shadowOffset") as? CGSize, CGSize(width: 0, height: -3))
        XCTAssertEqual(CALayer.defaultValue(forKey: "shadowRadius") as? CGFloat, 3)
        XCTAssertEqual(CALayer.defaultValue(forKey: "duration") as? CFTimeInterval, .infinity)
        XCTAssertEqual(CALayer.defaultValue(forKey: "speed") as? Float, 1)
        XCTAssertEqual(CALayer.defaultValue(forKey: "fillMode") as? CAMediaTimingFillMode, .removed)
        XCTAssertEqual(CALayer.defaultValue(forKey: "borderColor") as? CGColor, CGColor(gray: 0, alpha: 1))
        XCTAssertEqual(CALayer.defaultValue(forKey: "shadowColor") as? CGColor, CGColor(gray: 0, alpha: 1))
    }

    func testLayerDefaultValuesAreNilForZeroDefaultsSwiftNamesAndUnknownKeys() {
        for key in ["bounds", "position", "shadowOpacity", "timeOffset", "isHidden", "unknownProperty", "zPosition", "cornerRadius"] {
            XCTAssertNil(CALayer.defaultValue(forKey: key), key)
        }
    }

    func testContentLayerClassesAnswerForTheirOwnKeys() {
        XCTAssertEqual(CAShapeLayer.defaultValue(forKey: "fillColor") as? CGColor, CGColor(gray: 0, alpha: 1))
        XCTAssertEqual(CAShapeLayer.defaultValue(forKey: "fillRule") as? CAShapeLayerFillRule, .nonZero)
        XCTAssertEqual(CAShapeLayer.defaultValue(forKey: "strokeEnd") as? CGFloat, 1)
        XCTAssertEqual(CAShapeLayer.defaultValue(forKey: "lineWidth") as? CGFloat, 1)
        XCTAssertEqual(CAShapeLayer.defaultValue(forKey: "miterLimit") as? CGFloat, 10)
        XCTAssertEqual(CAShapeLayer.defaultValue(forKey: "lineCap") as? CAShapeLayerLineCap, .butt)
        XCTAssertEqual(CAShapeLayer.defaultValue(forKey: "lineJoin") as? CAShapeLayerLineJoin, .miter)
        XCTAssertNil(CAShapeLayer.defaultValue(forKey: "strokeStart"))

        XCTAssertEqual(CAGradientLayer.defaultValue(forKey: "startPoint") as? CGPoint, CGPoint(x: 0.5, y: 0))
        XCTAssertEqual(CAGradientLayer.defaultValue(forKey: "endPoint") as? CGPoint, CGPoint(x: 0.5, y: 1))
        XCTAssertEqual(CAGradientLayer.defaultValue(forKey: "type") as? CAGradientLayerType, .axial)
        XCTAssertEqual(CAGradientLayer.defaultValue(forKey: "opacity") as? Float, 1, "inherited")

        XCTAssertEqual(CAReplicatorLayer.defaultValue(forKey: "instanceCount") as? Int, 1)
        XCTAssertEqual(CAReplicatorLayer.defaultValue(forKey: "instanceColor") as? CGColor, CGColor(gray: 1, alpha: 1))
        XCTAssertNil(CAReplicatorLayer.defaultValue(forKey: "instanceDelay"))

        for key in ["birthRate", "lifetime", "velocity", "scale", "spin"] {
            XCTAssertEqual(CAEmitterLayer.defaultValue(forKey: key) as? Float, 1, key)
        }
        XCTAssertEqual(CAEmitterLayer.defaultValue(forKey: "emitterShape") as? CAEmitterLayerEmitterShape, .point)
        XCTAssertEqual(CAEmitterLayer.defaultValue(forKey: "emitterMode") as? CAEmitterLayerEmitterMode, .volume)
        XCTAssertEqual(CAEmitterLayer.defaultValue(forKey: "renderMode") as? CAEmitterLayerRenderMode, .unordered)

        XCTAssertEqual(CATextLayer.defaultValue(forKey: "font") as? String, "Helvetica")
        XCTAssertEqual(CATextLayer.defaultValue(forKey: "fontSize") as? CGFloat, 36)
        XCTAssertEqual(CATextLayer.defaultValue(forKey: "foregroundColor") as? CGColor, CGColor(gray: 1, alpha: 1))
        XCTAssertEqual(CATextLayer.defaultValue(forKey: "truncationMode") as? CATextLayerTruncationMode, CATextLayerTruncationMode.none)
        XCTAssertEqual(CATextLayer.defaultValue(forKey: "alignmentMode") as? CATextLayerAlignmentMode, .natural)
        XCTAssertEqual(CATextLayer().font as? String, "Helvetica")
    }

    func testAnimationDefaultValues() {
        XCTAssertEqual(CAAnimation.defaultValue(forKey: "speed") as? Float, 1)
        XCTAssertEqual(CAAnimation.defaultValue(forKey: "fillMode") as? CAMediaTimingFillMode, .removed)
        XCTAssertEqual(CAAnimation.defaultValue(forKey: "removedOnCompletion") as? Bool, true)
        for key in ["duration", "beginTime", "autoreverses", "isRemovedOnCompletion", "unknownProperty"] {
            XCTAssertNil(CAAnimation.defaultValue(forKey: key), key)
        }
        XCTAssertEqual(CAKeyframeAnimation.defaultValue(forKey: "calculationMode") as? CAAnimationCalculationMode, .linear)
        XCTAssertEqual(CASpringAnimation.defaultValue(forKey: "mass") as? CGFloat, 1)
        XCTAssertEqual(CASpringAnimation.defaultValue(forKey: "stiffness") as? CGFloat, 100)
        XCTAssertEqual(CASpringAnimation.defaultValue(forKey: "damping") as? CGFloat, 10)
        XCTAssertEqual(CASpringAnimation.defaultValue(forKey: "allowsOverdamping") as? Bool, false)
        XCTAssertNil(CASpringAnimation.defaultValue(forKey: "initialVelocity"))
        XCTAssertEqual(CATransition.defaultValue(forKey: "type") as? CATransitionType, .fade)
        XCTAssertEqual(CATransition.defaultValue(forKey: "endProgress") as? Float, 1)
        XCTAssertNil(CATransition.defaultValue(forKey: "startProgress"))
        XCTAssertEqual(CATransition.defaultValue(forKey: "speed") as? Float, 1)
    }

    // MARK: - needsDisplay(forKey:) (OCA CALayerDisplayInvalidationKeyTests)

    func testNeedsDisplayForKeyOfBuiltInClasses() {
        let quiet: [(CALayer.Type, [String])] = [
            (CALayer.self, ["bounds", "position", "opacity", "backgroundColor", "contents", "style", "contentsScale", "futureKey"]),
            (CAShapeLayer.self, ["path", "fillColor", "lineWidth"]),
            (CAGradientLayer.self, ["colors", "locations", "startPoint"]),
            (CAReplicatorLayer.self, ["instanceCount", "instanceTransform"]),
            (CAEmitterLayer.self, ["birthRate", "emitterPosition"]),
        ]
        for (type, keys) in quiet {
            for key in keys { XCTAssertFalse(type.needsDisplay(forKey: key), "\(type).\(key)") }
        }
        for key in ["string", "font", "fontSize", "foregroundColor", "wrapped", "truncationMode", "alignmentMode",
                    "allowsFontSubpixelQuantization", "style", "contentsScale"] {
            XCTAssertTrue(CATextLayer.needsDisplay(forKey: key), key)
        }
        for key in ["bounds", "position", "opacity", "backgroundColor", "contents", "contentsRect", "contentsGravity", "futureKey"] {
            XCTAssertFalse(CATextLayer.needsDisplay(forKey: key), key)
        }
    }

    func testTextPropertyChangesRequestDisplayOncePerChange() {
        let changes: [(CATextLayer) -> Void] = [
            { $0.string = "text" }, { $0.font = "Other" as CFString }, { $0.fontSize = 12 },
            { $0.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }, { $0.isWrapped = true },
            { $0.truncationMode = .end }, { $0.alignmentMode = .center }, { $0.allowsFontSubpixelQuantization = true },
            { $0.contentsScale = 2 }, { $0.style = ["value": 1] },
        ]
        for (i, change) in changes.enumerated() {
            let layer = CATextLayer()
            XCTAssertFalse(layer.needsDisplay(), "change \(i)")
            change(layer)
            XCTAssertTrue(layer.needsDisplay(), "change \(i)")
            layer.displayIfNeeded()
            XCTAssertFalse(layer.needsDisplay(), "change \(i)")
            change(layer)
            let again = i == 9  // a dictionary is a new value each time, as on Apple
            XCTAssertEqual(layer.needsDisplay(), again, "the same value again, change \(i)")
        }
        let source = CATextLayer()
        source.string = "text"
        source.displayIfNeeded()
        let copy = CATextLayer(layer: source)
        XCTAssertFalse(copy.needsDisplay(), "a copy keeps the clean display state")
        XCTAssertEqual(copy.string as? String, "text")
    }

    // MARK: - Display (OCA CALayerBoundsBehaviorTests)

    func testBoundsChangesMarkForDisplayOnlyWithNeedsDisplayOnBoundsChange() {
        let marked = CALayer()
        marked.needsDisplayOnBoundsChange = true
        XCTAssertFalse(marked.needsDisplay())
        marked.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        XCTAssertTrue(marked.needsDisplay())
        let unmarked = CALayer()
        unmarked.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        XCTAssertFalse(unmarked.needsDisplay())
    }

    final class ReinvalidatingDelegate: CALayerDelegate {
        func display(_ layer: CALayer) { layer.setNeedsDisplay(CGRect(x: 3, y: 4, width: 5, height: 6)) }
    }

    func testADisplayThatMarksTheLayerAgainKeepsTheNewMark() {
        let layer = CALayer()
        let delegate = ReinvalidatingDelegate()
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        XCTAssertTrue(layer.needsDisplay())
        withExtendedLifetime(delegate) {}
    }

    // MARK: - convertTime (OCA CALayerTimeConversionTests)

    func testConvertTimeBetweenSuperlayerAndSublayer() {
        let root = CALayer(), child = CALayer()
        root.speed = 2; root.timeOffset = 3
        child.speed = 4; child.timeOffset = 5
        root.addSublayer(child)
        XCTAssertEqual(child.convertTime(10, from: root), 45)
        XCTAssertEqual(root.convertTime(10, from: child), 1.25)
    }

    func testConvertTimeToAndFromAbsoluteTimeAndAcrossSiblings() {
        let root = CALayer(), first = CALayer(), second = CALayer()
        root.speed = 2; root.timeOffset = 3; root.beginTime = 1
        first.speed = 4; first.timeOffset = 5; first.beginTime = 6
        second.speed = 0.5; second.timeOffset = 7; second.beginTime = 8
        root.addSublayer(first); root.addSublayer(second)
        XCTAssertEqual(root.convertTime(10, from: nil), 21)
        XCTAssertEqual(root.convertTime(10, to: nil), 4.5)
        XCTAssertEqual(first.convertTime(10, from: nil), 65)
        XCTAssertEqual(first.convertTime(10, to: nil), 3.125)
        XCTAssertEqual(first.convertTime(10, from: root), 21)
        XCTAssertEqual(root.convertTime(10, from: first), 7.25)
        XCTAssertEqual(second.convertTime(10, from: first), 0, "before the sibling's beginTime")
        XCTAssertEqual(first.convertTime(10, from: second), 37)
    }

    func testConvertTimeBeforeBeginTimeAndFromAPausedLayer() {
        let root = CALayer(), child = CALayer()
        child.speed = 0.5; child.timeOffset = 7; child.beginTime = 8
        root.addSublayer(child)
        XCTAssertEqual(child.convertTime(7, from: root), 0)
        XCTAssertEqual(child.convertTime(8, from: root), 7)
        XCTAssertEqual(child.convertTime(10, from: root), 8)

        let pausedRoot = CALayer(), paused = CALayer()
        pausedRoot.speed = 2; pausedRoot.timeOffset = 3; pausedRoot.beginTime = 1
        paused.speed = 0; paused.timeOffset = 7; paused.beginTime = 8
        pausedRoot.addSublayer(paused)
        XCTAssertEqual(paused.convertTime(10, from: pausedRoot), 7)
        XCTAssertEqual(pausedRoot.convertTime(10, from: paused), 0)
        XCTAssertEqual(paused.convertTime(10, to: nil), -0.5)
    }

    // MARK: - CASpringAnimation (OCA CASpringAnimationPerceptualTests; clamping per issue 12)

    func testSpringParametersClampToTheDefaults() {
        let spring = CASpringAnimation()
        spring.mass = -1; spring.stiffness = 0; spring.damping = -1
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 100)
        XCTAssertEqual(spring.damping, 10)
        spring.mass = .nan; spring.stiffness = .infinity; spring.damping = .nan
        XCTAssertEqual([spring.mass, spring.stiffness, spring.damping], [1, 100, 10])
        spring.damping = 0
        XCTAssertEqual(spring.damping, 0, "zero damping is valid")
        spring.mass = 2; spring.stiffness = 50
        XCTAssertEqual([spring.mass, spring.stiffness], [2, 50])
    }

    func testPerceptualSpringAllowsOverdampingAndLastsItsSettlingDuration() {
        let plain = CASpringAnimation()
        XCTAssertFalse(plain.allowsOverdamping)
        XCTAssertEqual(Double(plain.perceptualDuration), 2 * .pi / 10, accuracy: 1e-12)
        XCTAssertEqual(Double(plain.bounce), 0.5, accuracy: 1e-12)

        let bouncy = CASpringAnimation(perceptualDuration: 1, bounce: 0.5)
        XCTAssertTrue(bouncy.allowsOverdamping)
        XCTAssertEqual(Double(bouncy.mass), 1, accuracy: 1e-12)
        XCTAssertEqual(Double(bouncy.stiffness), 4 * .pi * .pi, accuracy: 1e-9)
        XCTAssertEqual(Double(bouncy.damping), 2 * .pi, accuracy: 1e-9)
        XCTAssertEqual(bouncy.duration, bouncy.settlingDuration, accuracy: 1e-12)
        XCTAssertEqual(bouncy.settlingDuration, 2.3438753795710707, accuracy: 0.02)

        let overdamped = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
        XCTAssertEqual(Double(overdamped.damping), 8 * .pi, accuracy: 1e-9)
        XCTAssertEqual(Double(overdamped.bounce), -0.5, accuracy: 1e-12)

        let rigid = CASpringAnimation(perceptualDuration: 1, bounce: -1)
        XCTAssertEqual(rigid.damping, .infinity)
        XCTAssertEqual(rigid.settlingDuration, 0)
        XCTAssertEqual(rigid.duration, 0)
        XCTAssertEqual(rigid.motion.progress(at: 0), 0)
        XCTAssertEqual(rigid.motion.progress(at: 0.1), 1)

        let invalid = CASpringAnimation(perceptualDuration: 0, bounce: 0.2)
        XCTAssertEqual([invalid.mass, invalid.stiffness, invalid.damping], [1, 100, 10], "invalid input keeps the defaults")
        XCTAssertFalse(invalid.allowsOverdamping)

        let clamped = CASpringAnimation()
        clamped.damping = 40
        XCTAssertEqual(Double(clamped.bounce), -0.5, accuracy: 1e-12)
        XCTAssertEqual(clamped.settlingDuration, 1, accuracy: 1e-12)
    }

    // MARK: - Hit testing (OCA CALayerHitTestingTests)

    func testTransformLayersRejectTwoDimensionalHitTests() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 300, height: 300)
        root.anchorPoint = .zero
        let transformLayer = CATransformLayer()
        transformLayer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        transformLayer.position = CGPoint(x: 150, y: 150)
        root.addSublayer(transformLayer)
        let child = CALayer()
        child.frame = transformLayer.bounds
        transformLayer.addSublayer(child)
        XCTAssertNil(transformLayer.hitTest(CGPoint(x: 150, y: 150)))
        XCTAssertNil(transformLayer.hitTest(CGPoint(x: 250, y: 250)))
        XCTAssertTrue(root.hitTest(CGPoint(x: 150, y: 150)) === root, "the hit falls through to the layer below")
    }

    // MARK: - Boolean, discrete and single-value animations (OCA CABooleanAndDiscreteAnimationTests)

    /// The presentation value at local time `t` of a layer with `animation` (1 s, fill both).
    func presented(_ layer: CALayer, _ animation: CAAnimation, at t: Double) -> LayerProperties {
        animation.duration = 1
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        animation.beginTime = 1e-100
        layer.add(animation, forKey: nil)
        return layer.presentationProperties(atLocalTime: t)
    }

    func testBooleanKeysAnimateDiscretelyUnderBothSpellings() {
        for keyPath in ["hidden", "masksToBounds", "doubleSided", "shouldRasterize", "isHidden", "isDoubleSided"] {
            let layer = CALayer()
            layer.isDoubleSided = false
            let animation = CABasicAnimation(keyPath: keyPath)
            animation.fromValue = false
            animation.toValue = true
            let early = presented(layer, animation, at: 0.49), late = layer.presentationProperties(atLocalTime: 0.5)
            let key = LayerKeyPath(keyPath)!.key
            XCTAssertEqual(early.value(for: key), .bool(false), "\(keyPath) before half-way")
            XCTAssertEqual(late.value(for: key), .bool(true), "\(keyPath) from half-way")
        }
    }

    func testDiscreteKeyframesPickTheLatestValueAndSingleValuesApply() {
        let discrete = CAKeyframeAnimation(keyPath: "hidden")
        discrete.values = [false, true, false]
        discrete.keyTimes = [0, 0.25, 0.75]
        discrete.calculationMode = .discrete
        let layer = CALayer()
        XCTAssertTrue(presented(layer, discrete, at: 0.5).isHidden)
        XCTAssertFalse(layer.presentationProperties(atLocalTime: 0.9).isHidden)

        let single = CAKeyframeAnimation(keyPath: "hidden")
        single.values = [true]
        XCTAssertTrue(presented(CALayer(), single, at: 0.5).isHidden)

        let positionLayer = CALayer()
        positionLayer.position = CGPoint(x: 2, y: 7)
        let x = CAKeyframeAnimation(keyPath: "position.x")
        x.values = [CGFloat(0), CGFloat(20)]
        XCTAssertEqual(presented(positionLayer, x, at: 0.5).position, CGPoint(x: 10, y: 7))
    }

    // MARK: - shouldRasterize, rasterizationScale (OCA CARasterizationScaleAnimationTests, CABooleanAndDiscreteAnimationTests)

    func testRasterizationPropertiesAnimateAndRunCustomActions() {
        let basic = CABasicAnimation(keyPath: "rasterizationScale")
        basic.fromValue = CGFloat(1); basic.toValue = CGFloat(2)
        XCTAssertEqual(presented(CALayer(), basic, at: 0.5).rasterizationScale, 1.5, accuracy: 1e-9)
        let keyframes = CAKeyframeAnimation(keyPath: "rasterizationScale")
        keyframes.values = [CGFloat(1), CGFloat(3)]
        XCTAssertEqual(presented(CALayer(), keyframes, at: 0.5).rasterizationScale, 2, accuracy: 1e-9)

        let previousClock = CATransaction.mediaClock
        CATransaction.mediaClock = ManualMediaClock(time: 0)
        defer { CATransaction.mediaClock = previousClock }  // a host clock left behind would move later suites' beginTime 0
        for (key, change) in [("shouldRasterize", { (l: CALayer) in l.shouldRasterize = true }),
                              ("rasterizationScale", { (l: CALayer) in l.rasterizationScale = 2 })] {
            let layer = CALayer()
            let timeline = LayerTimeline(root: layer, time: 0)
            layer.actions = [key: CABasicAnimation()]
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.4)
            change(layer)
            CATransaction.commit()
            let animation = layer.animation(forKey: key) as? CABasicAnimation
            XCTAssertEqual(animation?.keyPath, key, "the action's key path is the key")
            XCTAssertEqual(animation?.duration, 0.4)
            if key == "shouldRasterize" {
                XCTAssertEqual(animation?.fromValue as? Bool, false)
                XCTAssertEqual(animation?.toValue as? Bool, true)
            } else {
                XCTAssertEqual(animation?.fromValue as? CGFloat, 1)
                XCTAssertEqual(animation?.toValue as? CGFloat, 2)
            }
            withExtendedLifetime(timeline) {}
        }
    }

    // MARK: - contents (OCA CAContentsAnimationTests)

    func testContentsPresentationSelectsTheNearerEndpoint() {
        let a = CGImage(width: 1, height: 1, source: "a"), b = CGImage(width: 1, height: 1, source: "b")
        let c = CGImage(width: 1, height: 1, source: "c")
        func presentedContents(_ animation: CAAnimation, at t: Double) -> CGImage? {
            let layer = CALayer()
            layer.contents = c
            let previousClock = CATransaction.mediaClock
            CATransaction.mediaClock = ManualMediaClock(time: 0)
            defer { CATransaction.mediaClock = previousClock }  // a host clock left behind would move later suites' beginTime 0
            let timeline = LayerTimeline(root: layer, time: 0)
            _ = presented(layer, animation, at: 0)
            (CATransaction.mediaClock as? ManualMediaClock)?.currentTime = t
            defer { withExtendedLifetime(timeline) {} }
            return layer.presentation()?.contents as? CGImage
        }
        let basic = CABasicAnimation(keyPath: "contents")
        basic.fromValue = a; basic.toValue = b
        XCTAssertTrue(presentedContents(basic, at: 0.49) === a)
        XCTAssertTrue(presentedContents(basic.copy() as! CAAnimation, at: 0.5) === b)
        for (mode, t, expected) in [(CAAnimationCalculationMode.linear, 0.25, b), (.cubic, 0.75, c), (.discrete, 0.75, b)] {
            let keyframes = CAKeyframeAnimation(keyPath: "contents")
            keyframes.values = [a, b, c]
            keyframes.keyTimes = [0, 0.5, 1]
            keyframes.calculationMode = mode
            XCTAssertTrue(presentedContents(keyframes, at: t) === expected, "\(mode.rawValue) at \(t)")
        }
    }

    // MARK: - Keyframe paths and cubicPaced (spec §4.3, §4.4; apple-test via OCA)

    func testAMoveToInAPathAddsNoTimeAndTheBoundaryShowsTheNextSubpath() {
        let path = CGMutablePath()
        path.move(to: .zero); path.addLine(to: CGPoint(x: 10, y: 0))
        path.move(to: CGPoint(x: 100, y: 100)); path.addLine(to: CGPoint(x: 100, y: 110))
        for mode in [CAAnimationCalculationMode.linear, .paced] {
            let animation = CAKeyframeAnimation(keyPath: "position")
            animation.path = path
            animation.calculationMode = mode
            let layer = CALayer()
            XCTAssertEqual(presented(layer, animation, at: 0.5).position, CGPoint(x: 100, y: 100), mode.rawValue)
            XCTAssertEqual(layer.presentationProperties(atLocalTime: 0.25).position, CGPoint(x: 5, y: 0), mode.rawValue)
        }
        let corner = CGMutablePath()
        corner.move(to: .zero); corner.addLine(to: CGPoint(x: 10, y: 0)); corner.addLine(to: CGPoint(x: 10, y: 90))
        let discrete = CAKeyframeAnimation(keyPath: "position")
        discrete.path = corner
        discrete.calculationMode = .discrete
        XCTAssertEqual(presented(CALayer(), discrete, at: 0.75).position, CGPoint(x: 10, y: 0))
    }

    /// Values 0, 10, 30, 0: paced key times 0, 1/6, 1/2, 1; Catmull–Rom tangents 10, 15, −5, −30
    /// (ends extrapolated), scaled at inner keys by 2·span/(neighbouring span): 6.0 at u 0.1
    /// (5.28 unscaled), 20.304 at 0.3, 30 at 0.5, 14.304 at 0.8 — worked by hand from §4.3.
    func testCubicPacedUsesPacedKeyTimesAndScaledTangents() {
        let animation = CAKeyframeAnimation(keyPath: "zPosition")
        animation.values = [CGFloat(0), CGFloat(10), CGFloat(30), CGFloat(0)]
        animation.calculationMode = .cubicPaced
        let layer = CALayer()
        _ = presented(layer, animation, at: 0)
        for (u, expected) in [(0.1, 6.0), (0.3, 20.304), (0.5, 30), (0.8, 14.304)] {
            XCTAssertEqual(Double(layer.presentationProperties(atLocalTime: u).zPosition), expected, accuracy: 1e-9, "u \(u)")
        }
    }

    func testCubicModeAppliesToColoursRectsAndCompatiblePaths() {
        let numbers: [CGFloat] = [0, 10, 10, 30]
        func cubic(_ values: [Any], key: String, at u: Double) -> LayerProperties {
            let animation = CAKeyframeAnimation(keyPath: key)
            animation.values = values
            animation.calculationMode = .cubic
            return presented(CAShapeLayer(), animation, at: u)
        }
        let u = 0.4
        let reference = Double(cubic(numbers, key: "zPosition", at: u).zPosition)
        XCTAssertNotEqual(reference, 14, accuracy: 0.1, "cubic differs from linear here")
        let colours = numbers.map { CGColor(red: $0 / 30, green: 0, blue: 1 - $0 / 30, alpha: 1) }
        let colour = cubic(colours, key: "backgroundColor", at: u).backgroundColor!
        XCTAssertEqual(Double(colour.red), reference / 30, accuracy: 1e-9)
        XCTAssertEqual(Double(colour.blue), 1 - reference / 30, accuracy: 1e-9)
        let rects = numbers.map { CGRect(x: $0, y: 0, width: 2 * $0, height: 1) }
        let rect = cubic(rects, key: "bounds", at: u).bounds
        XCTAssertEqual(Double(rect.origin.x), reference, accuracy: 1e-9)
        XCTAssertEqual(Double(rect.size.width), 2 * reference, accuracy: 1e-9, "negative widths on the way (tangents) stay signed")
        let paths = numbers.map { n -> CGPath in
            let p = CGMutablePath(); p.move(to: CGPoint(x: n, y: 0)); p.addLine(to: CGPoint(x: 0, y: n)); return p
        }
        guard case .shape(let shape) = cubic(paths, key: "path", at: u).content,
              case .move(let start) = shape.path?.elements.first else { return XCTFail("no path") }
        XCTAssertEqual(Double(start.x), reference, accuracy: 1e-9)
    }

    // MARK: - Robustness (OCA CAMediaTimingFunctionFailureTests, CAKeyframeTimingConfigurationTests)

    func testNonFiniteValuesLeaveThePresentationUnchanged() {
        let cases: [(String, Any, Any)] = [("zPosition", CGFloat.nan, CGFloat(1)), ("zPosition", CGFloat(0), CGFloat.infinity),
                                            ("zPosition", -Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude),
                                            ("position", CGPoint(x: 0, y: 0), CGPoint(x: CGFloat.nan, y: 0))]
        for (key, from, to) in cases {
            let layer = CALayer()
            layer.zPosition = 7
            layer.position = CGPoint(x: 3, y: 4)
            let animation = CABasicAnimation(keyPath: key)
            animation.fromValue = from; animation.toValue = to
            let p = presented(layer, animation, at: 0.5)
            XCTAssertEqual(p.zPosition, 7, "\(key) \(from) → \(to)")
            XCTAssertEqual(p.position, CGPoint(x: 3, y: 4))
        }
        let invalidPath = CGMutablePath()
        invalidPath.move(to: .zero)
        invalidPath.addLine(to: CGPoint(x: CGFloat.nan, y: 0))
        let along = CAKeyframeAnimation(keyPath: "position")
        along.path = invalidPath
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        XCTAssertEqual(presented(layer, along, at: 0.5).position, CGPoint(x: 3, y: 4))
    }

    func testUnknownModesAndTimingFunctionsChangeNothing() {
        let unknown = CAAnimationCalculationMode(rawValue: "unknown")
        let values = CAKeyframeAnimation(keyPath: "zPosition")
        values.values = [CGFloat(0), CGFloat(100)]
        values.calculationMode = unknown
        let layer = CALayer()
        layer.zPosition = 7
        XCTAssertEqual(presented(layer, values, at: 0.5).zPosition, 7)
        let line = CGMutablePath()
        line.move(to: .zero); line.addLine(to: CGPoint(x: 100, y: 0))
        let along = CAKeyframeAnimation(keyPath: "position")
        along.path = line
        along.calculationMode = unknown
        let mover = CALayer()
        mover.position = CGPoint(x: 3, y: 4)
        XCTAssertEqual(presented(mover, along, at: 0.5).position, CGPoint(x: 3, y: 4))

        let invalid = CAMediaTimingFunction(controlPoints: 0.25, .nan, 0.75, 1)
        let named = CAMediaTimingFunction(name: CAMediaTimingFunctionName(rawValue: "future"))
        XCTAssertFalse(named.isValid, "an unknown name is not linear")
        for function in [invalid, named] {
            let basic = CABasicAnimation(keyPath: "zPosition")
            basic.fromValue = CGFloat(0); basic.toValue = CGFloat(100)
            basic.timingFunction = function
            XCTAssertEqual(presented(layer, basic, at: 0.5).zPosition, 7)
            let segments = CAKeyframeAnimation(keyPath: "zPosition")
            segments.values = [CGFloat(0), CGFloat(100)]
            segments.timingFunctions = [function]
            XCTAssertEqual(presented(layer, segments, at: 0.5).zPosition, 7)
            let child = CABasicAnimation(keyPath: "zPosition")
            child.fromValue = CGFloat(0); child.toValue = CGFloat(100); child.duration = 1
            let group = CAAnimationGroup()
            group.animations = [child]
            group.timingFunction = function
            XCTAssertEqual(presented(layer, group, at: 0.5).zPosition, 7)
            let transition = CATransition()
            transition.timingFunction = function
            XCTAssertNil(presented(CALayer(), transition, at: 0.5).transition)
        }
    }

    // MARK: - Key-value coding of custom keys

    func testCustomKeysReadBackAsAnyNumberTypeAndCopyWithTheLayer() {
        let layer = CALayer()
        layer.setValue(CGFloat(0.25), forKey: "progress")
        XCTAssertEqual(layer.value(forKey: "progress") as? CGFloat, 0.25)
        XCTAssertEqual(layer.value(forKey: "progress") as? Double, 0.25)
        XCTAssertEqual(layer.value(forKey: "progress") as? Float, 0.25)
        XCTAssertEqual((layer.value(forKey: "progress") as? NSNumber)?.doubleValue, 0.25)
        layer.setValue("label", forKey: "title")
        layer.setValue(true, forKey: "flag")
        let copy = CALayer(layer: layer)
        XCTAssertEqual(copy.value(forKey: "progress") as? CGFloat, 0.25)
        XCTAssertEqual(copy.value(forKey: "title") as? String, "label")
        XCTAssertEqual(copy.value(forKey: "flag") as? Bool, true)
        XCTAssertEqual(layer.value(forKey: "opacity") as? Float, 1, "built-in numbers read as Float too")

        let animation = CABasicAnimation(keyPath: "progress")
        animation.fromValue = 0; animation.toValue = 1
        XCTAssertEqual(presented(layer, animation, at: 0.75).customValues["progress"], .number(0.75))
        XCTAssertEqual(layer.value(forKey: "progress") as? CGFloat, 0.25, "the model is unchanged")
    }

    final class Ring: CALayer {
        var width: CGFloat = 1
        override init() { super.init() }
        override init(layer: Any) {
            super.init(layer: layer)
            if let ring = layer as? Ring { width = ring.width }
        }
        required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
        override class func needsDisplay(forKey key: String) -> Bool { key == "angle" || super.needsDisplay(forKey: key) }
    }

    func testSubclassesOverrideInitializersAndKeepTheirTypeInCopies() {
        let previousClock = CATransaction.mediaClock
        CATransaction.mediaClock = ManualMediaClock(time: 0)
        defer { CATransaction.mediaClock = previousClock }  // a host clock left behind would move later suites' beginTime 0
        let ring = Ring.layer()
        ring.width = 5
        let timeline = LayerTimeline(root: ring, time: 0)
        XCTAssertEqual(ring.presentation()?.width, 5, "presentation copies are made with init(layer:)")
        XCTAssertFalse(ring.needsDisplay())
        ring.setValue(1.0, forKey: "angle")
        XCTAssertTrue(ring.needsDisplay(), "a custom display key marks the layer")
        timeline.advance(to: 0.1)
        XCTAssertFalse(ring.needsDisplay(), "a frame displays marked layers")
    }
}

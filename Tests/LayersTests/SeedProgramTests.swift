// Sample programs from the seed articles (shared/seeds/000, 001, 003, 004), ported to Lamina with
// mechanical edits only, then checked frame by frame against values worked out here from the
// semantics document (spec/core-animation-semantics.md), never by asking Lamina for the answer.
//
// Mechanical edits used throughout:
//   UIImage → CGImage(width:height:source:) of the size the sample implies (UIImage.size → its size);
//   self.view.layer / containerView.layer → a CALayer sized like an iPhone view (375×667 points);
//   @(x) / NSValue wrappers → plain numbers, CGRect, CGPoint; HUGE_VAL / HUGE / INFINITY → .infinity;
//   M_PI → .pi; CMTimeGetSeconds(…) → the number of seconds; -addAnimation:forKey: → add(_:forKey:).
// Every layer gets a name, so that paths match the scene files in Examples/ (see testSceneFiles…).

import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation
import SceneFormat
import ContentRaster

// MARK: - Shared stand-ins for UIKit

/// `self.view.layer` of an iPhone-sized view controller (375×667 points, 2× screen).
private func makeViewLayer(name: String = "view") -> CALayer {
    let layer = CALayer()
    layer.name = name
    layer.bounds = CGRect(x: 0, y: 0, width: 375, height: 667)
    layer.position = CGPoint(x: 187.5, y: 333.5)
    layer.contentsScale = 2  // UIScreen.main.scale
    return layer
}

/// The sample's `UIImage`: an image of the given point size backed by an asset.
private struct SampleImage {
    let cgImage: CGImage
    var size: CGSize { CGSize(width: cgImage.width, height: cgImage.height) }
    init(_ asset: String, _ width: Int, _ height: Int) {
        cgImage = CGImage(width: width, height: height, source: "assets/\(asset)")
    }
}

/// An IBOutlet `containerView` from the book's nib: a 300×300 view at the top left of the screen.
private func makeContainerView(in view: CALayer) -> CALayer {
    let container = CALayer()
    container.name = "containerView"
    container.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
    view.addSublayer(container)
    return container
}

// MARK: - (a) 000: rotating image

private enum RotatingImageSample {
    static func build() -> (view: CALayer, imageLayer: CALayer) {
        let parentLayer = makeViewLayer()

        let image = SampleImage("cover.png", 300, 200)  // [UIImage imageNamed:@"lavf_cover"]
        let imageLayer = CALayer()
        imageLayer.name = "imageLayer"

        // 设置layer内容
        imageLayer.contents = image.cgImage
        imageLayer.contentsScale = 2  // [UIScreen mainScreen].scale

        let midX = parentLayer.bounds.midX
        let midY = parentLayer.bounds.midY

        imageLayer.bounds = CGRect(x: 0, y: 0, width: image.size.width, height: image.size.height)
        imageLayer.position = CGPoint(x: midX, y: midY)

        parentLayer.addSublayer(imageLayer)

        // z轴旋转动画
        let rotationAnimation = CABasicAnimation(keyPath: "transform.rotation.z")
        rotationAnimation.toValue = 2 * Double.pi
        rotationAnimation.duration = 3
        rotationAnimation.repeatCount = .infinity  // HUGE_VAL

        imageLayer.add(rotationAnimation, forKey: "r")
        return (parentLayer, imageLayer)
    }
}

// MARK: - (b) 000: THTitleItem.buildLayer

/// TH720pVideoRect.
private let TH720pVideoRect = CGRect(x: 0, y: 0, width: 1280, height: 720)

private func THMakePerspectiveTransform(_ eyePosition: CGFloat) -> CATransform3D {
    var transform = CATransform3DIdentity
    transform.m34 = -1.0 / eyePosition
    return transform
}

private final class THTitleItem {
    let text: String
    let image: SampleImage
    let bounds: CGRect
    var animateImage = true
    var useLargeFont = false
    /// CMTimeGetSeconds(self.startTimeInTimeline) and CMTimeGetSeconds(self.timeRange.duration).
    var startTimeInTimeline: CFTimeInterval = 1.0
    var timeRangeDuration: CFTimeInterval = 5.0
    /// The article's advice (二、问题): a title at the very start of the video must use
    /// AVCoreAnimationBeginTimeAtZero, because a beginTime of 0 means "now".
    var usesBeginTimeAtZero = false

    init(text: String, image: SampleImage) {
        self.text = text
        self.image = image
        bounds = TH720pVideoRect
    }

    func buildLayer() -> CALayer {
        let parentLayer = CALayer()
        parentLayer.name = "titleCard"
        parentLayer.frame = bounds
        parentLayer.opacity = 0.0

        let imageLayer = makeImageLayer()
        parentLayer.addSublayer(imageLayer)

        let textLayer = makeTextLayer()
        parentLayer.addSublayer(textLayer)

        let fadeInFadeOutAnimation = makeFadeInFadeOutAnimation()
        parentLayer.add(fadeInFadeOutAnimation, forKey: "fadeAnimation")

        if animateImage {
            parentLayer.sublayerTransform = THMakePerspectiveTransform(1000)
            let spinAnimation = make3DSpinAnimation()
            let offset = spinAnimation.beginTime + spinAnimation.duration - 0.5
            let popAnimation = makePopAnimation(withTimingOffset: offset)

            imageLayer.add(spinAnimation, forKey: nil)
            imageLayer.add(popAnimation, forKey: nil)
        }
        return parentLayer
    }

    func makeImageLayer() -> CALayer {
        let imageSize = image.size

        let layer = CALayer()
        layer.name = "image"
        layer.contents = image.cgImage
        layer.allowsEdgeAntialiasing = true
        layer.bounds = CGRect(x: 0, y: 0, width: imageSize.width, height: imageSize.height)
        layer.position = CGPoint(x: bounds.midX - 20.0, y: 270.0)
        return layer
    }

    func makeTextLayer() -> CALayer {
        let fontSize: CGFloat = useLargeFont ? 64 : 54
        let font = UIFont(name: "GillSans-Bold", size: fontSize)!

        let attrs: [NSAttributedString.Key: Any] = [
            .font: font,
            .foregroundColor: UIColor.white.cgColor,
        ]
        let string = NSAttributedString(string: text, attributes: attrs)
        // Measured with the font Lamina draws: GillSans-Bold is not installed on Linux, so
        // DejaVu Sans Bold, which `Examples/title-card.json` is sized for too.
        let textSize = text.size(withAttributes: attrs)

        let layer = CATextLayer()
        layer.name = "text"
        layer.string = string
        layer.bounds = CGRect(x: 0, y: 0, width: textSize.width, height: textSize.height)
        layer.position = CGPoint(x: bounds.midX, y: 470)
        layer.backgroundColor = UIColor.clear.cgColor
        return layer
    }

    func makeFadeInFadeOutAnimation() -> CAAnimation {
        let animation = CAKeyframeAnimation(keyPath: "opacity")
        animation.values = [Float(0.0), Float(1.0), Float(1.0), Float(0.0)]
        animation.keyTimes = [0.0, 0.2, 0.8, 1.0]

        animation.beginTime = startTimeInTimeline
        if usesBeginTimeAtZero, animation.beginTime == 0 { animation.beginTime = AVCoreAnimationBeginTimeAtZero }
        animation.duration = timeRangeDuration

        animation.isRemovedOnCompletion = false
        return animation
    }

    func make3DSpinAnimation() -> CAAnimation {
        let animation = CABasicAnimation(keyPath: "transform.rotation.y")
        animation.toValue = (4 * Double.pi) * -1
        animation.beginTime = startTimeInTimeline + 0.2
        animation.duration = timeRangeDuration * 0.4
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        return animation
    }

    func makePopAnimation(withTimingOffset offset: TimeInterval) -> CAAnimation {
        let animation = CABasicAnimation(keyPath: "transform.scale")
        animation.toValue = 1.3  // @1.3f (a float NSNumber; written as the double the scene file can hold)
        animation.beginTime = offset
        animation.duration = 0.3
        animation.autoreverses = true
        animation.isRemovedOnCompletion = false
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        return animation
    }
}

private enum TitleCardSample {
    /// The AVVideoCompositionCoreAnimationTool's animation layer with one title item in it.
    static func build() -> CALayer {
        let animationLayer = CALayer()
        animationLayer.name = "animationLayer"
        animationLayer.frame = TH720pVideoRect
        let item = THTitleItem(text: "Core Animation", image: SampleImage("cover.png", 300, 200))
        animationLayer.addSublayer(item.buildLayer())
        return animationLayer
    }
}

// MARK: - (c) 001: falling petal group

private final class PetalViewController {
    let view = makeViewLayer()  // self.view.layer
    private var _petalLayer: CALayer?
    private var _layer: CALayer?

    func viewDidLoad() {
        view.backgroundColor = UIColor.black.cgColor
        view.addSublayer(layer)
        view.addSublayer(petalLayer)
    }

    func move(_ endPoint: CGPoint) -> CAKeyframeAnimation {
        let keyFrame = CAKeyframeAnimation(keyPath: "position")
        let path = UIBezierPath()
        path.move(to: petalLayer.position)
        path.addCurve(to: endPoint, controlPoint1: CGPoint(x: 50, y: 150), controlPoint2: CGPoint(x: 300, y: 250))
        keyFrame.path = path.cgPath
        keyFrame.calculationMode = .cubicPaced
        return keyFrame
    }

    func rotation() -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: "transform.rotation.z")
        animation.fromValue = Double.pi / 4      // @(M_PI_4)
        animation.toValue = Double.pi / 4 * 4    // @(M_PI_4*4)
        return animation
    }

    func moveToBig() -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: "bounds")
        animation.fromValue = CGRect(x: 0, y: 0, width: petalLayer.bounds.size.width, height: petalLayer.bounds.size.height)
        animation.toValue = CGRect(x: 0, y: 0, width: petalLayer.bounds.size.width * 1.3, height: petalLayer.bounds.size.height * 1.3)
        return animation
    }

    func animationGroup(_ endPoint: CGPoint) {
        let group = CAAnimationGroup()
        group.animations = [rotation(), move(endPoint), moveToBig()]
        group.duration = 5
        group.isRemovedOnCompletion = false
        group.fillMode = .both
        petalLayer.add(group, forKey: "")
    }

    /// touchesBegan(_:with:) with the touch's location in the view.
    func touchesBegan(at location: CGPoint) { animationGroup(location) }

    var petalLayer: CALayer {
        if let _petalLayer { return _petalLayer }
        let petal = CALayer()
        petal.name = "petal"
        petal.position = CGPoint(x: view.position.x, y: 50)  // self.view.center.x
        let image = SampleImage("petal.png", 40, 40)          // [UIImage imageNamed:@"2"]
        petal.bounds = CGRect(x: 0, y: 0, width: image.size.width, height: image.size.height)
        petal.contents = image.cgImage
        _petalLayer = petal
        return petal
    }

    var layer: CALayer {
        if let _layer { return _layer }
        let background = CALayer()
        background.name = "background"
        background.position = CGPoint(x: view.position.x, y: view.position.y + 100)  // self.view.center
        let image = SampleImage("flower.png", 200, 200)                             // [UIImage imageNamed:@"4"]
        background.bounds = CGRect(x: 0, y: 0, width: image.size.width / 2, height: image.size.height / 2)
        background.contents = image.cgImage
        _layer = background
        return background
    }
}

private enum PetalSample {
    static let touch = CGPoint(x: 120, y: 560)
    static func build() -> PetalViewController {
        let controller = PetalViewController()
        controller.viewDidLoad()
        controller.touchesBegan(at: touch)
        return controller
    }
}

// MARK: - (d) 003: heart path with an additive circle, and the additive shake

/// The heart and circle the objc.io sample animates along, as cubic segments (start, then
/// (control1, control2, end) per segment). Centred on the origin: the animations are additive.
private enum HeartGeometry {
    static let heartStart = CGPoint(x: 0, y: -20)
    static let heartCurves: [(CGPoint, CGPoint, CGPoint)] = [
        (CGPoint(x: -10, y: -45), CGPoint(x: -60, y: -45), CGPoint(x: -60, y: -10)),
        (CGPoint(x: -60, y: 20), CGPoint(x: -25, y: 35), CGPoint(x: 0, y: 60)),
        (CGPoint(x: 25, y: 35), CGPoint(x: 60, y: 20), CGPoint(x: 60, y: -10)),
        (CGPoint(x: 60, y: -45), CGPoint(x: 10, y: -45), CGPoint(x: 0, y: -20)),
    ]
    /// A circle of radius 10 as four quarter Béziers, starting at (10, 0), clockwise on screen.
    static let k = 5.522847498
    static let circleStart = CGPoint(x: 10, y: 0)
    static let circleCurves: [(CGPoint, CGPoint, CGPoint)] = [
        (CGPoint(x: 10, y: k), CGPoint(x: k, y: 10), CGPoint(x: 0, y: 10)),
        (CGPoint(x: -k, y: 10), CGPoint(x: -10, y: k), CGPoint(x: -10, y: 0)),
        (CGPoint(x: -10, y: -k), CGPoint(x: -k, y: -10), CGPoint(x: 0, y: -10)),
        (CGPoint(x: k, y: -10), CGPoint(x: 10, y: -k), CGPoint(x: 10, y: 0)),
    ]

    static func path(_ start: CGPoint, _ curves: [(CGPoint, CGPoint, CGPoint)]) -> CGPath {
        let path = CGMutablePath()
        path.move(to: start)
        for (c1, c2, end) in curves { path.addCurve(to: end, control1: c1, control2: c2) }
        path.closeSubpath()
        return path
    }
    static var heartPath: CGPath { path(heartStart, heartCurves) }
    static var circlePath: CGPath { path(circleStart, circleCurves) }
}

private enum HeartSample {
    static func build() -> (view: CALayer, dot: CALayer, shakeBox: CALayer) {
        let view = makeViewLayer()
        let layer = CALayer()
        layer.name = "dot"
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.position = CGPoint(x: 187.5, y: 300)
        layer.cornerRadius = 10
        layer.backgroundColor = CGColor(hex: "#FF2D55")
        view.addSublayer(layer)

        let heartPath = HeartGeometry.heartPath
        let circlePath = HeartGeometry.circlePath

        let followHeartShape = CAKeyframeAnimation(keyPath: "position")
        followHeartShape.isAdditive = true
        followHeartShape.path = heartPath
        followHeartShape.duration = 5
        followHeartShape.repeatCount = .infinity  // HUGE
        followHeartShape.calculationMode = .paced  // "paced"

        let circleAround = CAKeyframeAnimation(keyPath: "position")
        circleAround.isAdditive = true
        circleAround.path = circlePath
        circleAround.duration = 0.275
        circleAround.repeatCount = .infinity
        circleAround.calculationMode = .paced

        layer.add(followHeartShape, forKey: "follow a heart shape")
        layer.add(circleAround, forKey: "loop around")

        // The shake from the same article, on a text-field-like box.
        let box = CALayer()
        box.name = "shakeBox"
        box.bounds = CGRect(x: 0, y: 0, width: 200, height: 44)
        box.position = CGPoint(x: 187.5, y: 560)
        box.cornerRadius = 8
        box.backgroundColor = CGColor(hex: "#E5E5EA")
        box.borderWidth = 1
        box.borderColor = CGColor(hex: "#C7C7CC")
        view.addSublayer(box)

        let animation = CAKeyframeAnimation()
        animation.keyPath = "position.x"
        animation.values = [0, 10, -10, 10, 0]
        animation.duration = 0.4
        animation.isAdditive = true
        box.add(animation, forKey: "shake")
        return (view, layer, box)
    }
}

// MARK: - (e) 004: ship rotation (listing 9.1) and swinging door (listing 9.2)

private final class ShipViewController: CAAnimationDelegate {
    let view = makeViewLayer()
    var containerView: CALayer!
    var shipLayer: CALayer!
    /// durationField.text / repeatField.text
    var durationText = "2"
    var repeatText = "1.5"
    private(set) var controlsEnabled = true
    /// What the delegate heard, with the media time it heard it at.
    private(set) var starts: [CFTimeInterval] = []
    private(set) var stops: [(time: CFTimeInterval, finished: Bool)] = []

    func viewDidLoad() {
        containerView = makeContainerView(in: view)
        // add the ship
        shipLayer = CALayer()
        shipLayer.name = "ship"
        shipLayer.frame = CGRect(x: 0, y: 0, width: 128, height: 128)
        shipLayer.position = CGPoint(x: 150, y: 150)
        shipLayer.contents = SampleImage("ship.png", 128, 128).cgImage
        containerView.addSublayer(shipLayer)
    }

    func setControlsEnabled(_ enabled: Bool) { controlsEnabled = enabled }

    func start() {
        let duration = CFTimeInterval(Double(durationText) ?? 0)
        let repeatCount = Float(repeatText) ?? 0
        // animate the ship rotation
        let animation = CABasicAnimation()
        animation.keyPath = "transform.rotation"
        animation.duration = duration
        animation.repeatCount = repeatCount
        animation.byValue = Double.pi * 2
        animation.delegate = self
        shipLayer.add(animation, forKey: "rotateAnimation")
        // disable controls
        setControlsEnabled(false)
    }

    func animationDidStart(_ anim: CAAnimation) { starts.append(CATransaction.mediaClock.currentTime) }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        stops.append((CATransaction.mediaClock.currentTime, flag))
        // reenable controls
        setControlsEnabled(true)
    }
}

private final class DoorViewController {
    let view = makeViewLayer()
    var containerView: CALayer!
    var doorLayer: CALayer!

    func viewDidLoad() {
        containerView = makeContainerView(in: view)
        // add the door
        let doorLayer = CALayer()
        doorLayer.name = "door"
        doorLayer.frame = CGRect(x: 0, y: 0, width: 128, height: 256)
        doorLayer.position = CGPoint(x: 150 - 64, y: 150)
        doorLayer.anchorPoint = CGPoint(x: 0, y: 0.5)
        doorLayer.contents = SampleImage("door.png", 128, 256).cgImage
        containerView.addSublayer(doorLayer)
        self.doorLayer = doorLayer
        // apply perspective transform
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        containerView.sublayerTransform = perspective
        // apply swinging animation
        let animation = CABasicAnimation()
        animation.keyPath = "transform.rotation.y"
        animation.toValue = -Double.pi / 2  // @(-M_PI_2)
        animation.duration = 2.0
        animation.repeatDuration = .infinity
        animation.autoreverses = true
        doorLayer.add(animation, forKey: nil)
    }
}

// MARK: - Independent reference math (from the spec's formulas, not from Lamina)

private enum Reference {
    /// A cubic Bézier timing curve (§2.2), solved by bisection to 1e-15. Control points are
    /// stored as 32-bit floats, as Core Animation stores them (§2.1).
    static func timing(_ x1: Float, _ y1: Float, _ x2: Float, _ y2: Float, _ u: Double) -> Double {
        let (x1, y1, x2, y2) = (Double(x1), Double(y1), Double(x2), Double(y2))
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        func bezier(_ a: Double, _ b: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
        }
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if bezier(x1, x2, mid) < u { low = mid } else { high = mid }
        }
        return bezier(y1, y2, (low + high) / 2)
    }
    static func easeInEaseOut(_ u: Double) -> Double { timing(0.42, 0, 0.58, 1, u) }

    /// Fractional part, for repeating animations (t ≥ 0).
    static func frac(_ x: Double) -> Double { x - x.rounded(.down) }

    /// Angle of a z rotation from m11 = cos θ, m12 = sin θ (§11.2).
    static func zAngle(_ m: CATransform3D) -> Double { atan2(Double(m.m12), Double(m.m11)) }
    /// Angle of a y rotation from m11 = cos θ, m13 = −sin θ (§11.2).
    static func yAngle(_ m: CATransform3D) -> Double { atan2(-Double(m.m13), Double(m.m11)) }

    /// Maps (x, y, 0, 1) by a row-vector matrix and divides by w.
    static func project(_ m: CATransform3D, _ x: Double, _ y: Double) -> CGPoint {
        let X = x * Double(m.m11) + y * Double(m.m21) + Double(m.m41)
        let Y = x * Double(m.m12) + y * Double(m.m22) + Double(m.m42)
        let W = x * Double(m.m14) + y * Double(m.m24) + Double(m.m44)
        return CGPoint(x: X / W, y: Y / W)
    }

    /// Screen position of a 3D point in a parent whose sublayerTransform is a perspective with
    /// m34 = −1/d about the parent's anchor (cx, cy) (§11.1, §11.2: w = 1 − z/d).
    static func perspective(x: Double, y: Double, z: Double, d: Double, cx: Double, cy: Double) -> CGPoint {
        let w = 1 - z / d
        return CGPoint(x: (x - cx) / w + cx, y: (y - cy) / w + cy)
    }

    /// A path of cubic segments measured by dense sampling, for paced keyframes (§4.4: time ∝ arc length).
    struct ArcLengthPath {
        var points: [CGPoint] = []
        var lengths: [Double] = []

        init(start: CGPoint, curves: [(CGPoint, CGPoint, CGPoint)], stepsPerCurve: Int = 20_000) {
            points = [start]
            lengths = [0]
            var p0 = start
            for (c1, c2, p3) in curves {
                for i in 1...stepsPerCurve {
                    let s = Double(i) / Double(stepsPerCurve), r = 1 - s
                    let a = r * r * r, b = 3 * r * r * s, c = 3 * r * s * s, d = s * s * s
                    let x = a * Double(p0.x) + b * Double(c1.x) + c * Double(c2.x) + d * Double(p3.x)
                    let y = a * Double(p0.y) + b * Double(c1.y) + c * Double(c2.y) + d * Double(p3.y)
                    let last = points[points.count - 1]
                    lengths.append(lengths[lengths.count - 1] + hypot(x - Double(last.x), y - Double(last.y)))
                    points.append(CGPoint(x: x, y: y))
                }
                p0 = p3
            }
        }

        var totalLength: Double { lengths[lengths.count - 1] }

        /// The point at `fraction` of the arc length.
        func point(atFraction fraction: Double) -> CGPoint {
            let target = min(max(fraction, 0), 1) * totalLength
            var low = 0, high = lengths.count - 1
            while low + 1 < high {
                let mid = (low + high) / 2
                if lengths[mid] < target { low = mid } else { high = mid }
            }
            let span = lengths[high] - lengths[low]
            let w = span > 0 ? (target - lengths[low]) / span : 0
            let a = points[low], b = points[high]
            return CGPoint(x: Double(a.x) + (Double(b.x) - Double(a.x)) * w, y: Double(a.y) + (Double(b.y) - Double(a.y)) * w)
        }
    }
}

// MARK: - Tests

final class SeedProgramTests: XCTestCase {
    override func setUp() {
        super.setUp()
        // Samples add their animations "now"; the clock reads 0 like a scene's first frame.
        CATransaction.mediaClock = ManualMediaClock(time: 0)
    }

    override func tearDown() {
        CATransaction.mediaClock = ManualMediaClock(time: 0)  // leave the shared clock as found
        super.tearDown()
    }

    private func presented(_ root: CALayer, _ path: String, at time: Double,
                           file: StaticString = #filePath, line: UInt = #line) throws -> PresentedLayer {
        let tree = PresentationTree.evaluate(root, at: time)
        return try XCTUnwrap(tree.layer(atPath: path), "no layer at \(path)", file: file, line: line)
    }

    private func assertAngle(_ actual: Double, _ expected: Double, accuracy: Double = 1e-6, _ message: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        let difference = remainder(actual - expected, 2 * Double.pi)
        XCTAssertEqual(difference, 0, accuracy: accuracy,
                       "angle \(actual) ≠ \(expected) (mod 2π) \(message)", file: file, line: line)
    }

    private func assertPoint(_ actual: CGPoint, _ expected: CGPoint, accuracy: Double, _ message: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Double(actual.x), Double(expected.x), accuracy: accuracy, "x \(message)", file: file, line: line)
        XCTAssertEqual(Double(actual.y), Double(expected.y), accuracy: accuracy, "y \(message)", file: file, line: line)
    }

    /// The reference helpers reproduce the spec's measured values (E17), so they can be trusted.
    func testReferenceHelpersMatchSpecTables() {
        XCTAssertEqual(Reference.easeInEaseOut(0.25), 0.129162, accuracy: 2e-6)
        XCTAssertEqual(Reference.easeInEaseOut(0.75), 0.870838, accuracy: 2e-6)
        XCTAssertEqual(Reference.timing(0.42, 0, 1, 1, 0.5), 0.315357, accuracy: 2e-6)
        // E42: the curve (0,0) (0,100) (100,100) (100,0) is 200 long.
        let arc = Reference.ArcLengthPath(start: .zero, curves: [(CGPoint(x: 0, y: 100), CGPoint(x: 100, y: 100), CGPoint(x: 100, y: 0))])
        XCTAssertEqual(arc.totalLength, 200.0, accuracy: 0.05)
        // The four-Bézier circle measures like a circle of radius 10.
        let circle = Reference.ArcLengthPath(start: HeartGeometry.circleStart, curves: HeartGeometry.circleCurves)
        XCTAssertEqual(circle.totalLength, 20 * Double.pi, accuracy: 0.01)
        assertPoint(circle.point(atFraction: 0.25), CGPoint(x: 0, y: 10), accuracy: 1e-6)
        assertPoint(circle.point(atFraction: 0.125), CGPoint(x: 10 * cos(Double.pi / 4), y: 10 * sin(Double.pi / 4)), accuracy: 0.01)
    }

    // MARK: (a) rotating image

    func testRotatingImageSpinsAboutZForever() throws {
        let (view, imageLayer) = RotatingImageSample.build()
        XCTAssertEqual(imageLayer.animationKeys(), ["r"])

        let start = try presented(view, "view/imageLayer", at: 0)
        XCTAssertEqual(start.properties.bounds, CGRect(x: 0, y: 0, width: 300, height: 200))
        XCTAssertEqual(start.properties.position, CGPoint(x: 187.5, y: 333.5))
        XCTAssertEqual(start.properties.contentsScale, 2)

        // θ(t) = 2π · frac(t / 3): linear, repeating every 3 s without end.
        for t in [0.0, 0.75, 1.5, 2.25, 3.0, 4.0, 100.5, 3_000.6] {
            let layer = try presented(view, "view/imageLayer", at: t)
            let m = layer.properties.transform
            let expected = 2 * Double.pi * Reference.frac(t / 3)
            assertAngle(Reference.zAngle(m), expected, accuracy: 1e-6, "at t=\(t)")
            // A pure z rotation: unit scale, no tilt.
            XCTAssertEqual(hypot(Double(m.m11), Double(m.m12)), 1, accuracy: 1e-9, "at t=\(t)")
            XCTAssertEqual(Double(m.m33), 1, accuracy: 1e-9, "at t=\(t)")
            XCTAssertEqual(Double(m.m13), 0, accuracy: 1e-9, "at t=\(t)")
            // The image centre stays put: position is the rotation's centre.
            let centre = Reference.project(layer.transformToRoot, 150, 100)
            assertPoint(centre, CGPoint(x: 187.5, y: 333.5), accuracy: 1e-6, "centre at t=\(t)")
        }
        // A corner turns about the centre: at t = 0.75 (θ = π/2) the top-left corner (−150, −100)
        // from the centre maps to (100, −150) from it (positive z turns +x toward +y, §11.2).
        let quarter = try presented(view, "view/imageLayer", at: 0.75)
        assertPoint(Reference.project(quarter.transformToRoot, 0, 0), CGPoint(x: 187.5 + 100, y: 333.5 - 150), accuracy: 1e-6)
    }

    // MARK: (b) title card

    func testTitleCardTreeMatchesBuildLayer() throws {
        let root = TitleCardSample.build()
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layers.indices.map { tree.path(of: $0) },
                       ["animationLayer", "animationLayer/titleCard", "animationLayer/titleCard/image", "animationLayer/titleCard/text"])
        let card = try XCTUnwrap(tree.layer(atPath: "animationLayer/titleCard"))
        XCTAssertEqual(card.properties.bounds, CGRect(x: 0, y: 0, width: 1280, height: 720))
        XCTAssertEqual(card.properties.position, CGPoint(x: 640, y: 360))
        XCTAssertEqual(card.properties.opacity, 0)
        XCTAssertEqual(Double(card.properties.sublayerTransform.m34), -0.001, accuracy: 1e-15)
        let image = try XCTUnwrap(tree.layer(atPath: "animationLayer/titleCard/image"))
        XCTAssertEqual(image.properties.bounds, CGRect(x: 0, y: 0, width: 300, height: 200))
        XCTAssertEqual(image.properties.position, CGPoint(x: 620, y: 270))
        XCTAssertTrue(image.properties.allowsEdgeAntialiasing)
        let text = try XCTUnwrap(tree.layer(atPath: "animationLayer/titleCard/text"))
        XCTAssertEqual(text.typeName, "text")
        XCTAssertEqual(text.properties.position, CGPoint(x: 640, y: 470))
        XCTAssertEqual(text.properties.backgroundColor, CGColor(gray: 0, alpha: 0))
    }

    /// The attributed string's font, size and colour are what Core Animation draws with
    /// (a CATextLayer ignores its own font properties for attributed strings).
    func testTitleCardTextKeepsItsAttributes() throws {
        let root = TitleCardSample.build()
        let text = try presented(root, "animationLayer/titleCard/text", at: 0)
        guard case .text(let properties) = text.properties.content else { return XCTFail("not a text layer") }
        XCTAssertEqual(properties.string, "Core Animation")
        let run = properties.runs?.first
        XCTAssertEqual(run?.font ?? properties.font, "GillSans-Bold", "NSFont attribute was dropped")
        XCTAssertEqual(run?.fontSize ?? properties.fontSize, 54, "NSFont's point size was dropped")
        XCTAssertEqual(run?.color ?? properties.foregroundColor, CGColor.white)
    }

    func testTitleCardFadesInHoldsAndFadesOut() throws {
        let root = TitleCardSample.build()
        // Keyframes 0,1,1,0 at key times 0,0.2,0.8,1 of a 5 s window starting at 1 s (linear).
        // Outside the window the fill mode is `removed`: the model opacity 0 shows.
        let expectations: [(Double, Double)] = [
            (0.0, 0), (0.5, 0), (1.0, 0), (1.25, 0.25), (1.5, 0.5), (2.0, 1), (3.5, 1), (5.0, 1),
            (5.5, 0.5), (5.75, 0.25), (6.0, 0), (6.5, 0), (10, 0),
        ]
        for (t, opacity) in expectations {
            let card = try presented(root, "animationLayer/titleCard", at: t)
            XCTAssertEqual(Double(card.properties.opacity), opacity, accuracy: 1e-5, "opacity at t=\(t)")
        }
        // The sublayers keep their own opacity (the fade is the parent's, applied as a group).
        let image = try presented(root, "animationLayer/titleCard/image", at: 3.5)
        XCTAssertEqual(image.properties.opacity, 1)
    }

    /// E64 and the article's warning: at the start of the timeline a beginTime of 0 becomes the
    /// host's "now", so the fade never shows in the video; AVCoreAnimationBeginTimeAtZero fixes it.
    func testTitleCardAtTimelineZeroNeedsBeginTimeAtZero() throws {
        CATransaction.mediaClock = ManualMediaClock(time: 5_000)  // host time when the export is set up
        for fixed in [false, true] {
            let item = THTitleItem(text: "Core Animation", image: SampleImage("cover.png", 300, 200))
            item.startTimeInTimeline = 0
            item.usesBeginTimeAtZero = fixed
            let card = item.buildLayer()
            let animation = try XCTUnwrap(card.animation(forKey: "fadeAnimation"))
            if fixed {
                XCTAssertEqual(animation.beginTime, AVCoreAnimationBeginTimeAtZero)
            } else {
                XCTAssertEqual(animation.beginTime, 5_000, "0 is replaced by now (§1.4)")
            }
            // Video time 0.5 s: 10% into the 5 s fade, 0.5 of the way up to full opacity (if it runs).
            let presented = PresentationTree.evaluate(card, at: 0.5).layers[0]
            XCTAssertEqual(Double(presented.properties.opacity), fixed ? 0.5 : 0, accuracy: 1e-5, "fixed: \(fixed)")
        }
    }

    func testTitleCardSpinsAboutYAndPops() throws {
        let root = TitleCardSample.build()
        let path = "animationLayer/titleCard/image"
        // Spin: rotation.y 0 → −4π, easeInEaseOut, begins at 1 + 0.2 s, lasts 5·0.4 = 2 s.
        // Pop: scale 1 → 1.3 → 1, easeInEaseOut, begins at 1.2 + 2 − 0.5 = 2.7 s, 0.3 s each way.
        func spin(_ t: Double) -> Double? {
            let u = (t - 1.2) / 2
            guard u >= 0, u <= 1 else { return nil }
            return -4 * Double.pi * Reference.easeInEaseOut(u)
        }
        func pop(_ t: Double) -> Double? {
            let local = t - 2.7
            guard local >= 0, local <= 0.6 else { return nil }
            let leg = local <= 0.3 ? local : 0.6 - local
            return 1 + (1.3 - 1) * Reference.easeInEaseOut(leg / 0.3)
        }
        for t in [0.5, 1.2, 1.7, 2.2, 2.7, 2.85, 3.0, 3.15, 3.2, 3.25, 3.3, 3.5] {
            let layer = try presented(root, path, at: t)
            let m = layer.properties.transform
            let theta = spin(t) ?? 0
            let s = pop(t) ?? 1
            // Expected S(s) · R_y(θ) (§10: scale, then rotation; §11.2 for R_y).
            XCTAssertEqual(Double(m.m11), s * cos(theta), accuracy: 1e-6, "m11 at t=\(t)")
            XCTAssertEqual(Double(m.m13), -s * sin(theta), accuracy: 1e-6, "m13 at t=\(t)")
            XCTAssertEqual(Double(m.m31), s * sin(theta), accuracy: 1e-6, "m31 at t=\(t)")
            XCTAssertEqual(Double(m.m33), s * cos(theta), accuracy: 1e-6, "m33 at t=\(t)")
            XCTAssertEqual(Double(m.m22), s, accuracy: 1e-6, "m22 (scale) at t=\(t)")
            XCTAssertEqual(Double(m.m12), 0, accuracy: 1e-9, "m12 at t=\(t)")
            XCTAssertEqual(Double(m.m21), 0, accuracy: 1e-9, "m21 at t=\(t)")
        }
        // A quarter into the spin the angle reads back from the matrix.
        let early = try presented(root, path, at: 1.7)
        assertAngle(Reference.yAngle(early.properties.transform), -4 * Double.pi * 0.129162, accuracy: 2e-5)
        // Mid-way the image has made exactly one full turn (−2π): it faces the viewer again.
        // (The float control points make easeInEaseOut(0.5) differ from 0.5 by ~2e-8.)
        let middle = try presented(root, path, at: 2.2)
        XCTAssertEqual(Double(middle.properties.transform.m11), 1, accuracy: 1e-9)
        XCTAssertEqual(Double(middle.properties.transform.m13), 0, accuracy: 1e-6)
        // At the pop's peak the image is 1.3× (row lengths of the 3×3 part).
        let peak = try presented(root, path, at: 3.0)
        let m = peak.properties.transform
        XCTAssertEqual((Double(m.m11 * m.m11 + m.m12 * m.m12 + m.m13 * m.m13)).squareRoot(), 1.3, accuracy: 1e-6)
        XCTAssertEqual(Double(m.m22), 1.3, accuracy: 1e-6)

        // Perspective: the parent's m34 = −1/1000 about its anchor (640, 360) projects the
        // image's right-edge midpoint (150 from its centre) as computed from the rotation.
        let theta = spin(1.7)!
        let rightEdge = Reference.project(early.transformToRoot, 300, 100)
        let expected = Reference.perspective(x: 620 + 150 * cos(theta), y: 270, z: -150 * sin(theta),
                                             d: 1000, cx: 640, cy: 360)
        assertPoint(rightEdge, expected, accuracy: 1e-6, "image right edge under perspective")
        // The centre (on the rotation axis, z = 0) does not move.
        assertPoint(Reference.project(early.transformToRoot, 150, 100), CGPoint(x: 620, y: 270), accuracy: 1e-6)
    }

    // MARK: (c) petal group

    func testPetalGroupFallsAlongCurveTurnsAndGrows() throws {
        let controller = PetalSample.build()
        let root = controller.view
        XCTAssertEqual(controller.petalLayer.animationKeys(), [""])
        let start = CGPoint(x: 187.5, y: 50), end = PetalSample.touch
        let curve = Reference.ArcLengthPath(start: start, curves: [(CGPoint(x: 50, y: 150), CGPoint(x: 300, y: 250), end)])

        // Children without a duration run for the group's 5 s (§6); linear; the path is paced.
        for t in [0.0, 0.5, 1.25, 2.5, 3.75, 4.5, 5.0] {
            let u = t / 5
            let petal = try presented(root, "view/petal", at: t)
            assertAngle(Reference.zAngle(petal.properties.transform), Double.pi / 4 + (Double.pi - Double.pi / 4) * u,
                        accuracy: 1e-6, "rotation at t=\(t)")
            let side = 40 + (40 * 1.3 - 40) * u
            XCTAssertEqual(Double(petal.properties.bounds.width), side, accuracy: 1e-9, "width at t=\(t)")
            XCTAssertEqual(Double(petal.properties.bounds.height), side, accuracy: 1e-9, "height at t=\(t)")
            XCTAssertEqual(petal.properties.bounds.origin, .zero)
            assertPoint(petal.properties.position, curve.point(atFraction: u), accuracy: 1e-3, "position at t=\(t)")
        }
        let atStart = try presented(root, "view/petal", at: 0)
        assertPoint(atStart.properties.position, start, accuracy: 1e-9, "path start")
        let half = try presented(root, "view/petal", at: 2.5)
        XCTAssertEqual(half.properties.bounds, CGRect(x: 0, y: 0, width: 46, height: 46))
        let atEnd = try presented(root, "view/petal", at: 5)
        assertPoint(atEnd.properties.position, end, accuracy: 1e-9, "path end")

        // removedOnCompletion = NO with fillMode both: the end state holds afterwards.
        for t in [5.5, 8.0, 60.0] {
            let petal = try presented(root, "view/petal", at: t)
            assertPoint(petal.properties.position, end, accuracy: 1e-9, "held position at t=\(t)")
            assertAngle(Reference.zAngle(petal.properties.transform), Double.pi, accuracy: 1e-6, "held rotation at t=\(t)")
            XCTAssertEqual(Double(petal.properties.bounds.width), 52, accuracy: 1e-9)
        }
        // The model is untouched, and so is the background layer.
        XCTAssertEqual(controller.petalLayer.position, start)
        XCTAssertEqual(controller.petalLayer.bounds, CGRect(x: 0, y: 0, width: 40, height: 40))
        let background = try presented(root, "view/background", at: 2.5)
        XCTAssertEqual(background.properties.position, CGPoint(x: 187.5, y: 433.5))
        XCTAssertEqual(background.properties.bounds, CGRect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(try presented(root, "view", at: 0).properties.backgroundColor, CGColor.black)
    }

    // MARK: (d) heart path, additive circle, shake

    func testHeartPathWithAdditiveCircle() throws {
        let (view, dot, _) = HeartSample.build()
        XCTAssertEqual(dot.animationKeys(), ["follow a heart shape", "loop around"])
        let heart = Reference.ArcLengthPath(start: HeartGeometry.heartStart, curves: HeartGeometry.heartCurves)
        let circle = Reference.ArcLengthPath(start: HeartGeometry.circleStart, curves: HeartGeometry.circleCurves)
        let model = CGPoint(x: 187.5, y: 300)
        // Both additive and paced: position = model + heart(frac(t/5)) + circle(frac(t/0.275)).
        for t in [0.0, 0.1, 0.5, 1.3, 2.5, 2.9, 4.2, 4.99, 7.7, 12.34, 101.0] {
            let h = heart.point(atFraction: Reference.frac(t / 5))
            let c = circle.point(atFraction: Reference.frac(t / 0.275))
            let expected = CGPoint(x: model.x + h.x + c.x, y: model.y + h.y + c.y)
            let layer = try presented(view, "view/dot", at: t)
            assertPoint(layer.properties.position, expected, accuracy: 1e-3, "dot at t=\(t)")
            XCTAssertEqual(layer.properties.bounds, CGRect(x: 0, y: 0, width: 20, height: 20))
        }
        // At t = 2.5 the heart is half-way round: the bottom tip (0, 60) is the half-way point by symmetry.
        let h = heart.point(atFraction: 0.5)
        assertPoint(h, CGPoint(x: 0, y: 60), accuracy: 1e-6, "reference heart tip")
        XCTAssertEqual(dot.position, model, "the model never moves")
    }

    func testAdditiveShake() throws {
        let (view, _, box) = HeartSample.build()
        XCTAssertEqual(box.animationKeys(), ["shake"])
        // Linear keyframes 0,10,−10,10,0 evenly over 0.4 s, added to the model x (187.5).
        let expectations: [(Double, Double)] = [
            (0, 0), (0.05, 5), (0.1, 10), (0.15, 0), (0.2, -10), (0.25, 0), (0.3, 10), (0.35, 5), (0.4, 0),
            (0.45, 0), (2, 0),
        ]
        for (t, offset) in expectations {
            let layer = try presented(view, "view/shakeBox", at: t)
            XCTAssertEqual(Double(layer.properties.position.x), 187.5 + offset, accuracy: 1e-9, "x at t=\(t)")
            XCTAssertEqual(Double(layer.properties.position.y), 560, accuracy: 1e-12, "y at t=\(t)")
        }
    }

    // MARK: (e) ship rotation and swinging door

    func testShipRotationDelegateFiresOnceWhenFinished() throws {
        let controller = ShipViewController()
        controller.viewDidLoad()
        let timeline = LayerTimeline(root: controller.view, time: 0)
        controller.durationText = "2"
        controller.repeatText = "1.5"
        controller.start()
        XCTAssertFalse(controller.controlsEnabled)
        XCTAssertEqual(controller.shipLayer.animationKeys(), ["rotateAnimation"])

        // byValue 2π from the model's 0, 2 s a turn, 1.5 turns: active for 3 s.
        var angles: [Double: Double] = [:]
        for frame in 0...240 {
            let t = Double(frame) / 60
            timeline.advance(to: t)
            if frame % 30 == 0, t < 3, let presentation = controller.shipLayer.presentation() {
                angles[t] = Reference.zAngle(presentation.transform)
            }
            if t < 3 {
                XCTAssertTrue(controller.stops.isEmpty, "stopped early at t=\(t)")
                XCTAssertFalse(controller.controlsEnabled)
            }
        }
        XCTAssertEqual(controller.starts, [0])
        XCTAssertEqual(controller.stops.count, 1, "animationDidStop must fire exactly once")
        XCTAssertEqual(controller.stops.first?.time ?? -1, 3.0, accuracy: 1e-9, "first frame at or after the end")
        XCTAssertEqual(controller.stops.first?.finished, true)
        XCTAssertTrue(controller.controlsEnabled)
        XCTAssertNil(controller.shipLayer.animationKeys(), "removedOnCompletion takes it off")
        XCTAssertEqual(angles.count, 6)
        for (t, angle) in angles {
            assertAngle(angle, 2 * Double.pi * Reference.frac(t / 2), accuracy: 1e-6, "ship at t=\(t)")
        }
        let after = try presented(controller.view, "view/containerView/ship", at: 4)
        XCTAssertEqual(after.properties.transform, CATransform3DIdentity)
    }

    /// Pressing Start later: beginTime 0 becomes the time of the press (§1.4), and the stop
    /// message comes 3 s after it.
    func testShipStartedLaterBeginsAtThePress() throws {
        let controller = ShipViewController()
        controller.viewDidLoad()
        let timeline = LayerTimeline(root: controller.view, time: 0)
        for frame in 0...600 {
            let t = Double(frame) / 60
            timeline.advance(to: t)
            if frame == 600 { controller.start() }  // the button is tapped at t = 10
        }
        XCTAssertEqual(controller.shipLayer.animation(forKey: "rotateAnimation")?.beginTime ?? -1, 10, accuracy: 1e-12)
        for frame in 601...900 {
            timeline.advance(to: Double(frame) / 60)
            if frame == 630 {  // t = 10.5: a quarter turn
                let angle = Reference.zAngle(try XCTUnwrap(controller.shipLayer.presentation()).transform)
                assertAngle(angle, Double.pi / 2, accuracy: 1e-6)
            }
        }
        XCTAssertEqual(controller.stops.count, 1)
        XCTAssertEqual(controller.stops.first?.time ?? -1, 13, accuracy: 1e-9)
        XCTAssertEqual(controller.stops.first?.finished, true)
        XCTAssertEqual(controller.starts.count, 1)
        // Added after the frame at t = 10 was shown, it is first seen by the next frame.
        XCTAssertEqual(controller.starts.first ?? -1, 601.0 / 60, accuracy: 1e-9)
    }

    func testShipRotationWindowWithoutTimeline() throws {
        let controller = ShipViewController()
        controller.viewDidLoad()
        controller.start()
        let path = "view/containerView/ship"
        let ship = try presented(controller.view, path, at: 0)
        XCTAssertEqual(ship.properties.bounds, CGRect(x: 0, y: 0, width: 128, height: 128))
        XCTAssertEqual(ship.properties.position, CGPoint(x: 150, y: 150))
        for (t, expected) in [(0.5, Double.pi / 2), (1.0, Double.pi), (2.5, Double.pi / 2), (3.0, Double.pi)] {
            assertAngle(Reference.zAngle(try presented(controller.view, path, at: t).properties.transform), expected,
                        accuracy: 1e-6, "ship at t=\(t)")
        }
        // Past the 3 s active window (fill removed) the model's identity shows again.
        XCTAssertEqual(try presented(controller.view, path, at: 3.01).properties.transform, CATransform3DIdentity)
    }

    func testSwingingDoorHingeStaysWhileTheDoorSwings() throws {
        let controller = DoorViewController()
        controller.viewDidLoad()
        let root = controller.view
        let path = "view/containerView/door"
        let door0 = try presented(root, path, at: 0)
        XCTAssertEqual(door0.properties.bounds, CGRect(x: 0, y: 0, width: 128, height: 256))
        XCTAssertEqual(door0.properties.position, CGPoint(x: 86, y: 150))
        XCTAssertEqual(door0.properties.anchorPoint, CGPoint(x: 0, y: 0.5))

        // toValue −π/2 from the model's 0, linear (nil timing function), 2 s each way, forever.
        func angle(_ t: Double) -> Double {
            let r = t.truncatingRemainder(dividingBy: 4)
            let leg = r <= 2 ? r : 4 - r
            return -Double.pi / 2 * leg / 2
        }
        XCTAssertEqual(angle(1), -Double.pi / 4)
        XCTAssertEqual(angle(2), -Double.pi / 2)
        XCTAssertEqual(angle(3), -Double.pi / 4)

        var previousRight = Double.infinity
        for t in [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 7.3, 100.25] {
            let door = try presented(root, path, at: t)
            let theta = angle(t)
            assertAngle(Reference.yAngle(door.properties.transform), theta, accuracy: 1e-6, "door at t=\(t)")
            // The hinge (left edge, at the anchor) is on the rotation axis at z = 0: it never moves.
            for y in [0.0, 128.0, 256.0] {
                let hinge = Reference.project(door.transformToRoot, 0, y)
                let expected = Reference.perspective(x: 86, y: 22 + y, z: 0, d: 500, cx: 150, cy: 150)
                assertPoint(hinge, expected, accuracy: 1e-6, "hinge y=\(y) at t=\(t)")
            }
            let hingeMid = Reference.project(door.transformToRoot, 0, 128)
            XCTAssertEqual(Double(hingeMid.x), 86, accuracy: 1e-9, "hinge x at t=\(t)")
            // The free edge swings toward the viewer (z = −128 sin θ > 0) and is seen in
            // perspective about the container's centre (150, 150) with d = 500.
            let x = 86 + 128 * cos(theta), z = -128 * sin(theta)
            let right = Reference.project(door.transformToRoot, 128, 128)
            assertPoint(right, Reference.perspective(x: x, y: 150, z: z, d: 500, cx: 150, cy: 150),
                        accuracy: 1e-6, "right edge at t=\(t)")
            let topRight = Reference.project(door.transformToRoot, 128, 0)
            assertPoint(topRight, Reference.perspective(x: x, y: 22, z: z, d: 500, cx: 150, cy: 150),
                        accuracy: 1e-6, "top-right corner at t=\(t)")
            // Once past the first few degrees (where perspective first pushes it out, to 214.78
            // at t = 0.25) the free edge closes in on the hinge while the door opens.
            if t >= 0.5, t <= 2 {
                XCTAssertLessThan(Double(right.x), previousRight, "the free edge closes in while opening (t=\(t))")
            }
            previousRight = Double(right.x)
        }
        // Spot values: closed 214; at −π/4 ≈ 182.369; fully open ≈ 63.98 (left of the hinge).
        XCTAssertEqual(Double(Reference.project(try presented(root, path, at: 0).transformToRoot, 128, 128).x), 214, accuracy: 1e-9)
        XCTAssertEqual(Double(Reference.project(try presented(root, path, at: 1).transformToRoot, 128, 128).x), 182.3691, accuracy: 1e-3)
        XCTAssertEqual(Double(Reference.project(try presented(root, path, at: 2).transformToRoot, 128, 128).x), 63.9785, accuracy: 1e-3)
    }

    // MARK: Scene files mirror the ports

    /// Each Examples/*.json names the same layers in the same order as its Swift port, with the
    /// same explicit geometry, and the same animation keys per layer.
    func testSceneFilesMirrorThePorts() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")
        guard FileManager.default.fileExists(atPath: examples.path) else {
            throw XCTSkip("no Examples folder next to the tests")
        }
        let ports: [(String, CALayer)] = [
            ("rotating-image.json", RotatingImageSample.build().view),
            ("title-card.json", TitleCardSample.build()),
            ("petal-group.json", PetalSample.build().view),
            ("heart-path.json", HeartSample.build().view),
            ("ship-rotation.json", { let c = ShipViewController(); c.viewDidLoad(); c.start(); return c.view }()),
            ("swinging-door.json", { let c = DoorViewController(); c.viewDidLoad(); return c.view }()),
        ]
        for (file, root) in ports {
            let data = try Data(contentsOf: examples.appendingPathComponent(file))
            let scene = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], file)
            XCTAssertEqual(scene["format"] as? Int, 1, file)
            let rootNode = try XCTUnwrap(scene["root"] as? [String: Any], file)

            var sceneLayers: [(path: String, node: [String: Any])] = []
            func walk(_ node: [String: Any], _ parent: String?) {
                let name = node["name"] as? String ?? "?"
                let path = parent.map { "\($0)/\(name)" } ?? name
                sceneLayers.append((path, node))
                for child in node["sublayers"] as? [[String: Any]] ?? [] { walk(child, path) }
            }
            walk(rootNode, nil)
            var modelLayers: [(path: String, layer: CALayer)] = []
            func walkModel(_ layer: CALayer, _ parent: String?) {
                let path = parent.map { "\($0)/\(layer.name ?? "?")" } ?? (layer.name ?? "?")
                modelLayers.append((path, layer))
                for child in layer.sublayers ?? [] { walkModel(child, path) }
            }
            walkModel(root, nil)
            XCTAssertEqual(sceneLayers.map(\.path), modelLayers.map(\.path), file)

            for ((path, node), (_, layer)) in zip(sceneLayers, modelLayers) {
                func numbers(_ key: String) -> [Double]? { (node[key] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } }
                if let b = numbers("bounds") {
                    XCTAssertEqual(layer.bounds, CGRect(x: b[0], y: b[1], width: b[2], height: b[3]), "\(file) \(path) bounds")
                }
                if let p = numbers("position") { XCTAssertEqual(layer.position, CGPoint(x: p[0], y: p[1]), "\(file) \(path) position") }
                if let f = numbers("frame") { XCTAssertEqual(layer.frame, CGRect(x: f[0], y: f[1], width: f[2], height: f[3]), "\(file) \(path) frame") }
                if let a = numbers("anchorPoint") { XCTAssertEqual(layer.anchorPoint, CGPoint(x: a[0], y: a[1]), "\(file) \(path) anchorPoint") }
                if let o = node["opacity"] as? NSNumber { XCTAssertEqual(Double(layer.opacity), o.doubleValue, "\(file) \(path) opacity") }
                if let s = node["contentsScale"] as? NSNumber { XCTAssertEqual(Double(layer.contentsScale), s.doubleValue, "\(file) \(path) contentsScale") }
                let contents = layer.contents as? CGImage
                if let asset = node["contents"] as? String {
                    let assets = scene["assets"] as? [String: String] ?? [:]
                    let assetFile = try XCTUnwrap(assets[asset], "\(file) \(path): asset \(asset)")
                    XCTAssertEqual(contents?.source, assetFile, "\(file) \(path) contents")
                } else {
                    XCTAssertNil(contents, "\(file) \(path) contents")
                }
                let animations = node["animations"] as? [[String: Any]] ?? []
                XCTAssertEqual(layer.attachedAnimationCount, animations.count, "\(file) \(path) animation count")
                let keys = animations.compactMap { $0["key"] as? String }
                XCTAssertEqual(layer.animationKeys() ?? [], keys, "\(file) \(path) animation keys")
            }
        }
    }
}

/// `lamina inspect` on every Examples/ scene must match the Swift-built tree (issue: scene files
/// load into exactly the tree the Swift calls build).
final class SceneFilesMatchPortsTests: XCTestCase {
    func testEveryExampleSceneEqualsItsSwiftPortAtEveryFrame() throws {
        CATransaction.mediaClock = ManualMediaClock(time: 0)
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")
        let ports: [(String, CALayer, Double)] = [
            ("rotating-image.json", RotatingImageSample.build().view, 6),
            ("title-card.json", TitleCardSample.build(), 7),
            ("petal-group.json", PetalSample.build().view, 6),
            ("heart-path.json", HeartSample.build().view, 10),
            ("ship-rotation.json", { let c = ShipViewController(); c.viewDidLoad(); c.start(); return c.view }(), 4),
            ("swinging-door.json", { let c = DoorViewController(); c.viewDidLoad(); return c.view }(), 8),
        ]
        for (file, root, duration) in ports {
            let scene = try SceneLoader.load(contentsOf: examples.appendingPathComponent(file))
            var worst = 0.0
            var t = 0.0
            var compared = 0
            while t <= duration + 1e-9 {
                let a = PresentationTree.evaluate(root, at: t), b = PresentationTree.evaluate(scene.root, at: t)
                XCTAssertEqual(a.layers.count, b.layers.count, file)
                for (x, y) in zip(a.layers, b.layers) {
                    XCTAssertEqual(a.path(of: x.index), b.path(of: y.index), file)
                    XCTAssertEqual(x.typeName, y.typeName, file)
                    let p = x.properties, q = y.properties
                    var diffs: [Double] = []
                    diffs += [p.bounds.minX - q.bounds.minX, p.bounds.minY - q.bounds.minY, p.bounds.width - q.bounds.width, p.bounds.height - q.bounds.height]
                    diffs += [p.position.x - q.position.x, p.position.y - q.position.y, p.anchorPoint.x - q.anchorPoint.x, p.anchorPoint.y - q.anchorPoint.y]
                    diffs += [Double(p.opacity - q.opacity), p.contentsScale - q.contentsScale, p.cornerRadius - q.cornerRadius, p.borderWidth - q.borderWidth]
                    diffs += zip(p.transform.rowMajor, q.transform.rowMajor).map { $0 - $1 }
                    diffs += zip(p.sublayerTransform.rowMajor, q.sublayerTransform.rowMajor).map { $0 - $1 }
                    diffs += zip(x.transformToRoot.rowMajor, y.transformToRoot.rowMajor).map { $0 - $1 }
                    let d = diffs.map(abs).max() ?? 0
                    worst = max(worst, d)
                    XCTAssertLessThan(d, 1e-6, "\(file) \(a.path(of: x.index)) t=\(t)")
                    XCTAssertEqual(p.backgroundColor, q.backgroundColor, "\(file) \(a.path(of: x.index))")
                    XCTAssertEqual(p.borderColor, q.borderColor, "\(file) \(a.path(of: x.index))")
                    XCTAssertEqual(p.allowsEdgeAntialiasing, q.allowsEdgeAntialiasing, "\(file) \(a.path(of: x.index))")
                    XCTAssertEqual((p.contents.image?.width, p.contents.image?.height).0, q.contents.image?.width)
                    XCTAssertEqual(p.contents.image?.height, q.contents.image?.height)
                    XCTAssertEqual(p.content, q.content, "\(file) \(a.path(of: x.index))")
                    XCTAssertEqual(p.timing, q.timing, "\(file) \(a.path(of: x.index))")
                    compared += 1
                }
                t += 0.05
            }
            XCTAssertGreaterThan(compared, 0, file)
            XCTAssertLessThan(worst, 1e-6, file)
        }
    }
}

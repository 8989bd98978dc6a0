import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation

// §11 geometry and §7 transitions: a layer arrangement → coordinates (rects, points, cap sizes,
// offsets) (E50–E60, E62/E63 geometry, E69); a transition + time → its state (E62, E63); sibling
// z positions → drawing order (E70). E61 (group opacity) is a compositing rule and is checked by
// the renderers' pixel tests.

extension WorkedExamplesTests {
    struct CoordinateExample {
        let row: ExampleRow
        let names: [String]
        let expected: [Double]
        /// Nil: compared exactly.
        let accuracy: Double?
        let measure: () -> [Double]

        init(_ label: String, _ names: [String], _ expected: [Double], accuracy: Double? = WorkedExamplesTests.tolerance,
             file: StaticString = #filePath, line: UInt = #line, _ measure: @escaping () -> [Double]) {
            row = ExampleRow(label, file: file, line: line)
            self.names = names; self.expected = expected; self.accuracy = accuracy; self.measure = measure
        }

        static func rect(_ label: String, _ expected: [Double], accuracy: Double? = WorkedExamplesTests.tolerance,
                         file: StaticString = #filePath, line: UInt = #line, _ measure: @escaping () -> CGRect) -> Self {
            Self(label, ["x", "y", "width", "height"], expected, accuracy: accuracy, file: file, line: line) {
                let r = measure()
                return [r.origin.x, r.origin.y, r.size.width, r.size.height].map { Double($0) }
            }
        }

        static func point(_ label: String, _ expected: [Double], file: StaticString = #filePath, line: UInt = #line,
                          _ measure: @escaping () -> CGPoint) -> Self {
            Self(label, ["x", "y"], expected, file: file, line: line) { let p = measure(); return [Double(p.x), Double(p.y)] }
        }
    }

    static var coordinateExamples: [CoordinateExample] {
        typealias Row = CoordinateExample
        let square = CGRect(x: 0, y: 0, width: 100, height: 100)
        let gravity = { (g: CALayerContentsGravity, w: CGFloat, h: CGFloat) in
            ContentsPlacement.rect(gravity: g, contentSize: CGSize(width: w, height: h), in: square, flipped: false)
        }
        let thirds = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        let nineSlice = { (width: CGFloat) in
            ContentsPlacement.nineSlice(imagePixels: CGSize(width: 30, height: 30), contentsCenter: thirds,
                                        bounds: CGSize(width: width, height: 60))
        }
        let push = { (p: Double) in
            let o = TransitionGeometry.offsets(type: .push, subtype: .fromRight, progress: p, extent: 100)
            return [Double(o.new.x), Double(o.old.x)]
        }
        let e52 = e52Layers
        return [
            .rect("E50 default anchor", [150, 275, 100, 50]) { e50Layer(anchor: CGPoint(x: 0.5, y: 0.5)).frame },
            .rect("E50 anchor (0,0)", [200, 300, 100, 50]) { e50Layer(anchor: .zero).frame },
            .rect("E50 anchor 0.5 + scale(2,4)", [100, 200, 200, 200]) {
                e50Layer(anchor: CGPoint(x: 0.5, y: 0.5), transform: CATransform3DMakeScale(2, 4, 1)).frame
            },
            .rect("E51 frame", [-70.710678, -70.710678, 141.421356, 141.421356]) { e51Layers(placed: false).layer.frame },
            .rect("E51 convertRect into the parent, placed at (100,100)", [29.289322, 29.289322, 141.421356, 141.421356]) {
                let (layer, parent) = e51Layers(placed: true)
                return layer.convert(layer.bounds, to: parent)
            },
            .rect("E51 convertRect from, placed at (100,100)", [29.289322, 29.289322, 141.421356, 141.421356]) {
                let (layer, parent) = e51Layers(placed: true)
                return parent.convert(layer.bounds, from: layer)
            },
            .point("E52 without transforms (0,0) → (75,25)", [75, 25]) { let (c, p) = e52(false); return c.convert(.zero, to: p) },
            .point("E52 without transforms (50,50) → (125,75)", [125, 75]) {
                let (c, p) = e52(false); return c.convert(CGPoint(x: 50, y: 50), to: p)
            },
            .point("E52 child (0,0) → parent (60, −38)", [60, -38]) { let (c, p) = e52(true); return c.convert(.zero, to: p) },
            .point("E52 inverse: parent (60, −38) → child (0,0)", [0, 0]) {
                let (c, p) = e52(true); return c.convert(CGPoint(x: 60, y: -38), from: p)
            },
            Row("E53 about z: (1,0) → (0,1)", ["x", "y"], [0, 1]) {
                let p = CATransform3DMakeRotation(.pi / 2, 0, 0, 1).transform(x: 1, y: 0, z: 0)
                return [Double(p.x), Double(p.y)]
            },
            Row("E53 about x: (0,1,0) → (0,0,1)", ["x", "y", "z"], [0, 0, 1]) {
                let p = CATransform3DMakeRotation(.pi / 2, 1, 0, 0).transform(x: 0, y: 1, z: 0)
                return [Double(p.x), Double(p.y), Double(p.z)]
            },
            Row("E54 (100,0,100) → x 125", ["x"], [125]) { [perspectiveX(z: 100)] },
            Row("E54 (100,0,−500) → x 50", ["x"], [50]) { [perspectiveX(z: -500)] },
            Row("E56 right-edge midpoint", ["x"], [42.618295]) { [Double(e56Layer().convert(CGPoint(x: 200, y: 50), to: nil).x)] },
            Row("E56 left-edge midpoint", ["x"], [-60.474489]) { [Double(e56Layer().convert(CGPoint(x: 0, y: 50), to: nil).x)] },
            Row("E56 right-edge midpoint via the presentation tree", ["x"], [42.618295]) {
                let p = PresentationTree.evaluate(e56Layer(), at: 0).layers[0].transformToRoot.transform(x: 200, y: 50)
                return [Double(p.x / p.w)]
            },
            .rect("E57 resizeAspect 200×100", [0, 25, 100, 50], accuracy: nil) { gravity(.resizeAspect, 200, 100) },
            .rect("E57 resizeAspectFill 200×100", [-50, 0, 200, 100], accuracy: nil) { gravity(.resizeAspectFill, 200, 100) },
            .rect("E57 center 50×20", [25, 40, 50, 20], accuracy: nil) { gravity(.center, 50, 20) },
            .rect("E57 top 50×20 (y-up)", [25, 80, 50, 20], accuracy: nil) { gravity(.top, 50, 20) },
            .rect("E57 bottomRight 50×20 (y-up)", [50, 0, 50, 20], accuracy: nil) { gravity(.bottomRight, 50, 20) },
            .rect("E57 resize", [0, 0, 100, 100], accuracy: nil) { gravity(.resize, 50, 20) },
            .rect("E58 logical 100×50", [0, 25, 100, 50], accuracy: nil) {
                let logical = ContentsPlacement.logicalSize(pixels: CGSize(width: 200, height: 100), contentsScale: 2)
                return ContentsPlacement.rect(gravity: .center, contentSize: logical, in: square, flipped: false)
            },
            Row("E59 source x from 100 to 200 px", ["minX", "maxX"], [100, 200], accuracy: nil) {
                let source = ContentsPlacement.sourceRect(contentsRect: CGRect(x: 0.5, y: 0, width: 0.5, height: 1),
                                                          imagePixels: CGSize(width: 200, height: 100))
                return [Double(source.minX), Double(source.maxX)]
            },
            Row("E60 bounds 90×60: caps 10, centre 70×40", ["left cap", "centre width", "centre height"], [10, 70, 40], accuracy: nil) {
                let s = nineSlice(90)
                return [Double(s.leftCap), Double(s.centerWidth), Double(s.centerHeight)]
            },
            Row("E60 bounds 15 wide: caps 7.5, centre 0", ["left cap", "centre width"], [7.5, 0], accuracy: 1e-9) {
                let s = nineSlice(15)
                return [Double(s.leftCap), Double(s.centerWidth)]
            },
            Row("E62 p 0.25: new x 75, old x −25", ["new x", "old x"], [75, -25], accuracy: nil) { push(0.25) },
            Row("E62 p 0.5: new x 50, old x −50", ["new x", "old x"], [50, -50], accuracy: nil) { push(0.5) },
            Row("E62 p 0.75: new x 25, old x −75", ["new x", "old x"], [25, -75], accuracy: nil) { push(0.75) },
            Row("E63 fade at p 0.5", ["old alpha", "new alpha"], [0.5, 0.5], accuracy: nil) {
                let fade = TransitionGeometry.alphas(type: .fade, progress: 0.5)
                return [fade.old, fade.new]
            },
            .point("E69 (0,0) of the first in the second", [-100, 0]) { e69Siblings { $0.convert(.zero, to: $1) } },
            .point("E69 the same, converted from the first", [-100, 0]) { e69Siblings { $1.convert(.zero, from: $0) } },
        ]
    }

    func testCoordinateExamples() {
        for example in Self.coordinateExamples {
            Self.resetTransactions()
            let actual = example.measure()
            for (i, name) in example.names.enumerated() {
                example.row.check(actual.indices.contains(i) ? actual[i] : nil, example.expected[i], accuracy: example.accuracy, name)
            }
        }
    }

    // MARK: - Arrangements

    static func e50Layer(anchor: CGPoint, transform: CATransform3D = CATransform3DIdentity) -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 300)
        layer.anchorPoint = anchor
        layer.transform = transform
        return layer
    }

    /// E51's rotated square at (0,0), or at (100,100) in a 400×400 parent.
    static func e51Layers(placed: Bool) -> (layer: CALayer, parent: CALayer) {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.position = .zero
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        parent.anchorPoint = .zero
        if placed {
            parent.addSublayer(layer)
            layer.position = CGPoint(x: 100, y: 100)
        }
        return (layer, parent)
    }

    /// E52's child in its parent, with the sublayer transform and the child's translation or without.
    static func e52Layers(transformed: Bool) -> (child: CALayer, parent: CALayer) {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        parent.position = CGPoint(x: 100, y: 100)
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        child.position = CGPoint(x: 100, y: 50)
        parent.addSublayer(child)
        if transformed {
            parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
            child.transform = CATransform3DMakeTranslation(5, 6, 0)
        }
        return (child, parent)
    }

    /// E54: x of (100, 0, z) through m34 = −1/500, after the perspective divide.
    static func perspectiveX(z: CGFloat) -> Double {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        let p = t.transform(x: 100, y: 0, z: z)
        return Double(p.x / p.w)
    }

    /// E56: 200×100 at (0,0), rotateY 60° then m34 −1/500 (about the origin).
    static func e56Layer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        layer.position = .zero
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        layer.transform = CATransform3DConcat(CATransform3DMakeRotation(.pi / 3, 0, 1, 0), perspective)
        return layer
    }

    /// E69: siblings 50×50 at (25,25) and (125,25) in a 200×200 parent, read while the parent lives.
    static func e69Siblings(_ read: (_ first: CALayer, _ second: CALayer) -> CGPoint) -> CGPoint {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        let first = CALayer(), second = CALayer()
        first.bounds = CGRect(x: 0, y: 0, width: 50, height: 50); first.position = CGPoint(x: 25, y: 25)
        second.bounds = CGRect(x: 0, y: 0, width: 50, height: 50); second.position = CGPoint(x: 125, y: 25)
        parent.addSublayer(first); parent.addSublayer(second)
        return withExtendedLifetime(parent) { read(first, second) }
    }
}

// MARK: - Transition state (E62, E63) and drawing order (E70)

extension WorkedExamplesTests {
    /// A one-second `CATransition` added at 0; its presented state at `t`.
    struct TransitionExample {
        let row: ExampleRow
        let type: CATransitionType
        let subtype: CATransitionSubtype?
        let progressRange: ClosedRange<Float>?
        let t: Double
        let progress: Double

        /// `range`: startProgress...endProgress, where the row sets them.
        init(_ label: String, _ type: CATransitionType, _ subtype: CATransitionSubtype? = nil, range: ClosedRange<Float>? = nil,
             at t: Double, progress: Double, file: StaticString = #filePath, line: UInt = #line) {
            row = ExampleRow("\(label) t=\(t) → p \(progress)", file: file, line: line)
            self.type = type; self.subtype = subtype; progressRange = range
            self.t = t; self.progress = progress
        }
    }

    static var transitionExamples: [TransitionExample] {
        [
            TransitionExample("E62", .push, .fromRight, range: 0.25...0.75, at: 0, progress: 0.25),
            TransitionExample("E62", .push, .fromRight, range: 0.25...0.75, at: 0.5, progress: 0.5),
            TransitionExample("E62", .push, .fromRight, range: 0.25...0.75, at: 1, progress: 0.75),
            // p = 0.5 → old alpha 1−p = 0.5, new alpha p = 0.5 (the alphas are a coordinate row).
            TransitionExample("E63", .fade, at: 0.5, progress: 0.5),
        ]
    }

    func testTransitionExamples() {
        for example in Self.transitionExamples {
            Self.resetTransactions()
            let layer = Self.layer([])
            let transition = CATransition()
            transition.duration = 1; transition.beginTime = 0
            transition.type = example.type
            if let subtype = example.subtype { transition.subtype = subtype }
            if let range = example.progressRange {
                transition.startProgress = range.lowerBound; transition.endProgress = range.upperBound
            }
            layer.add(transition, forKey: kCATransition)
            let state = layer.presentationProperties(atLocalTime: example.t).transition
            example.row.checkEqual(state?.type, example.type, "type")
            if let subtype = example.subtype { example.row.checkEqual(state?.subtype, subtype, "subtype") }
            example.row.check(state?.progress, example.progress, accuracy: Self.tolerance, "progress")
        }
    }

    struct DrawingOrderExample {
        let row: ExampleRow
        let sublayers: [(name: String, zPosition: CGFloat)]
        let order: [String]

        init(_ label: String, _ sublayers: [(String, CGFloat)], order: [String], file: StaticString = #filePath, line: UInt = #line) {
            row = ExampleRow(label, file: file, line: line)
            self.sublayers = sublayers.map { (name: $0.0, zPosition: $0.1) }; self.order = order
        }
    }

    static var drawingOrderExamples: [DrawingOrderExample] {
        [DrawingOrderExample("E70", [("A", 0), ("B", 5), ("C", 0), ("D", -1)], order: ["D", "A", "C", "B"])]
    }

    func testDrawingOrderExamples() {
        for example in Self.drawingOrderExamples {
            let parent = CALayer()
            for (name, zPosition) in example.sublayers {
                let layer = CALayer()
                layer.name = name
                layer.zPosition = zPosition
                parent.addSublayer(layer)
            }
            example.row.checkEqual(parent.sublayersInDrawingOrder.map { $0.name ?? "?" }, example.order, "model")
            let tree = PresentationTree.evaluate(parent, at: 0)
            example.row.checkEqual(tree.layers[0].sublayersInDrawingOrder.map { tree.layers[$0].properties.name ?? "?" }, example.order,
                                   "presentation tree")
        }
    }
}

import Foundation
import Geometry
import Animation
import Layers
import SceneFormat

/// The built-in scenes of `lamina bench` (issue: 10 / 100 / 1,000 textured layers with
/// perspective, opaque and translucent; rounded corners with borders; nested masks).
public enum BenchScenes {
    /// A benchmark scene: a layer tree drawn at the bench's size.
    public struct Scene {
        public var name: String
        public var root: CALayer
        /// Layers whose quads the hand-written GL floor draws (nil: no floor for this scene).
        public var floorLayers: Int?

        /// A file's scene (a Lottie animation, a scene file): drawn scaled to fit the bench's
        /// size, as `lamina render --size` draws it, its frames looping over its timeline.
        public var file: SceneFormat.Scene?

        public init(name: String, root: CALayer, floorLayers: Int? = nil) {
            self.name = name; self.root = root; self.floorLayers = floorLayers
        }

        /// The scene of a file, measured as `lamina render FILE --size WxH` draws it.
        public init(name: String, file: SceneFormat.Scene) {
            self.init(name: name, root: file.root)
            self.file = file
        }
    }

    static let texture: CGImage = {
        var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for y in 0..<256 {
            for x in 0..<256 {
                let i = (y * 256 + x) * 4
                pixels[i] = UInt8(x); pixels[i + 1] = UInt8(y); pixels[i + 2] = UInt8((x ^ y) & 255); pixels[i + 3] = 255
            }
        }
        return CGImage(width: 256, height: 256, premultipliedRGBA: pixels)!
    }()

    /// Every built-in scene at `width`×`height` pixels, in the table's order.
    public static func all(width: Int, height: Int) -> [Scene] {
        [textured(10, translucent: false, width, height), textured(10, translucent: true, width, height),
         textured(100, translucent: false, width, height), textured(100, translucent: true, width, height),
         textured(1000, translucent: false, width, height), textured(1000, translucent: true, width, height),
         rounded(100, plain: true, width, height), rounded(100, plain: false, width, height), nestedMasks(30, width, height),
         content(animated: true, width, height), content(animated: false, width, height),
         drawn(animated: true, width, height), drawn(animated: false, width, height)]
            + filterScenes(width: width, height: height)
    }

    static func stage(_ width: Int, _ height: Int) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: Double(width) / 2, y: Double(height) / 2)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 1000
        root.sublayerTransform = perspective
        return root
    }

    /// 256×256 textured layers on a grid, each turning about y.
    static func textured(_ count: Int, translucent: Bool, _ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        let columns = max(1, Int(Double(count).squareRoot().rounded(.up)))
        let rows = (count + columns - 1) / columns
        for i in 0..<count {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 256, height: 256)
            layer.position = CGPoint(x: (Double(i % columns) + 0.5) * Double(width) / Double(columns),
                                     y: (Double(i / columns) + 0.5) * Double(height) / Double(rows))
            layer.contents = texture
            if translucent { layer.opacity = 0.75 }
            let turn = CABasicAnimation(keyPath: "transform.rotation.y")
            turn.fromValue = -0.4
            turn.toValue = 0.4
            turn.duration = 2 + Double(i % 7) * 0.1
            turn.autoreverses = true
            turn.repeatCount = .infinity
            layer.add(turn, forKey: "turn", atMediaTime: 0)
            root.addSublayer(layer)
        }
        return Scene(name: "\(count) textured, \(translucent ? "translucent" : "opaque")", root: root, floorLayers: count)
    }

    /// Cards with rounded corners and borders, or the same cards plain (the baseline they are
    /// compared with).
    static func rounded(_ count: Int, plain: Bool, _ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        for i in 0..<count {
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
            card.position = CGPoint(x: Double((i * 97) % width), y: Double((i * 61) % height))
            card.backgroundColor = CGColor(red: 0.2 + 0.006 * Double(i), green: 0.5, blue: 0.8, alpha: 1)
            if !plain {
                card.cornerRadius = 24
                card.borderWidth = 4
                card.borderColor = CGColor(gray: 1, alpha: 1)
            }
            root.addSublayer(card)
        }
        return Scene(name: "\(count) \(plain ? plainCards : roundedCards)", root: root, floorLayers: nil)
    }

    static let plainCards = "plain cards", roundedCards = "rounded + borders"

    /// The plain cards scene a rounded cards scene is compared with (nil for other scenes).
    static func plainTwin(of name: String) -> String? {
        name.hasSuffix(" " + roundedCards) ? String(name.dropLast(roundedCards.count)) + plainCards : nil
    }

    /// Groups masked three levels deep.
    static func nestedMasks(_ count: Int, _ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        for i in 0..<count {
            var parent = root
            for depth in 0..<3 {
                let layer = CALayer()
                let side = 180.0 - Double(depth) * 40
                layer.bounds = CGRect(x: 0, y: 0, width: side, height: side)
                layer.position = depth == 0
                    ? CGPoint(x: Double((i * 131) % width), y: Double((i * 71) % height))
                    : CGPoint(x: side / 2 + 20, y: side / 2 + 20)
                layer.contents = texture
                let mask = CALayer()
                mask.frame = CGRect(x: 0, y: 0, width: side, height: side)
                mask.cornerRadius = side / 2
                mask.backgroundColor = CGColor(gray: 0, alpha: 1)
                layer.mask = mask
                parent.addSublayer(layer)
                parent = layer
            }
        }
        return Scene(name: "\(count) × 3 nested masks", root: root, floorLayers: nil)
    }

    /// Titles, charts and particles: 20 lines of text, 50 stroked and filled paths, a
    /// full-frame gradient and an emitter keeping ~500 particles alive. Animated: the paths draw
    /// themselves (`strokeEnd`) and the gradient turns; static: the same content with nothing
    /// changing, so only the first frame rasterizes.
    static func content(animated: Bool, _ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        root.sublayerTransform = CATransform3DIdentity
        let background = CAGradientLayer()
        background.frame = root.bounds
        background.colors = [CGColor(red: 0.1, green: 0.1, blue: 0.3, alpha: 1), CGColor(red: 0.5, green: 0.1, blue: 0.4, alpha: 1),
                             CGColor(red: 0.9, green: 0.5, blue: 0.2, alpha: 1)]
        background.startPoint = CGPoint(x: 0, y: 0)
        background.endPoint = CGPoint(x: 1, y: 1)
        root.addSublayer(background)
        for i in 0..<20 {
            let line = CATextLayer()
            line.frame = CGRect(x: 40, y: 20 + Double(i) * Double(height - 40) / 20, width: Double(width) / 2, height: 30)
            line.string = "Line \(i + 1): the quick brown fox jumps over the lazy dog"
            line.font = "DejaVu Sans"
            line.fontSize = 18
            line.contentsScale = 1
            root.addSublayer(line)
        }
        for i in 0..<50 {
            let shape = CAShapeLayer()
            let x = Double(width) * 0.55 + Double(i % 10) * Double(width) * 0.042, y = 60 + Double(i / 10) * Double(height - 120) / 5
            shape.frame = CGRect(x: x, y: y, width: 44, height: 44)
            shape.path = i % 2 == 0 ? CGPath(ellipseIn: CGRect(x: 4, y: 4, width: 36, height: 36), transform: nil)
                : CGPath(roundedRect: CGRect(x: 4, y: 4, width: 36, height: 36), cornerWidth: 8, cornerHeight: 8, transform: nil)
            shape.fillColor = CGColor(red: 0.2, green: 0.6 + 0.008 * Double(i), blue: 0.9, alpha: 0.6)
            shape.strokeColor = CGColor(gray: 1, alpha: 1)
            shape.lineWidth = 4
            if animated {
                let draw = CABasicAnimation(keyPath: "strokeEnd")
                draw.fromValue = 0
                draw.toValue = 1
                draw.duration = 2 + Double(i % 5) * 0.2
                draw.repeatCount = .infinity
                shape.add(draw, forKey: "draw", atMediaTime: 0)
            }
            root.addSublayer(shape)
        }
        if animated {
            let turn = CABasicAnimation(keyPath: "startPoint")
            turn.fromValue = CGPoint(x: 0, y: 0)
            turn.toValue = CGPoint(x: 1, y: 0)
            turn.duration = 4
            turn.autoreverses = true
            turn.repeatCount = .infinity
            background.add(turn, forKey: "turn", atMediaTime: 0)
        }
        let confetti = CAEmitterLayer()
        confetti.frame = root.bounds
        confetti.emitterPosition = CGPoint(x: Double(width) / 2, y: -10)
        confetti.emitterSize = CGSize(width: width, height: 1)
        confetti.emitterShape = .line
        let cell = CAEmitterCell()
        cell.contents = particle
        cell.birthRate = 100
        cell.lifetime = 5
        cell.velocity = 120
        cell.velocityRange = 40
        cell.emissionLongitude = .pi / 2
        cell.emissionRange = 0.5
        cell.spin = 2
        cell.spinRange = 2
        cell.yAcceleration = 30
        confetti.emitterCells = [cell]
        root.addSublayer(confetti)
        return Scene(name: animated ? "content, animated" : "content, static", root: root, floorLayers: nil)
    }

    /// A 6×10 confetti piece.
    static let particle: CGImage = {
        let pixels = [UInt8]((0..<60).flatMap { _ -> [UInt8] in [240, 200, 40, 255] })
        return CGImage(width: 6, height: 10, premultipliedRGBA: pixels)!
    }()
}

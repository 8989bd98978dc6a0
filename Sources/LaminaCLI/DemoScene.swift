import Foundation
import Lamina

/// The built-in demo: the seed programs composed over a video layer, 1280×720 points, 10 s.
///
/// Everything is built in code (images drawn pixel by pixel) so that `lamina demo` needs no
/// files: the title card with fade, 3D spin and pop (the AVFoundation article), falling petals,
/// the swinging door with perspective, the rotating ship, a text lower third and a progress ring.
enum DemoScene {
    static let width: CGFloat = 1280
    static let height: CGFloat = 720
    static let duration = 10.0

    /// The root layer and the video layer inside it.
    static func make() -> (root: CALayer, video: CALayer) {
        let root = CALayer()
        root.name = "animationLayer"
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: width / 2, y: height / 2)

        let video = VideoFrameLayer()
        video.name = "videoLayer"
        video.frame = root.bounds
        root.addSublayer(video)

        root.addSublayer(petals())
        root.addSublayer(door())
        root.addSublayer(ship())
        root.addSublayer(titleCard())
        root.addSublayer(lowerThird())
        root.addSublayer(progressRing())
        return (root, video)
    }

    // MARK: - The seeds

    /// The AVFoundation article's title card: fades in and out, the image spins twice about y
    /// under perspective, then pops (scale 1.3, autoreversing).
    static func titleCard() -> CALayer {
        let card = CALayer()
        card.name = "titleCard"
        card.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        card.position = CGPoint(x: width / 2, y: height / 2)
        card.opacity = 0
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 1000
        card.sublayerTransform = perspective

        let fade = CAKeyframeAnimation(keyPath: "opacity")
        fade.values = [0, 1, 1, 0]
        fade.keyTimes = [0, 0.2, 0.8, 1]
        fade.beginTime = 0.5
        fade.duration = 5
        fade.isRemovedOnCompletion = false
        card.add(fade, forKey: "fadeAnimation")

        let image = CALayer()
        image.name = "image"
        image.contents = coverImage()
        image.allowsEdgeAntialiasing = true
        image.bounds = CGRect(x: 0, y: 0, width: 300, height: 200)
        image.position = CGPoint(x: width / 2, y: 300)
        image.cornerRadius = 12
        image.masksToBounds = true
        let spin = CABasicAnimation(keyPath: "transform.rotation.y")
        spin.toValue = -4 * CGFloat.pi
        spin.beginTime = 0.7
        spin.duration = 2
        spin.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        image.add(spin, forKey: "spin")
        let pop = CABasicAnimation(keyPath: "transform.scale")
        pop.toValue = 1.3
        pop.beginTime = 2.2
        pop.duration = 0.3
        pop.autoreverses = true
        pop.isRemovedOnCompletion = false
        pop.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        image.add(pop, forKey: "pop")
        card.addSublayer(image)

        let title = CATextLayer()
        title.name = "title"
        title.string = "Core Animation"
        title.font = "DejaVu Sans Bold" as NSString
        title.fontSize = 54
        title.foregroundColor = .white
        title.alignmentMode = .center
        title.bounds = CGRect(x: 0, y: 0, width: 520, height: 70)
        title.position = CGPoint(x: width / 2, y: 470)
        card.addSublayer(title)
        return card
    }

    /// Falling petals: each rotates, drifts down a curve and grows, staggered, repeating.
    static func petals() -> CALayer {
        let group = CALayer()
        group.name = "petals"
        group.frame = CGRect(x: 0, y: 0, width: 420, height: height)
        let petal = petalImage()
        for i in 0..<6 {
            let layer = CALayer()
            layer.name = "petal\(i)"
            layer.contents = petal
            layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            let x = 60 + CGFloat(i) * 55
            layer.position = CGPoint(x: x, y: -40)
            let path = CGMutablePath()
            path.move(to: CGPoint(x: x, y: -40))
            path.addCurve(to: CGPoint(x: x + 40, y: height + 40), control1: CGPoint(x: x - 120, y: 200),
                          control2: CGPoint(x: x + 150, y: 420))
            let rotate = CABasicAnimation(keyPath: "transform.rotation.z")
            rotate.fromValue = CGFloat.pi / 4
            rotate.toValue = CGFloat.pi * (i.isMultiple(of: 2) ? 1 : -1)
            let fall = CAKeyframeAnimation(keyPath: "position")
            fall.path = path
            fall.calculationMode = .cubicPaced
            let grow = CABasicAnimation(keyPath: "bounds")
            grow.fromValue = CGRect(x: 0, y: 0, width: 40, height: 40)
            grow.toValue = CGRect(x: 0, y: 0, width: 52, height: 52)
            let fallGroup = CAAnimationGroup()
            fallGroup.animations = [rotate, fall, grow]
            fallGroup.duration = 5
            fallGroup.beginTime = AVCoreAnimationBeginTimeAtZero + Double(i) * 0.8
            fallGroup.repeatCount = .infinity
            fallGroup.isRemovedOnCompletion = false
            layer.add(fallGroup, forKey: "fall")
            group.addSublayer(layer)
        }
        return group
    }

    /// The swinging door (iOS Core Animation: Advanced Techniques): perspective on the container,
    /// the door hinged on its left edge, swinging open and shut forever.
    static func door() -> CALayer {
        let container = CALayer()
        container.name = "doorContainer"
        container.bounds = CGRect(x: 0, y: 0, width: 300, height: 300)
        container.position = CGPoint(x: 1080, y: 400)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective
        let door = CALayer()
        door.name = "door"
        door.frame = CGRect(x: 0, y: 0, width: 128, height: 256)
        door.position = CGPoint(x: 150 - 64, y: 150)
        door.anchorPoint = CGPoint(x: 0, y: 0.5)
        door.contents = doorImage()
        let swing = CABasicAnimation(keyPath: "transform.rotation.y")
        swing.toValue = -CGFloat.pi / 2
        swing.duration = 2
        swing.repeatDuration = .infinity
        swing.autoreverses = true
        swing.isRemovedOnCompletion = false
        door.add(swing, forKey: "swing")
        container.addSublayer(door)
        return container
    }

    /// The rotating ship: a full turn every two seconds.
    static func ship() -> CALayer {
        let ship = CALayer()
        ship.name = "ship"
        ship.contents = shipImage()
        ship.bounds = CGRect(x: 0, y: 0, width: 128, height: 128)
        ship.position = CGPoint(x: 560, y: 600)
        let rotate = CABasicAnimation(keyPath: "transform.rotation")
        rotate.byValue = 2 * CGFloat.pi
        rotate.duration = 2
        rotate.repeatCount = .infinity
        rotate.isRemovedOnCompletion = false
        ship.add(rotate, forKey: "rotateAnimation")
        return ship
    }

    /// A lower third: a translucent bar with two text lines that slides in at 5.5 s.
    static func lowerThird() -> CALayer {
        let bar = CALayer()
        bar.name = "lowerThird"
        bar.bounds = CGRect(x: 0, y: 0, width: 620, height: 96)
        bar.position = CGPoint(x: 60 + 310, y: 600)
        bar.backgroundColor = CGColor(red: 0.05, green: 0.05, blue: 0.1, alpha: 0.72)
        bar.cornerRadius = 10
        bar.opacity = 0
        let headline = CATextLayer()
        headline.name = "headline"
        headline.string = "Lamina: Core Animation on Linux"
        headline.font = "DejaVu Sans Bold" as NSString
        headline.fontSize = 30
        headline.foregroundColor = .white
        headline.frame = CGRect(x: 20, y: 12, width: 580, height: 40)
        bar.addSublayer(headline)
        let caption = CATextLayer()
        caption.name = "caption"
        caption.string = "rendered headless, composited over video"
        caption.font = "DejaVu Sans" as NSString
        caption.fontSize = 20
        caption.foregroundColor = CGColor(red: 0.8, green: 0.85, blue: 1, alpha: 1)
        caption.frame = CGRect(x: 20, y: 56, width: 580, height: 28)
        bar.addSublayer(caption)

        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = -320
        slide.toValue = 60 + 310
        slide.beginTime = 5.5
        slide.duration = 0.6
        slide.timingFunction = CAMediaTimingFunction(name: .easeOut)
        slide.fillMode = .both
        slide.isRemovedOnCompletion = false
        bar.add(slide, forKey: "slide")
        let show = CABasicAnimation(keyPath: "opacity")
        show.fromValue = 0
        show.toValue = 1
        show.beginTime = 5.5
        show.duration = 0.3
        show.fillMode = .forwards
        show.isRemovedOnCompletion = false
        bar.add(show, forKey: "show")
        return bar
    }

    /// A progress ring whose stroke follows the video's progress (strokeEnd 0 → 1 over 10 s).
    static func progressRing() -> CALayer {
        let ring = CAShapeLayer()
        ring.name = "progressRing"
        ring.bounds = CGRect(x: 0, y: 0, width: 72, height: 72)
        ring.position = CGPoint(x: width - 70, y: 70)
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: 36, y: 36), radius: 30, startAngle: -CGFloat.pi / 2,
                    endAngle: 3 * CGFloat.pi / 2, clockwise: false)
        ring.path = path
        ring.fillColor = nil
        ring.strokeColor = .white
        ring.lineWidth = 8
        ring.lineCap = .round
        ring.strokeEnd = 0
        let progress = CABasicAnimation(keyPath: "strokeEnd")
        progress.fromValue = 0
        progress.toValue = 1
        progress.duration = duration
        progress.beginTime = AVCoreAnimationBeginTimeAtZero
        progress.fillMode = .forwards
        progress.isRemovedOnCompletion = false
        ring.add(progress, forKey: "progress")
        return ring
    }

    // MARK: - Images drawn in code

    /// A premultiplied RGBA image from a per-pixel colour function (straight RGBA, 0…1).
    static func image(width: Int, height: Int, _ color: (Double, Double) -> (Double, Double, Double, Double)) -> CGImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = color((Double(x) + 0.5) / Double(width), (Double(y) + 0.5) / Double(height))
                let alpha = max(0, min(1, a))
                let i = (y * width + x) * 4
                pixels[i] = UInt8((max(0, min(1, r)) * alpha * 255).rounded())
                pixels[i + 1] = UInt8((max(0, min(1, g)) * alpha * 255).rounded())
                pixels[i + 2] = UInt8((max(0, min(1, b)) * alpha * 255).rounded())
                pixels[i + 3] = UInt8((alpha * 255).rounded())
            }
        }
        return CGImage(width: width, height: height, premultipliedRGBA: pixels)!
    }

    /// The cover: diagonal stripes in warm colours with a lighter centre.
    static func coverImage() -> CGImage {
        image(width: 300, height: 200) { u, v in
            let stripe = (u * 6 + v * 4).truncatingRemainder(dividingBy: 1) < 0.5 ? 1.0 : 0.82
            let glow = 1 - min(1, hypot(u - 0.5, v - 0.5) * 1.6)
            return ((0.95 * stripe) + 0.05 * glow, (0.45 + 0.3 * v) * stripe + 0.3 * glow, 0.35 * (1 - u) + 0.3 * glow, 1)
        }
    }

    /// A petal: a soft pink ellipse with an anti-aliased edge.
    static func petalImage() -> CGImage {
        image(width: 80, height: 80) { u, v in
            let d = hypot((u - 0.5) / 0.32, (v - 0.5) / 0.48)
            let a = max(0, min(1, (1 - d) * 12))
            return (1, 0.62 + 0.2 * v, 0.78, a)
        }
    }

    /// A door: wood-brown with two inset panels and a knob.
    static func doorImage() -> CGImage {
        image(width: 128, height: 256) { u, v in
            var shade = 0.55 + 0.05 * sin(u * 40)
            let inPanel = (u > 0.15 && u < 0.85) && ((v > 0.08 && v < 0.45) || (v > 0.55 && v < 0.92))
            if inPanel { shade *= 0.8 }
            if hypot((u - 0.82) * 2, v - 0.5) < 0.035 { return (0.95, 0.85, 0.3, 1) }
            return (shade, shade * 0.62, shade * 0.35, 1)
        }
    }

    /// A ship: a pale triangle pointing up with a flame, on transparent.
    static func shipImage() -> CGImage {
        image(width: 128, height: 128) { u, v in
            let halfWidth = (v - 0.1) * 0.45
            if v > 0.1, v < 0.8, abs(u - 0.5) < halfWidth { return (0.85, 0.9, 1, 1) }
            if v >= 0.8, v < 0.95, abs(u - 0.5) < 0.08 * (0.95 - v) / 0.15 { return (1, 0.55, 0.1, 1) }
            return (0, 0, 0, 0)
        }
    }
}

// The seeds' THTitleItem (the article's code; its Listing 12.2 is from Learning AV Foundation),
// ported from Objective-C line by line. For iOS this Swift file would start with
// `import AVFoundation` and `import UIKit`; here it is `import Lamina`, and nothing else changes.
import Lamina

let TH720pVideoRect = CGRect(x: 0, y: 0, width: 1280, height: 720)

/// THTimelineItem: an item placed on the composition's timeline.
class THTimelineItem {
    var timeRange = CMTimeRange.zero
    var startTimeInTimeline = CMTime.zero
}

final class THTitleItem: THTimelineItem {
    private(set) var text: String
    private(set) var image: UIImage
    private(set) var bounds: CGRect
    var animateImage = true
    var useLargeFont = false

    static func titleItem(withText text: String, image: UIImage) -> THTitleItem {
        THTitleItem(text: text, image: image)
    }

    init(text: String, image: UIImage) {
        // Listing 12.2
        self.text = text
        self.image = image
        bounds = TH720pVideoRect
    }

    func buildLayer() -> CALayer {
        // The parent layer holds the image and text layers, sized to the video.
        let parentLayer = CALayer()
        parentLayer.frame = bounds
        // Invisible until the fade animation raises its opacity.
        parentLayer.opacity = 0.0

        let imageLayer = makeImageLayer()
        parentLayer.addSublayer(imageLayer)

        let textLayer = makeTextLayer()
        parentLayer.addSublayer(textLayer)

        let fadeInFadeOutAnimation = makeFadeInFadeOutAnimation()
        parentLayer.add(fadeInFadeOutAnimation, forKey: "fadeAnimation")

        if animateImage {
            // A 3D spin about y: the parent's sublayerTransform gives its sublayers perspective.
            parentLayer.sublayerTransform = THMakePerspectiveTransform(1000)
            let spinAnimation = make3DSpinAnimation()
            // The pop starts half a second before the spin ends.
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
        // Core Animation takes Core Graphics types: the UIImage's CGImage.
        layer.contents = image.cgImage
        // Anti-aliased edges while the image turns.
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
        let textSize = text.size(withAttributes: attrs)

        let layer = CATextLayer()
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

        // Timed by the video's timeline.
        animation.beginTime = CMTimeGetSeconds(startTimeInTimeline)
        animation.duration = CMTimeGetSeconds(timeRange.duration)

        // Not removed when it ends, so that the export can show it.
        animation.isRemovedOnCompletion = false
        return animation
    }

    func make3DSpinAnimation() -> CAAnimation {
        // Two turns counter-clockwise about the y axis.
        let animation = CABasicAnimation(keyPath: "transform.rotation.y")
        animation.toValue = (4 * Double.pi) * -1
        // Timed from the fade: starts 0.2 s in, lasts 40 % of the item.
        animation.beginTime = CMTimeGetSeconds(startTimeInTimeline) + 0.2
        animation.duration = CMTimeGetSeconds(timeRange.duration) * 0.4
        // Ease in and out rather than the default linear curve.
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        return animation
    }

    func makePopAnimation(withTimingOffset offset: TimeInterval) -> CAAnimation {
        // A pop: a scale up and back.
        let animation = CABasicAnimation(keyPath: "transform.scale")
        animation.toValue = 1.3
        // Begins at the offset the spin gave.
        animation.beginTime = offset
        animation.duration = 0.3
        // Plays backwards after forwards, back to the start.
        animation.autoreverses = true
        animation.isRemovedOnCompletion = false

        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        return animation
    }
}

private func THMakePerspectiveTransform(_ eyePosition: CGFloat) -> CATransform3D {
    var transform = CATransform3DIdentity
    transform.m34 = -1.0 / eyePosition
    return transform
}

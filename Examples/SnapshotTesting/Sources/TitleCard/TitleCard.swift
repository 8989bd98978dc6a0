import Foundation
import Lamina

/// A lower-third title card: a rounded bar that slides in, and its title fading in after it.
public enum TitleCard {
    public static func make(title: String, accent: CGColor = CGColor(red: 1, green: 0.55, blue: 0.1, alpha: 1)) -> CALayer {
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 240, height: 60)
        card.backgroundColor = CGColor(red: 0.08, green: 0.08, blue: 0.12, alpha: 1)

        let bar = CALayer()
        bar.frame = CGRect(x: 10, y: 10, width: 220, height: 40)
        bar.backgroundColor = CGColor(red: 0.2, green: 0.22, blue: 0.3, alpha: 1)
        bar.cornerRadius = 8
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = -110
        slide.toValue = 120
        slide.duration = 0.5
        slide.timingFunction = CAMediaTimingFunction(name: .easeOut)
        slide.fillMode = .both
        slide.isRemovedOnCompletion = false
        bar.add(slide, forKey: "slide")
        card.addSublayer(bar)

        let stripe = CALayer()
        stripe.frame = CGRect(x: 0, y: 0, width: 6, height: 40)
        stripe.backgroundColor = accent
        bar.addSublayer(stripe)

        let text = CATextLayer()
        text.string = title
        text.font = "DejaVu Sans Bold" as NSString
        text.fontSize = 18
        text.foregroundColor = CGColor(gray: 1, alpha: 1)
        text.frame = CGRect(x: 16, y: 9, width: 200, height: 24)
        text.opacity = 0
        let show = CABasicAnimation(keyPath: "opacity")
        show.fromValue = 0
        show.toValue = 1
        show.beginTime = 0.4
        show.duration = 0.3
        show.fillMode = .forwards
        show.isRemovedOnCompletion = false
        text.add(show, forKey: "show")
        bar.addSublayer(text)
        return card
    }
}

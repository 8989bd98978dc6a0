import Foundation
import Geometry
import Animation
import Filters
import Layers

// Benchmark scenes of compositingFilter and filters (issue 13): blend modes and blurs over
// video-sized content, the same scene without them, and the goal's pair — one radius-20 blur of
// a 400×300 layer against ten plain full-frame layers.

extension BenchScenes {
    static func filterScenes(width: Int, height: Int) -> [Scene] {
        [overVideo(filtered: true, width, height), overVideo(filtered: false, width, height),
         blurredCard(width, height), fullFrameLayers(10, width, height)]
    }

    /// A frame-sized picture standing in for a decoded video frame.
    static func videoFrame(_ width: Int, _ height: Int) -> CGImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8((x * 255) / max(1, width - 1))
                pixels[i + 1] = UInt8((y * 255) / max(1, height - 1))
                pixels[i + 2] = UInt8(((x / 16 + y / 16) % 2) * 120 + 60)
            }
        }
        return CGImage(width: width, height: height, premultipliedRGBA: pixels)!
    }

    static let blendModes = ["multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "softLightBlendMode", "hardLightBlendMode",
                             "colorDodgeBlendMode", "colorBurnBlendMode", "darkenBlendMode", "lightenBlendMode", "differenceBlendMode",
                             "exclusionBlendMode", "hueBlendMode", "saturationBlendMode", "colorBlendMode", "luminosityBlendMode",
                             "CIAdditionCompositing"]

    /// 20 moving blend-mode cards (gradients, some with a sublayer so they flatten) and 5
    /// blurred cards (radius 8–20) over a full-frame picture; or the same layers plain.
    static func overVideo(filtered: Bool, _ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        root.sublayerTransform = CATransform3DIdentity
        let video = CALayer()
        video.frame = root.bounds
        video.contents = videoFrame(width, height)
        root.addSublayer(video)
        for i in 0..<20 {
            let card = CAGradientLayer()
            card.bounds = CGRect(x: 0, y: 0, width: 220, height: 130)
            card.position = CGPoint(x: Double((i * 233) % width), y: Double((i * 97) % height))
            card.colors = [CGColor(red: 0.9, green: 0.3 + 0.03 * Double(i), blue: 0.2, alpha: 0.9),
                           CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.7)]
            card.cornerRadius = 16
            if i % 4 == 0 {
                let badge = CALayer()
                badge.frame = CGRect(x: 20, y: 20, width: 60, height: 40)
                badge.backgroundColor = CGColor(gray: 1, alpha: 0.8)
                card.addSublayer(badge)
            }
            if filtered { card.compositingFilter = blendModes[i % blendModes.count] }
            let drift = CABasicAnimation(keyPath: "position.x")
            drift.byValue = 80
            drift.duration = 2 + Double(i % 5) * 0.3
            drift.autoreverses = true
            drift.repeatCount = .infinity
            card.add(drift, forKey: "drift", atMediaTime: 0)
            root.addSublayer(card)
        }
        for i in 0..<5 {
            let card = CALayer()
            card.frame = CGRect(x: 60 + Double(i) * Double(width - 300) / 5, y: Double(height) * 0.55, width: 240, height: 160)
            card.contents = texture
            card.cornerRadius = 12
            card.masksToBounds = true
            if filtered {
                card.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 8 + 3 * i])!]
            }
            root.addSublayer(card)
        }
        return Scene(name: filtered ? "filters: 20 blend + 5 blurred over video" : "filters: the same without filters", root: root, floorLayers: nil)
    }

    /// One 400×300 textured layer blurred with radius 20 (the goal: at most the cost of ten
    /// plain full-frame layers).
    static func blurredCard(_ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        root.sublayerTransform = CATransform3DIdentity
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        card.position = CGPoint(x: Double(width) / 2, y: Double(height) / 2)
        card.contents = texture
        card.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 20])!]
        root.addSublayer(card)
        return Scene(name: "filters: blur r20 on 400x300", root: root, floorLayers: nil)
    }

    /// Ten translucent full-frame layers.
    static func fullFrameLayers(_ count: Int, _ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        root.sublayerTransform = CATransform3DIdentity
        for i in 0..<count {
            let layer = CALayer()
            layer.frame = root.bounds
            layer.contents = texture
            layer.opacity = 0.5 + 0.04 * Float(i)
            root.addSublayer(layer)
        }
        return Scene(name: "filters: \(count) plain full-frame layers", root: root, floorLayers: nil)
    }
}

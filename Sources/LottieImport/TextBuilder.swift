import Foundation
import Geometry
import Layers

/// Text layers: lottie-ios draws a document's first text keyframe with the font named in the
/// file; here a `CATextLayer` draws it (fonts resolve through fontconfig).
enum TextBuilder {
    static func build(_ text: LottieTextModel, in layer: CALayer, bounds: CGRect) {
        let container = CALayer()
        container.anchorPoint = .zero
        container.bounds = bounds
        container.position = .zero
        let textLayer = CATextLayer()
        let content = text.text.replacingOccurrences(of: "\r", with: "\n")
        textLayer.string = content
        textLayer.font = text.fontName
        textLayer.fontSize = text.fontSize
        if let c = text.fillColor { textLayer.foregroundColor = LayerTreeBuilder.color(c) }
        textLayer.alignmentMode = switch text.justification { case 1: .right; case 2: .center; default: .left }
        let lines = max(1, content.split(separator: "\n", omittingEmptySubsequences: false).count)
        // lottie-ios's text layer is as tall as its lines: `lh` only ever adds space (a paragraph
        // style's line spacing is never negative), so a tiny `lh` still shows whole lines.
        let lineHeight = max(text.lineHeight, text.fontSize * 1.2)
        if let size = text.boxSize, size.count >= 2, let p = text.boxPosition, p.count >= 2 {
            textLayer.isWrapped = true
            textLayer.anchorPoint = .zero
            textLayer.bounds = CGRect(x: 0, y: 0, width: size[0], height: size[1])
            textLayer.position = CGPoint(x: p[0], y: p[1])
        } else {
            // Point text: the first baseline sits at the layer's origin; justification is about x = 0.
            let width = max(1, Double(text.text.count) * text.fontSize)
            let x: Double = switch text.justification { case 1: -width; case 2: -width / 2; default: 0 }
            textLayer.anchorPoint = .zero
            textLayer.bounds = CGRect(x: 0, y: 0, width: width, height: lineHeight * Double(lines))
            // lottie-ios anchors its text layer at the first baseline: the layer's top is one
            // ascent of the face the name resolves to above the text's origin.
            textLayer.position = CGPoint(x: x, y: -text.fontSize * (ascent(of: text.fontName) ?? 0.8))
        }
        container.addSublayer(textLayer)
        layer.addSublayer(container)
    }

    /// The ascent of `name`'s face; a PostScript style suffix ("-Bold") is tried without too.
    private static func ascent(of name: String) -> Double? {
        if let hyphen = name.lastIndex(of: "-"), hyphen != name.startIndex {
            return FontFiles.ascent(of: String(name[..<hyphen]))
        }
        return FontFiles.ascent(of: name)
    }
}

import Foundation
import Geometry
import Timing

/// A layer that draws text into its contents. Core Animation: `CATextLayer`.
open class CATextLayer: CALayer {
    open override func configureContent() {
        if case .text = properties.content { return }
        properties.content = .text(TextProperties())
    }

    /// The class-specific properties.
    public var text: TextProperties {
        if case .text(let t) = properties.content { return t }
        return TextProperties()
    }

    private func set<V>(_ key: LayerKey?, _ path: WritableKeyPath<TextProperties, V>, _ value: V) {
        updateContent(key) { content in
            guard case .text(var t) = content else { return }
            t[keyPath: path] = value
            content = .text(t)
        }
    }

    /// The text: a `String`, an `NSAttributedString`, or `[TextRun]` for attributed runs.
    public var string: Any? {
        get { text.runs.map { $0 as Any } ?? text.string }
        set {
            switch newValue {
            case let runs as [TextRun]: set(nil, \.runs, runs); set(nil, \.string, runs.map(\.text).joined())
            case let attributed as NSAttributedString: set(nil, \.runs, nil); set(nil, \.string, attributed.string)
            case let plain as String: set(nil, \.runs, nil); set(nil, \.string, plain)
            default: set(nil, \.runs, nil); set(nil, \.string, nil)
            }
        }
    }
    /// The font: a font name (`String`) or a `UIFont`. Its own size is ignored; `fontSize` rules.
    public var font: Any? {
        get { text.font }
        set {
            switch newValue {
            case let name as String: set(nil, \.font, name)
            case let font as UIFont: set(nil, \.font, font.fontName)
            default: set(nil, \.font, "Helvetica")
            }
        }
    }
    public var fontSize: CGFloat { get { text.fontSize } set { set(.fontSize, \.fontSize, newValue) } }
    public var foregroundColor: CGColor? { get { text.foregroundColor } set { set(.foregroundColor, \.foregroundColor, newValue) } }
    public var isWrapped: Bool { get { text.isWrapped } set { set(nil, \.isWrapped, newValue) } }
    public var truncationMode: CATextLayerTruncationMode { get { text.truncationMode } set { set(nil, \.truncationMode, newValue) } }
    public var alignmentMode: CATextLayerAlignmentMode { get { text.alignmentMode } set { set(nil, \.alignmentMode, newValue) } }
    public var allowsFontSubpixelQuantization: Bool {
        get { text.allowsFontSubpixelQuantization }
        set { set(nil, \.allowsFontSubpixelQuantization, newValue) }
    }
}

/// A UIKit-style font reference, so `CATextLayer.font = UIFont(name:size:)` ports unchanged.
public struct UIFont: Hashable, Sendable {
    public var fontName: String
    public var pointSize: CGFloat
    public init?(name: String, size: CGFloat) { fontName = name; pointSize = size }
    public static func systemFont(ofSize size: CGFloat) -> UIFont { UIFont(fontName: "Helvetica", pointSize: size) }
    public static func boldSystemFont(ofSize size: CGFloat) -> UIFont { UIFont(fontName: "Helvetica-Bold", pointSize: size) }
    private init(fontName: String, pointSize: CGFloat) { self.fontName = fontName; self.pointSize = pointSize }
}

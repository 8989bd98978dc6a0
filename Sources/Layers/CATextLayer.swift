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

    /// The value `string` was set to, handed back unchanged by the getter.
    private var assignedString: Any?

    public required init() { super.init() }

    public required init(layer: Any) {
        super.init(layer: layer)
        assignedString = (layer as? CATextLayer)?.assignedString
    }

    /// The text: a `String`, an `NSAttributedString` (its font, size and colour attributes become
    /// runs), or `[TextRun]`.
    public var string: Any? {
        get { assignedString ?? text.runs.map { $0 as Any } ?? text.string }
        set {
            assignedString = newValue
            switch newValue {
            case let runs as [TextRun]: set(nil, \.runs, runs); set(nil, \.string, runs.map(\.text).joined())
            case let attributed as NSAttributedString:
                set(nil, \.runs, Self.runs(of: attributed)); set(nil, \.string, attributed.string)
            case let plain as String: set(nil, \.runs, nil); set(nil, \.string, plain)
            default: set(nil, \.runs, nil); set(nil, \.string, nil)
            }
        }
    }

    /// One run per attribute range: font name and size from `.font` (a `UIFont` or a name),
    /// colour from `.foregroundColor` (a `CGColor` or `UIColor`).
    public static func runs(of attributed: NSAttributedString) -> [TextRun] {
        var runs: [TextRun] = []
        let whole = NSRange(location: 0, length: attributed.length)
        let text = attributed.string as NSString
        attributed.enumerateAttributes(in: whole, options: []) { attributes, range, _ in
            var run = TextRun(text: text.substring(with: range))
            switch attributes[.font] {
            case let font as UIFont: run.font = font.fontName; run.fontSize = font.pointSize
            case let name as String: run.font = name
            default: break
            }
            switch attributes[.foregroundColor] {
            case let color as CGColor: run.color = color
            case let color as UIColor: run.color = color.cgColor
            default: break
            }
            runs.append(run)
        }
        return runs
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

extension NSAttributedString.Key {
    /// The font of a run (`UIFont` or a font name), with Apple's raw value.
    public static let font = NSAttributedString.Key(rawValue: "NSFont")
    /// The colour of a run (`CGColor` or `UIColor`), with Apple's raw value.
    public static let foregroundColor = NSAttributedString.Key(rawValue: "NSColor")
}

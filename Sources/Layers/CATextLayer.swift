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

    private func set<V>(_ key: LayerKey?, _ path: WritableKeyPath<TextProperties, V>, _ value: V, name: String? = nil) {
        updateContent(key, name: name) { content in
            guard case .text(var t) = content else { return }
            t[keyPath: path] = value
            content = .text(t)
        }
    }

    /// The value `string` was set to, handed back unchanged by the getter.
    private var assignedString: Any?

    public override init() { super.init() }

    public override init(layer: Any) {
        super.init(layer: layer)
        assignedString = (layer as? CATextLayer)?.assignedString
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The text layer's drawing keys, as measured on Apple; `bounds` and the contents
    /// properties do not redraw it.
    open override class func needsDisplay(forKey key: String) -> Bool {
        switch key {
        case "string", "font", "fontSize", "foregroundColor", "wrapped", "truncationMode", "alignmentMode",
             "allowsFontSubpixelQuantization", "style", "contentsScale":
            true
        default: super.needsDisplay(forKey: key)
        }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "font": "Helvetica"
        case "fontSize": CGFloat(36)
        case "foregroundColor": CGColor.white
        case "truncationMode": CATextLayerTruncationMode.none
        case "alignmentMode": CATextLayerAlignmentMode.natural
        case "wrapped", "allowsFontSubpixelQuantization": false
        default: super.defaultValue(forKey: key)
        }
    }

    /// The text: a `String`, an `NSAttributedString` (its font, size and colour attributes become
    /// runs), or `[TextRun]`.
    public var string: Any? {
        get { assignedString ?? text.runs.map { $0 as Any } ?? text.string }
        set {
            assignedString = newValue
            switch newValue {
            case let runs as [TextRun]: set(nil, \.runs, runs, name: "string"); set(nil, \.string, runs.map(\.text).joined(), name: "string")
            case let attributed as NSAttributedString:
                set(nil, \.runs, Self.runs(of: attributed), name: "string"); set(nil, \.string, attributed.string, name: "string")
            case let plain as String: set(nil, \.runs, nil, name: "string"); set(nil, \.string, plain, name: "string")
            default: set(nil, \.runs, nil, name: "string"); set(nil, \.string, nil, name: "string")
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
            case let name as String: set(nil, \.font, name, name: "font")
            case let font as UIFont: set(nil, \.font, font.fontName, name: "font")
            default: set(nil, \.font, "Helvetica", name: "font")
            }
        }
    }
    public var fontSize: CGFloat { get { text.fontSize } set { set(.fontSize, \.fontSize, newValue) } }
    public var foregroundColor: CGColor? { get { text.foregroundColor } set { set(.foregroundColor, \.foregroundColor, newValue) } }
    public var isWrapped: Bool { get { text.isWrapped } set { set(nil, \.isWrapped, newValue, name: "wrapped") } }
    public var truncationMode: CATextLayerTruncationMode {
        get { text.truncationMode }
        set { set(nil, \.truncationMode, newValue, name: "truncationMode") }
    }
    public var alignmentMode: CATextLayerAlignmentMode {
        get { text.alignmentMode }
        set { set(nil, \.alignmentMode, newValue, name: "alignmentMode") }
    }
    public var allowsFontSubpixelQuantization: Bool {
        get { text.allowsFontSubpixelQuantization }
        set { set(nil, \.allowsFontSubpixelQuantization, newValue, name: "allowsFontSubpixelQuantization") }
    }
}

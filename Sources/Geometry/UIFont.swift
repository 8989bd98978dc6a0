import Foundation

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

extension NSAttributedString.Key {
    /// The paragraph's alignment and line breaking (an `NSParagraphStyle`), with Apple's raw value.
    public static let paragraphStyle = NSAttributedString.Key(rawValue: "NSParagraphStyle")
}

/// Horizontal alignment of text lines. UIKit: `NSTextAlignment`.
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center = 1, right = 2, justified = 3, natural = 4
}

/// How a line too long for its box ends. UIKit: `NSLineBreakMode`.
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}

/// Paragraph attributes of attributed text. UIKit: `NSParagraphStyle`.
open class NSParagraphStyle: NSObject, @unchecked Sendable {
    open internal(set) var alignment: NSTextAlignment = .natural
    open internal(set) var lineBreakMode: NSLineBreakMode = .byWordWrapping
    /// The default style: natural alignment, word wrapping.
    public static let `default` = NSParagraphStyle()
    public override init() { super.init() }
}

/// A paragraph style whose attributes can be set. UIKit: `NSMutableParagraphStyle`.
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    open override var alignment: NSTextAlignment {
        get { super.alignment }
        set { super.alignment = newValue }
    }
    open override var lineBreakMode: NSLineBreakMode {
        get { super.lineBreakMode }
        set { super.lineBreakMode = newValue }
    }
}

import Foundation
import Geometry
import Layers
import Rendering

/// One run of attributed text with all of its attributes resolved.
public struct TextRasterRun: Hashable, Sendable {
    /// The characters.
    public var text: String
    /// A family ("DejaVu Sans") or PostScript-style name ("DejaVuSans-Bold"); see ``FontName``.
    public var font: String
    /// An OpenType weight (400 regular, 700 bold) overriding the one in `font`'s name.
    public var weight: Int?
    /// Italic or upright, overriding the style in `font`'s name.
    public var italic: Bool?
    /// The em size in points.
    public var fontSize: CGFloat
    /// The colour (straight alpha).
    public var color: CGColor

    /// A run with every attribute given.
    public init(text: String, font: String, weight: Int? = nil, italic: Bool? = nil,
                fontSize: CGFloat, color: CGColor) {
        self.text = text
        self.font = font
        self.weight = weight
        self.italic = italic
        self.fontSize = fontSize
        self.color = color
    }

    /// A layer's run; attributes it lacks get Core Text's defaults, Helvetica 12 and black (§15.3).
    public init(_ run: TextRun) {
        self.init(text: run.text, font: run.font ?? "Helvetica", fontSize: run.fontSize ?? 12,
                  color: run.color ?? .black)
    }

    /// The font request: the parsed name with this run's overrides.
    var fontName: FontName {
        var name = FontName(parsing: font)
        if let weight { name.weight = weight }
        if let italic { name.italic = italic }
        return name
    }
}

/// Everything that determines a text layer's pixels. Equal inputs give equal images, so this is
/// also the ``ContentCache`` key. Defaults are `CATextLayer`'s (§15.3).
public struct TextRasterInput: Hashable, Sendable {
    /// Plain text drawn with `font`, `fontSize` and `foregroundColor`, or runs carrying their own.
    public enum Content: Hashable, Sendable {
        /// One string in the input's `font`, `fontSize` and `foregroundColor`.
        case plain(String)
        /// Attributed text; the input's font, size and colour are ignored (§15.3).
        case runs([TextRasterRun])
    }

    /// The text.
    public var content: Content
    /// The font of plain text, by family or PostScript-style name. Default "Helvetica".
    public var font: String
    /// The em size of plain text, in points. Default 36.
    public var fontSize: CGFloat
    /// The colour of plain text; nil draws black, Core Text's default. Default opaque white.
    public var foregroundColor: CGColor?
    /// Horizontal placement of each line within the bounds width. Default natural.
    public var alignmentMode: CATextLayerAlignmentMode
    /// Whether lines break at word boundaries to fit the bounds width. Default false.
    public var isWrapped: Bool
    /// Where an ellipsis replaces text of a line too wide for the bounds. Default none.
    public var truncationMode: CATextLayerTruncationMode
    /// The layer's bounds size, in points; the image covers exactly this.
    public var size: CGSize
    /// Pixels per point (the layer's `contentsScale`).
    public var scale: CGFloat
    /// Only this part of the bounds (points from the bounds' origin) is drawn, into an image of
    /// its size; nil draws all of it. Lines are still laid out in the whole bounds.
    public var region: CGRect?

    /// An input with the given values; every default is `CATextLayer`'s.
    public init(content: Content, font: String = "Helvetica", fontSize: CGFloat = 36,
                foregroundColor: CGColor? = .white, alignmentMode: CATextLayerAlignmentMode = .natural,
                isWrapped: Bool = false, truncationMode: CATextLayerTruncationMode = .none,
                size: CGSize, scale: CGFloat = 1) {
        self.content = content
        self.font = font
        self.fontSize = fontSize
        self.foregroundColor = foregroundColor
        self.alignmentMode = alignmentMode
        self.isWrapped = isWrapped
        self.truncationMode = truncationMode
        self.size = size
        self.scale = scale
    }

    /// The input for a text layer's properties at its bounds size and `contentsScale`.
    public init(text: TextProperties, size: CGSize, scale: CGFloat) {
        let content: Content = text.runs.map { .runs($0.map(TextRasterRun.init)) } ?? .plain(text.string ?? "")
        self.init(content: content, font: text.font, fontSize: text.fontSize, foregroundColor: text.foregroundColor,
                  alignmentMode: text.alignmentMode, isWrapped: text.isWrapped,
                  truncationMode: text.truncationMode, size: size, scale: scale)
    }

    /// The text as runs: plain text becomes one run with the layer's font, size and colour.
    var resolvedRuns: [TextRasterRun] {
        switch content {
        case .plain(let string):
            [TextRasterRun(text: string, font: font, fontSize: fontSize, color: foregroundColor ?? .black)]
        case .runs(let runs):
            runs
        }
    }

    /// The image size in pixels: the bounds (or `region`) at `scale`, rounded up.
    var pixelSize: (width: Int, height: Int) {
        let s = scale > 0 && scale.isFinite ? scale : 1
        let drawn = region?.size ?? size
        return (pixelCount(drawn.width * s), pixelCount(drawn.height * s))
    }
}

/// A rasterized text layer: its image and what went differently from the request.
public struct RasterizedText: Equatable, Sendable {
    /// The text drawn into an image of the bounds size at the input's scale; nil when that size
    /// is empty or too large.
    public var image: Image?
    /// Problems worth telling the user, such as
    /// `font "GillSans-Bold" is not installed; using "DejaVu Sans Bold"`.
    public var warnings: [String]
    /// The number of lines laid out (drawn or cut off by the bounds).
    public var lineCount: Int
    /// Whether an ellipsis replaced some of the text (`truncationMode` took effect).
    public var isTruncated: Bool

    /// A result with the given parts.
    public init(image: Image?, warnings: [String], lineCount: Int, isTruncated: Bool = false) {
        self.image = image
        self.warnings = warnings
        self.lineCount = lineCount
        self.isTruncated = isTruncated
    }
}

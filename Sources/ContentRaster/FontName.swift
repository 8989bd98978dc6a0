import Foundation

/// A font request split into what fontconfig matches on: family, weight, slant and width.
///
/// Core Animation names fonts by PostScript name ("Helvetica-Bold", "GillSans-SemiBoldItalic",
/// "HelveticaNeue-CondensedBlack") or by family ("Helvetica"). fontconfig matches families
/// ignoring case and spaces, so "GillSans" finds "Gill Sans"; the style suffix has to become
/// weight, slant and width. Space-separated style words ("DejaVu Sans Bold") are understood too.
public struct FontName: Hashable, Sendable {
    /// The family to ask fontconfig for, e.g. "GillSans".
    public var family: String
    /// CSS/OpenType weight, 100 (thin) … 1000; 400 is regular, 700 bold (Pango's scale).
    public var weight: Int
    /// Whether an italic or oblique face is wanted.
    public var italic: Bool
    /// Width: negative condensed (-1 … -4), 0 normal, positive expanded (1 … 4), Pango's steps
    /// around `PANGO_STRETCH_NORMAL`.
    public var stretch: Int

    /// A request for `family` with the given style.
    public init(family: String, weight: Int = 400, italic: Bool = false, stretch: Int = 0) {
        self.family = family
        self.weight = weight
        self.italic = italic
        self.stretch = stretch
    }

    /// Parses a PostScript-style ("Family-Style") or space-separated ("Family Style") name.
    /// A suffix that is not made only of style words is part of the family ("sans-serif").
    public init(parsing name: String) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if let hyphen = trimmed.lastIndex(of: "-"), hyphen != trimmed.startIndex,
           let style = FontStyle(trimmed[trimmed.index(after: hyphen)...]) {
            self.init(family: String(trimmed[..<hyphen]), style: style)
            return
        }
        // Trailing style words, as in "DejaVu Sans Bold Oblique".
        var words = trimmed.split(separator: " ")
        var style = FontStyle()
        while words.count > 1, let word = words.last, let wordStyle = FontStyle(word) {
            style.merge(under: wordStyle)
            words.removeLast()
        }
        self.init(family: words.isEmpty ? trimmed : words.joined(separator: " "), style: style)
    }

    private init(family: String, style: FontStyle) {
        self.init(family: family, weight: style.weight ?? 400, italic: style.italic, stretch: style.stretch ?? 0)
    }

    /// The family folded as fontconfig compares families: case and spaces ignored.
    var matchKey: String { Self.matchKey(family) }

    static func matchKey(_ family: String) -> String {
        family.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" }
    }

    /// Generic families that name no particular font, so resolving them is no substitution.
    static let genericFamilies: Set<String> = [
        "sans", "sansserif", "serif", "mono", "monospace", "systemui", "cursive", "fantasy",
    ]
}

/// The style words of a font name, parsed from camel-case tokens ("CondensedExtraBold").
struct FontStyle {
    var weight: Int?
    var italic = false
    var stretch: Int?

    init() {}

    /// Parses a style suffix; nil when any token is not a style word.
    init?<S: StringProtocol>(_ text: S) {
        let tokens = Self.tokens(of: text)
        guard !tokens.isEmpty else { return nil }
        var modifier: String?
        for token in tokens {
            if ["extra", "ultra", "semi", "demi"].contains(token) {
                guard modifier == nil else { return nil }
                modifier = token
                continue
            }
            let word = (modifier ?? "") + token
            modifier = nil
            if let w = Self.weights[word] {
                weight = w
            } else if let s = Self.stretches[word] {
                stretch = s
            } else if ["italic", "oblique", "it", "slanted", "inclined"].contains(word) {
                italic = true
            } else if !["regular", "roman", "book", "normal", "plain", "upright", "std", "mt", "ps"].contains(word) {
                return nil
            }
        }
        switch modifier {
        case nil: break
        case "demi", "semi": weight = 600  // "Futura-Demi"
        default: return nil  // "Extra" alone is no style
        }
    }

    /// Combines a style found to the left of this one (words are read from the end).
    mutating func merge(under other: FontStyle) {
        weight = weight ?? other.weight
        stretch = stretch ?? other.stretch
        italic = italic || other.italic
    }

    /// Lower-cased words split at case changes and digits: "SemiBoldItalic" → semi, bold, italic.
    static func tokens<S: StringProtocol>(of text: S) -> [String] {
        var tokens: [String] = []
        var current = ""
        for character in text {
            if character.isUppercase, let last = current.last, !last.isUppercase {
                tokens.append(current.lowercased())
                current = ""
            }
            if character == " " || character == "_" {
                if !current.isEmpty { tokens.append(current.lowercased()) }
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { tokens.append(current.lowercased()) }
        return tokens
    }

    /// Style words → OpenType weights (Pango's `PangoWeight` values).
    static let weights: [String: Int] = [
        "thin": 100, "hairline": 100, "extralight": 200, "ultralight": 200, "light": 300,
        "semilight": 350, "demilight": 350, "medium": 500, "semibold": 600, "demibold": 600,
        "demi": 600, "bold": 700, "extrabold": 800, "ultrabold": 800, "heavy": 900, "black": 900,
        "extrablack": 1000, "ultrablack": 1000, "ultraheavy": 1000,
    ]

    /// Width words → steps from normal (Pango's `PangoStretch` − `PANGO_STRETCH_NORMAL`).
    static let stretches: [String: Int] = [
        "ultracondensed": -4, "extracondensed": -3, "condensed": -2, "compressed": -2, "narrow": -2,
        "semicondensed": -1, "semiexpanded": 1, "expanded": 2, "extended": 2, "wide": 2,
        "extraexpanded": 3, "ultraexpanded": 4,
    ]
}

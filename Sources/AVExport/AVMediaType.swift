import Foundation

/// The kind of media a track holds. AVFoundation: `AVMediaType` (the four-character codes).
public struct AVMediaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let video = AVMediaType(rawValue: "vide")
    public static let audio = AVMediaType(rawValue: "soun")
    public static let text = AVMediaType(rawValue: "text")
    public static let subtitle = AVMediaType(rawValue: "sbtl")
    public static let closedCaption = AVMediaType(rawValue: "clcp")
    public static let timecode = AVMediaType(rawValue: "tmcd")
    public static let metadata = AVMediaType(rawValue: "meta")
    public static let muxed = AVMediaType(rawValue: "muxx")

    public var description: String { rawValue }
}

/// A container format an export writes. AVFoundation: `AVFileType` (uniform type identifiers).
public struct AVFileType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// QuickTime movie (`.mov`).
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    /// MPEG-4 (`.mp4`).
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// iTunes video (`.m4v`): MPEG-4 with Apple's extension.
    public static let m4v = AVFileType(rawValue: "com.apple.m4v-video")
    /// MPEG-4 audio (`.m4a`); Lamina cannot write it (no audio-only export).
    public static let m4a = AVFileType(rawValue: "com.apple.m4a-audio")

    public var description: String { rawValue }

    /// The extension files of this type usually have.
    var pathExtension: String? {
        switch self {
        case .mov: "mov"
        case .mp4: "mp4"
        case .m4v: "m4v"
        case .m4a: "m4a"
        default: nil
        }
    }
}

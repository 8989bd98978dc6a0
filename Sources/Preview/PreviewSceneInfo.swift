import Foundation
import Presentation
import Export

/// What the page needs to know of the loaded scene version.
public struct PreviewSceneInfo: Sendable, Equatable {
    /// Counts successful loads from 1; frames are asked for by version.
    public var version: Int
    public var fileName: String
    /// Output size in pixels and pixels per point.
    public var width: Int
    public var height: Int
    public var scale: Double
    public var framesPerSecond: Double
    /// Seconds of one frame (`FrameClock.frameDuration`): the page's playback pace.
    public var frameDuration: Double
    /// Frames 0 … frameCount − 1 (the scene's duration, through `FrameClock`).
    public var frameCount: Int
    /// Things the preview shows differently from a render (no duration given, a video not shown).
    public var notes: [String]

    /// The version's frame clock.
    public var clock: FrameClock { FrameClock(framesPerSecond: framesPerSecond) }

    /// The cache key of frame `index` in `view`.
    func key(frame index: Int, view: PreviewView) -> FrameKey {
        FrameKey(version: version, time: clock.time(ofFrame: index), view: view, width: width, height: height)
    }
}

/// The preview's state as the page polls it: the scene version it can show, and the last
/// load's problems (the last good version stays showable while the file is broken).
public struct PreviewStatus: Sendable, Equatable {
    /// The last version that loaded; nil until one has.
    public var scene: PreviewSceneInfo?
    /// Counts loads tried, good or bad.
    public var attempt: Int
    /// The last load's problems (`file:line:column: path: reason` lines); nil when it loaded.
    public var error: String?
    /// The files watched for changes: the scene file and its assets.
    public var watchedFiles: [String]

    /// The status as the JSON of `/api/status`, with the view the page starts in.
    public func json(view: PreviewView = .gpu) -> String {
        var fields = ["\"attempt\": \(attempt)", "\"view\": \"\(view.rawValue)\"", "\"error\": \(error.map(PresentationJSON.string) ?? "null")",
                      "\"files\": [\(watchedFiles.map(PresentationJSON.string).joined(separator: ", "))]"]
        if let s = scene {
            fields.append("\"scene\": {\"version\": \(s.version), \"file\": \(PresentationJSON.string(s.fileName)), "
                          + "\"width\": \(s.width), \"height\": \(s.height), \"scale\": \(PresentationJSON.number(s.scale)), "
                          + "\"fps\": \(PresentationJSON.number(s.framesPerSecond)), \"frameDuration\": \(PresentationJSON.number(s.frameDuration)), "
                          + "\"frameCount\": \(s.frameCount), \"notes\": [\(s.notes.map(PresentationJSON.string).joined(separator: ", "))]}")
        } else {
            fields.append("\"scene\": null")
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }
}

/// Why a request for a frame, a comparison or a tree could not be answered.
public struct PreviewError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status that says it.
    public var status: Int
    public var message: String
    public init(status: Int, message: String) { self.status = status; self.message = message }
    public var description: String { message }

    static let notLoaded = PreviewError(status: 409, message: "the scene has not loaded yet")
}

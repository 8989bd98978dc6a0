import Foundation
import Layers

/// The container of an input video, read from its first bytes before any ffmpeg program opens
/// it, and the demuxer ffmpeg is then forced to use.
///
/// Left to guess, ffmpeg picks a demuxer by content: a text file named `input.mp4` that holds an
/// HLS playlist is opened by the `hls` demuxer, which reads every file (and URL) the playlist
/// names; an `ffconcat` list does the same. So inputs are opened only as the containers Lamina
/// reads, with that demuxer forced and no protocol but `file` and `pipe` (`inputArguments`), and
/// playlists and lists are refused with a reason.
public enum VideoContainer: String, Sendable, Equatable {
    /// QuickTime / ISO base media (MOV, MP4, M4V): ffmpeg's `mov` demuxer.
    case mov
    /// Matroska and WebM: the `matroska` demuxer.
    case matroska
    /// AVI: the `avi` demuxer.
    case avi

    /// ffmpeg's demuxer name (`-f`).
    public var demuxer: String { rawValue }

    /// Protocols an input may use: its own file, and ffmpeg's pipes.
    public static let protocols = "file,pipe"

    /// The container of `path`, refusing what is no video file of a known container (a playlist,
    /// a concat list, text, an image), a fifo, device or socket, and a missing file.
    public static func of(_ path: String) throws(ExportError) -> VideoContainer {
        let bytes: [UInt8]
        switch InputFile.readPrefix(path, limit: 64) {
        case .failure(let error): throw .badInput(path: path, reason: error.reason)
        case .success(let prefix): bytes = prefix
        }
        if let container = sniff(bytes) { return container }
        let text = String(decoding: bytes.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }, as: UTF8.self)
        if text.hasPrefix("#EXTM3U") || text.hasPrefix("#EXTINF") {
            throw .badInput(path: path, reason: "is an HLS/M3U playlist, not a video file (playlists name other files and are refused)")
        }
        if text.hasPrefix("ffconcat") || text.hasPrefix("file ") || text.hasPrefix("file\t") {
            throw .badInput(path: path, reason: "is an ffmpeg concat list, not a video file (lists name other files and are refused)")
        }
        if bytes.isEmpty { throw .badInput(path: path, reason: "is empty, not a video file") }
        throw .badInput(path: path, reason: "is not an MP4/MOV, Matroska/WebM or AVI video file")
    }

    /// The container `bytes` (a file's first bytes) start like, nil for anything else.
    public static func sniff(_ bytes: [UInt8]) -> VideoContainer? {
        if bytes.count >= 8 {
            // ISO base media and QuickTime: a box size, then a box type at offset 4.
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot"].contains(type) { return .mov }
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("AVI ".utf8) { return .avi }
        return nil
    }

    /// `-f DEMUXER -protocol_whitelist file,pipe` then `-i file:PATH` (ffmpeg) or the input alone
    /// (ffprobe, `forProbe`): the input opened as exactly this container, its name never read
    /// as a protocol or an option.
    public func inputArguments(_ path: String, forProbe: Bool = false, before: [String] = []) -> [String] {
        ["-f", demuxer, "-protocol_whitelist", Self.protocols] + before + (forProbe ? [] : ["-i"]) + ["file:" + path]
    }
}

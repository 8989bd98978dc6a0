import Foundation
import Geometry
import Export

// AVFoundation's export preset names (the strings are Apple's).
public let AVAssetExportPresetLowQuality = "AVAssetExportPresetLowQuality"
public let AVAssetExportPresetMediumQuality = "AVAssetExportPresetMediumQuality"
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
public let AVAssetExportPreset640x480 = "AVAssetExportPreset640x480"
public let AVAssetExportPreset960x540 = "AVAssetExportPreset960x540"
public let AVAssetExportPreset1280x720 = "AVAssetExportPreset1280x720"
public let AVAssetExportPreset1920x1080 = "AVAssetExportPreset1920x1080"
public let AVAssetExportPreset3840x2160 = "AVAssetExportPreset3840x2160"
public let AVAssetExportPresetPassthrough = "AVAssetExportPresetPassthrough"
public let AVAssetExportPresetAppleProRes4444LPCM = "AVAssetExportPresetAppleProRes4444LPCM"

/// What a preset means here: the encoder, its quality, the largest output, the file types.
struct ExportPreset: Sendable {
    var name: String
    /// H.264 constant quantizer (lower is better); unused by ProRes and passthrough.
    var quality: Int
    /// The output fits in this box (aspect kept, never enlarged); nil keeps the render size.
    var maximumSize: (width: Int, height: Int)?
    var prores = false
    var passthrough = false

    var fileTypes: [AVFileType] { prores ? [.mov] : [.mov, .mp4, .m4v] }

    static let all: [ExportPreset] = [
        ExportPreset(name: AVAssetExportPresetLowQuality, quality: 32, maximumSize: nil),
        ExportPreset(name: AVAssetExportPresetMediumQuality, quality: 26, maximumSize: nil),
        ExportPreset(name: AVAssetExportPresetHighestQuality, quality: 18, maximumSize: nil),
        ExportPreset(name: AVAssetExportPreset640x480, quality: 20, maximumSize: (640, 480)),
        ExportPreset(name: AVAssetExportPreset960x540, quality: 20, maximumSize: (960, 540)),
        ExportPreset(name: AVAssetExportPreset1280x720, quality: 20, maximumSize: (1280, 720)),
        ExportPreset(name: AVAssetExportPreset1920x1080, quality: 20, maximumSize: (1920, 1080)),
        ExportPreset(name: AVAssetExportPreset3840x2160, quality: 20, maximumSize: (3840, 2160)),
        ExportPreset(name: AVAssetExportPresetPassthrough, quality: 18, maximumSize: nil, passthrough: true),
        ExportPreset(name: AVAssetExportPresetAppleProRes4444LPCM, quality: 0, maximumSize: nil, prores: true),
    ]

    static func named(_ name: String) -> ExportPreset? { all.first { $0.name == name } }

    /// The output size for a render size: fitted into `maximumSize` (landscape or portrait,
    /// whichever way the video is), even sides for 4:2:0, never enlarged.
    func outputSize(for render: CGSize) -> (width: Int, height: Int, scale: CGFloat) {
        var scale: CGFloat = 1
        if let box = maximumSize {
            let (long, short) = (CGFloat(max(box.width, box.height)), CGFloat(min(box.width, box.height)))
            let (w, h) = render.width >= render.height ? (long, short) : (short, long)
            scale = min(1, w / render.width, h / render.height)
        }
        var width = Int((render.width * scale).rounded()), height = Int((render.height * scale).rounded())
        if scale < 1 { width -= width % 2; height -= height % 2 }
        return (max(width, 1), max(height, 1), scale)
    }

    /// The output kind for a file type.
    func kind(for type: AVFileType) -> OutputKind? {
        guard fileTypes.contains(type) else { return nil }
        if prores { return .prores4444 }
        return type == .mov ? .h264MOV : .h264MP4
    }
}

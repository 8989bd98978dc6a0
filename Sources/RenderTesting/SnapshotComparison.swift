import Foundation
import Rendering
import ImageIO

/// The outcome of comparing a rendered frame with a reference PNG.
public struct SnapshotResult: CustomStringConvertible {
    public var matches: Bool
    public var difference: ImageDifference?
    /// Files written when the frame did not match (actual, reference copy, difference image).
    public var artifacts: [URL]
    public var message: String
    public var description: String { message }
}

/// Snapshot testing of rendered frames against reference PNGs, with a stated tolerance.
///
/// On a mismatch the actual frame and a difference image are written next to the reference
/// (`NAME.actual.png`, `NAME.diff.png`) and named in the message. A missing reference is a failure
/// unless `record` is set, and recording fails too, so no reference appears unseen.
public enum Snapshot {
    /// Compares `image` with the PNG at `reference`.
    ///
    /// - Parameters:
    ///   - maxChannelDifference: largest allowed difference of any channel (0…255).
    ///   - allowedPixelFraction: fraction of pixels allowed to differ by more than `maxChannelDifference`.
    ///   - record: write `image` as the new reference (the result is still a failure).
    public static func compare(_ image: Image, reference: URL, maxChannelDifference: Int = 2,
                               allowedPixelFraction: Double = 0, record: Bool = false) -> SnapshotResult {
        if record {
            do {
                try ImageFile.writePNG(image, to: reference, overwrite: true)
                return SnapshotResult(matches: false, difference: nil, artifacts: [reference],
                                      message: "recorded \(reference.path); check it and run again without recording")
            } catch {
                return SnapshotResult(matches: false, difference: nil, artifacts: [], message: "cannot record: \(error)")
            }
        }
        let expected: Image
        do {
            expected = try ImageFile.read(contentsOf: reference)
        } catch {
            let actual = reference.deletingPathExtension().appendingPathExtension("actual.png")
            try? ImageFile.writePNG(image, to: actual, overwrite: true)
            return SnapshotResult(matches: false, difference: nil, artifacts: [actual],
                                  message: "no reference at \(reference.path) (\(error)); the frame is in \(actual.path)")
        }
        guard let difference = ImageComparison.compare(image, expected, tolerance: maxChannelDifference) else {
            return SnapshotResult(matches: false, difference: nil, artifacts: [],
                                  message: "size \(image.width)x\(image.height) differs from the reference's \(expected.width)x\(expected.height)")
        }
        let allowed = Int((Double(difference.pixelCount) * allowedPixelFraction).rounded(.down))
        if difference.pixelsOverTolerance <= allowed {
            return SnapshotResult(matches: true, difference: difference, artifacts: [], message: "matches \(reference.lastPathComponent)")
        }
        let base = reference.deletingPathExtension()
        let actualURL = base.appendingPathExtension("actual.png"), diffURL = base.appendingPathExtension("diff.png")
        try? ImageFile.writePNG(image, to: actualURL, overwrite: true)
        if let diff = ImageComparison.differenceImage(image, expected) { try? ImageFile.writePNG(diff, to: diffURL, overwrite: true) }
        return SnapshotResult(
            matches: false, difference: difference, artifacts: [actualURL, diffURL],
            message: "\(difference.pixelsOverTolerance) pixels differ by more than \(maxChannelDifference)/255 (allowed \(allowed)), max \(difference.maxChannelDifference), PSNR \(String(format: "%.2f", difference.psnr)) dB; actual: \(actualURL.path), difference: \(diffURL.path)")
    }
}

import Foundation
import Geometry
import Layers
import Presentation
import Rendering
import ImageIO
import Export

extension Diffing where Value == Image {
    /// PNG references compared with `precision` (share of pixels that must match) and
    /// `perceptualPrecision` (how close a matching pixel must be; 1 is exact); see
    /// `PerceptualDifference`. A failure writes the actual frame and a difference image.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Diffing {
        Diffing(
            toData: { Data(try PNGCodec.encode($0)) },
            fromData: { try PNGCodec.decode([UInt8]($0)) },
            diff: { reference, actual in
                guard reference.width == actual.width, reference.height == actual.height else {
                    return ("the image is \(actual.width)×\(actual.height), the reference \(reference.width)×\(reference.height)",
                            [(suffix: "actual.png", data: (try? Data(PNGCodec.encode(actual))) ?? Data())])
                }
                if reference.pixels == actual.pixels { return nil }
                let fraction = PerceptualDifference.matchingFraction(reference, actual, perceptualPrecision: perceptualPrecision) ?? 0
                if fraction >= Double(precision) { return nil }
                let stats = ImageComparison.compare(reference, actual, tolerance: 0)
                var artifacts: [(suffix: String, data: Data)] = []
                if let png = try? PNGCodec.encode(actual) { artifacts.append(("actual.png", Data(png))) }
                if let difference = ImageComparison.differenceImage(reference, actual), let png = try? PNGCodec.encode(difference) {
                    artifacts.append(("diff.png", Data(png)))
                }
                let psnr = stats.map { ReftestRunner.format($0.psnr) } ?? "?"
                return (String(format: "%.2f%% of pixels match (needs %.2f%%, perceptual precision %.3f); max channel difference %d/255, PSNR %@ dB",
                               fraction * 100, Double(precision) * 100, Double(perceptualPrecision), stats?.maxChannelDifference ?? 0, psnr),
                        artifacts)
            })
    }
}

extension Snapshotting where Value == CALayer, Format == Image {
    /// The layer drawn at `time` (its presentation then), as `CALayer.render(in:)` draws it: its
    /// bounds space from the image's top-left, its own position and transform ignored.
    ///
    /// - Parameters:
    ///   - size: points (default: the layer's bounds size).
    ///   - scale: pixels per point (default 1).
    ///   - precision: the share of pixels that must match (default 1: all).
    ///   - perceptualPrecision: how close a pixel must be to match (default 1: exact).
    ///   - backend: default `.cpu`, which needs no EGL; `.gpu` draws the same pixels within 2/255.
    public static func image(size: CGSize? = nil, scale: CGFloat = 1, time: Double = 0, precision: Float = 1,
                             perceptualPrecision: Float = 1, backend: BackendKind = .cpu) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision)) { layer in
            try LayerSnapshotRenderer.render(layer, size: size, scale: scale, times: [time], backend: backend)
        }
    }

    /// `.image()` with its defaults: the layer at time 0, 1 pixel per point, exact, on the CPU.
    public static var image: Snapshotting { .image() }

    /// The layer at each of `times`, side by side left to right in one image: one reference for
    /// an animation's key moments.
    public static func frames(_ times: [Double], size: CGSize? = nil, scale: CGFloat = 1, precision: Float = 1,
                              perceptualPrecision: Float = 1, backend: BackendKind = .cpu) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision)) { layer in
            try LayerSnapshotRenderer.render(layer, size: size, scale: scale, times: times, backend: backend)
        }
    }
}

extension Snapshotting where Value == CALayer, Format == String {
    /// The presentation tree at each of `times` as `lamina inspect` prints it (one JSON line a
    /// time, every property's presented value), compared as text line by line.
    public static func presentation(times: [Double]) -> Snapshotting {
        Snapshotting(pathExtension: "json", diffing: .lines) { layer in
            let encoder = PresentationJSON(imageName: { image in image.source.map { URL(fileURLWithPath: $0).lastPathComponent } })
            return times.map { encoder.line(for: PresentationTree.evaluate(layer, at: $0)) }.joined(separator: "\n") + "\n"
        }
    }

    /// The presentation tree at time 0.
    public static var presentation: Snapshotting { .presentation(times: [0]) }

    /// A short H.264 export of the layer (`duration` seconds at `framesPerSecond`), recorded as
    /// the MD5 of every decoded frame (`ffmpeg -f framemd5`): the frames a viewer would see,
    /// exactly. Needs the `ffmpeg` program.
    public static func video(duration: Double, framesPerSecond: Double = 30, size: CGSize? = nil, scale: CGFloat = 1,
                             backend: BackendKind = .cpu) -> Snapshotting {
        Snapshotting(pathExtension: "framemd5.txt", diffing: .lines) { layer in
            try LayerSnapshotRenderer.videoDigests(layer, duration: duration, framesPerSecond: framesPerSecond, size: size,
                                                   scale: scale, backend: backend)
        }
    }
}

/// Draws layers for the snapshot strategies.
enum LayerSnapshotRenderer {
    static func pixelSize(_ layer: CALayer, _ size: CGSize?, _ scale: CGFloat) throws -> (width: Int, height: Int) {
        let points = size ?? layer.bounds.size
        let w = Int((points.width * scale).rounded()), h = Int((points.height * scale).rounded())
        guard w > 0, h > 0, w <= SceneLimits.maximumOutputSide, h <= SceneLimits.maximumOutputSide else {
            throw SnapshotError("a snapshot of \(w)×\(h) pixels cannot be drawn (give the layer bounds or a size)")
        }
        return (w, h)
    }

    /// The layer at each time, side by side.
    static func render(_ layer: CALayer, size: CGSize?, scale: CGFloat, times: [Double], backend: BackendKind) throws -> Image {
        let (w, h) = try pixelSize(layer, size, scale)
        guard !times.isEmpty else { throw SnapshotError("a frames snapshot needs at least one time") }
        let renderer: FrameRenderer
        do { renderer = try FrameRenderer(width: w, height: h, scale: scale, backend: backend) } catch {
            throw SnapshotError("cannot make the \(backend.rawValue) backend: \(error)")
        }
        renderer.placesRoot = false
        let frames = try times.map { t in
            guard let frame = renderer.render(layer, at: t) else { throw SnapshotError("the renderer returned no frame at t = \(t)") }
            return frame
        }
        if frames.count == 1 { return frames[0] }
        guard var strip = Image(width: w * frames.count, height: h) else { throw SnapshotError("the frames do not fit one image") }
        for (n, frame) in frames.enumerated() {
            for y in 0..<h {
                let dst = (y * strip.width + n * w) * 4, src = y * w * 4
                strip.pixels.replaceSubrange(dst..<(dst + w * 4), with: frame.pixels[src..<(src + w * 4)])
            }
        }
        return strip
    }

    static func videoDigests(_ layer: CALayer, duration: Double, framesPerSecond: Double, size: CGSize?, scale: CGFloat,
                             backend: BackendKind) throws -> String {
        let (w, h) = try pixelSize(layer, size, scale)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("snapshot.mp4")
        var options = VideoExportOptions(output: output, width: w, height: h, framesPerSecond: framesPerSecond, duration: duration)
        options.scale = scale
        options.backend = backend
        options.background = CGColor(gray: 0, alpha: 1)
        options.placesRoot = false
        let exporter = VideoExporter(root: layer, options: options)
        exporter.checksExportTiming = false
        try exporter.run()
        let digests = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-i", output.path, "-map", "0:v",
                                                        "-f", "framemd5", "pipe:1"])
        // The header lines name ffmpeg's version; the frame lines are the snapshot.
        return String(decoding: digests, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n"
    }
}

/// A snapshot that could not be taken.
public struct SnapshotError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

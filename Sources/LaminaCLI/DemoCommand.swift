import Foundation
import Synchronization
import Lamina

/// `lamina demo [-o OUT]`: the built-in demo video, needing no input files.
///
/// A background clip (ffmpeg's `gradients` source with a sine tone) is generated into a temporary
/// folder and used as the video layer's input, so the demo also exercises compositing over video
/// and audio passthrough. Next to the video it writes a contact sheet: 12 evenly spaced frames
/// as a 4×3 grid of thumbnails.
enum DemoCommand {
    static let usage = """
    usage: lamina demo [-o OUT] [--backend gpu|cpu] [--frames A..B] [--quiet] [--progress]

    Renders the built-in demo (10 s, 1280x720, 30 fps: title card, falling petals, swinging door,
    rotating ship, lower third and progress ring over a generated background clip) to OUT
    (default out/demo.mp4, replaced if it exists) and a contact sheet NAME.contact-sheet.png
    beside it, then prints where it wrote.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["-o", "--output", "--backend", "--frames", "--queue"],
                                 flags: ["--help", "-h", "--quiet", "--progress", "--sequential"])
        if args.flags.contains("--help") || args.flags.contains("-h") { print(usage); return 0 }
        guard args.positional.isEmpty else { throw UsageError(description: "demo takes no scene file") }
        let output = URL(fileURLWithPath: (args.values("-o") + args.values("--output")).last ?? "out/demo.mp4")
        let backendName = args.values("--backend").last ?? "gpu"
        guard let backend = BackendKind(rawValue: backendName) else {
            throw UsageError(description: "--backend must be gpu or cpu, not \(backendName)")
        }
        do { _ = try OutputKind.forPath(output.path) } catch { throw UsageError(description: error.description) }
        let fps = 30.0
        let frameCount = Int(DemoScene.duration * fps)
        let frames = try args.values("--frames").last.map(RenderCommand.frameRange) ?? 0...(frameCount - 1)
        let folder = output.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw JobFailure(description: "\(folder.path): cannot create the folder: \(error.localizedDescription)")
        }

        // The background clip, made by ffmpeg itself.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-demo-\(getpid())")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let clip = scratch.appendingPathComponent("background.mp4")
        do {
            try makeBackgroundClip(clip, seconds: DemoScene.duration)
        } catch {
            throw JobFailure(description: "cannot make the demo's background clip: \(error)")
        }

        let (root, videoLayer) = DemoScene.make()
        var options = VideoExportOptions(output: output, width: Int(DemoScene.width), height: Int(DemoScene.height),
                                         framesPerSecond: fps, frames: frames)
        options.background = .black
        options.backend = backend
        options.overwrite = true
        if args.flags.contains("--sequential") { options.queueDepth = 0 }
        if let queue = args.values("--queue").last, let n = Int(queue) { options.queueDepth = max(0, n) }
        let exporter = VideoExporter(root: root, options: options,
                                     composition: VideoComposition(url: clip, layers: [videoLayer]))
        exporter.checksExportTiming = false  // the demo's animations are written for the export clock

        // Thumbnails of 12 evenly spaced frames, taken on the writer thread as they pass.
        let picks = Set((0..<12).map { frames.lowerBound + $0 * (frames.count - 1) / 11 })
        let thumbnails = Mutex<[Int: Image]>([:])
        exporter.onFrame = { index, image in
            guard picks.contains(index), let thumbnail = ContactSheet.thumbnail(image, width: 320) else { return }
            thumbnails.withLock { $0[index] = thumbnail }
        }
        var reporting = ExportRunner.Reporting(args)
        reporting.progress = reporting.progress || !reporting.quiet
        guard let summary = try ExportRunner.run(exporter, reporting: reporting) else { return ExportRunner.interruptedStatus }

        let sheetURL = output.deletingPathExtension().appendingPathExtension("contact-sheet.png")
        let ordered = thumbnails.withLock { dict in dict.keys.sorted().compactMap { dict[$0] } }
        if let sheet = ContactSheet.grid(ordered, columns: 4) {
            do { try ImageFile.writePNG(sheet, to: sheetURL, overwrite: true) } catch { throw JobFailure(description: error.description) }
        }
        if !reporting.quiet {
            print("wrote \(output.path) (\(summary.frames) frames, \(String(format: "%.1f", summary.framesPerSecond)) fps on \(backend.rawValue)) and \(sheetURL.path)")
        }
        return 0
    }

    /// A colourful moving background with a quiet tone: `gradients` + `sine`, H.264 + AAC.
    static func makeBackgroundClip(_ url: URL, seconds: Double) throws {
        let duration = String(format: "%.3f", seconds)
        _ = try FFmpegProcess.run(arguments: [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "gradients=s=1280x720:r=30:n=3:c0=0x10204f:c1=0x3c7dd9:c2=0xb04a8c:speed=0.015:d=\(duration)",
            "-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=\(duration)",
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "18", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "96k", "-shortest", url.path,
        ])
    }
}

/// Thumbnails and a grid of them.
enum ContactSheet {
    /// `image` shrunk to `width` pixels wide by averaging boxes (premultiplied, so edges stay clean).
    static func thumbnail(_ image: Image, width: Int) -> Image? {
        let factor = max(1, image.width / width)
        let w = image.width / factor, h = image.height / factor
        guard var out = Image(width: w, height: h) else { return nil }
        let area = UInt32(factor * factor)
        image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                        for dy in 0..<factor {
                            var i = ((y * factor + dy) * image.width + x * factor) * 4
                            for _ in 0..<factor {
                                sum.0 += UInt32(src[i]); sum.1 += UInt32(src[i + 1]); sum.2 += UInt32(src[i + 2]); sum.3 += UInt32(src[i + 3])
                                i += 4
                            }
                        }
                        let o = (y * w + x) * 4
                        dst[o] = UInt8((sum.0 + area / 2) / area); dst[o + 1] = UInt8((sum.1 + area / 2) / area)
                        dst[o + 2] = UInt8((sum.2 + area / 2) / area); dst[o + 3] = UInt8((sum.3 + area / 2) / area)
                    }
                }
            }
        }
        return out
    }

    /// Images of one size laid out in rows of `columns`, left to right, top to bottom.
    static func grid(_ images: [Image], columns: Int) -> Image? {
        guard let first = images.first else { return nil }
        let rows = (images.count + columns - 1) / columns
        guard var sheet = Image(width: first.width * columns, height: first.height * rows) else { return nil }
        for (n, image) in images.enumerated() where image.width == first.width && image.height == first.height {
            let ox = (n % columns) * first.width, oy = (n / columns) * first.height
            for y in 0..<image.height {
                let src = y * image.width * 4
                let dst = ((oy + y) * sheet.width + ox) * 4
                sheet.pixels.replaceSubrange(dst..<(dst + image.width * 4), with: image.pixels[src..<(src + image.width * 4)])
            }
        }
        return sheet
    }
}

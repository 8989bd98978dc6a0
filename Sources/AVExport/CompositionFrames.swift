import Foundation
import Geometry
import CoreMedia
import Layers
import Presentation
import Rendering
import ImageIO
import Export

/// A video composition's instructions, copied when an export starts (seconds of the composition).
struct InstructionSnapshot: Sendable {
    var start: Double
    var end: Double
    var background: CGColor?
    /// First on top.
    var layers: [(trackID: CMPersistentTrackID, timelines: LayerTimelines)]

    static func of(_ instructions: [any AVVideoCompositionInstructionProtocol]) -> [InstructionSnapshot] {
        instructions.map { instruction in
            let concrete = instruction as? AVVideoCompositionInstruction
            return InstructionSnapshot(start: instruction.timeRange.start.seconds, end: instruction.timeRange.end.seconds,
                                       background: concrete?.backgroundColor,
                                       layers: (concrete?.layerInstructions ?? []).map { ($0.trackID, $0.timelines) })
        }
    }
}

/// The composed video frames of an AVFoundation composition, one per output frame: each
/// instruction's tracks decoded with ffmpeg (as coded, unrotated, at the output's density),
/// placed by their layer instructions' transforms, opacities and crops over the background
/// colour, and drawn — exactly, as the layers of a render plan — by the export's own backend.
/// The frame is the contents of the animation tool's video layers (or of the export's root
/// when there is no tool).
///
/// One frame that needs no compositing (a single track, identity transform, full opacity, no
/// crop, natural size = render size) is the decoded frame itself.
final class CompositionFrames: FrameInputs {
    private let snapshot: CompositionSnapshot
    private let instructions: [InstructionSnapshot]
    private let clock: FrameClock
    /// The render size in points (= the composition's pixels) and the output's pixels per point.
    private let renderSize: CGSize
    private let scale: CGFloat
    private let width: Int, height: Int
    private let targets: [ObjectIdentifier]
    private let backend: any RenderBackend
    private let images = FileImageProvider()
    private let additional: (trackID: CMPersistentTrackID, layer: CALayer, renderer: FrameRenderer)?
    private var decoders: [String: SegmentDecoder] = [:]
    private var background: (color: PremultipliedColor, image: CGImage)?
    /// A label for the plan's draw items (backends do not read it).
    private let label: LayerLabel

    init(snapshot: CompositionSnapshot, instructions: [InstructionSnapshot], renderSize: CGSize, clock: FrameClock,
         context: FrameInputContext, targets: [CALayer], additional: (CMPersistentTrackID, CALayer)?) {
        self.snapshot = snapshot; self.instructions = instructions; self.clock = clock; self.renderSize = renderSize
        scale = context.scale
        width = context.width; height = context.height
        self.targets = targets.map(ObjectIdentifier.init)
        backend = context.backend
        if let (trackID, layer) = additional {
            let renderer = FrameRenderer(width: context.width, height: context.height, scale: context.scale, backend: context.backend)
            renderer.origin = .bottomLeft
            self.additional = (trackID, layer, renderer)
        } else {
            self.additional = nil
        }
        label = LayerLabel(tree: PresentedSubtree(PresentationTree.evaluate(CALayer(), at: 0)), index: 0)
    }

    deinit { close() }

    func close() {
        for decoder in decoders.values { decoder.close() }
        decoders = [:]
    }

    func images(forFrame index: Int) throws(ExportError) -> [ObjectIdentifier: CGImage] {
        let frame = try compose(at: clock.time(ofFrame: index))
        return Dictionary(targets.map { ($0, frame) }, uniquingKeysWith: { a, _ in a })
    }

    /// The instruction at composition time `t` (the last one past the end).
    private func instruction(at t: Double) -> InstructionSnapshot? {
        instructions.first { $0.start <= t && t < $0.end } ?? instructions.last.flatMap { t >= $0.end ? $0 : nil }
    }

    /// The composed frame at composition time `t`.
    func compose(at t: Double) throws(ExportError) -> CGImage {
        // Decoders whose segment has ended are stopped.
        for (key, decoder) in decoders where t >= decoder.segment.targetEnd {
            decoder.close()
            decoders[key] = nil
        }
        let instruction = instruction(at: t)
        let background = PremultipliedColor(instruction?.background ?? CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        var pieces: [(image: CGImage, natural: CGSize, transform: CGAffineTransform, opacity: Float, crop: CGRect?)] = []
        for layer in (instruction?.layers ?? []).reversed() {
            let state = layer.timelines.state(at: t)
            guard state.opacity > 0 else { continue }
            if let additional, layer.trackID == additional.trackID {
                guard let image = additional.renderer.render(additional.layer, at: t) else { throw .renderFailed(frame: clock.frame(at: t)) }
                pieces.append((CGImage(width: image.width, height: image.height, premultipliedRGBA: image.pixels)!, renderSize,
                               state.transform, state.opacity, state.crop))
                continue
            }
            guard let track = snapshot.track(layer.trackID), track.mediaType == .video,
                  let index = track.segments.firstIndex(where: { $0.contains(t) }) else { continue }
            let decoder = try decoder(track: track, segmentIndex: index, at: t)
            // Each segment's frames keep their own coded size (clips of several sizes in one track).
            pieces.append((try decoder.frame(at: t, clock: clock), track.segments[index].track.naturalSize, state.transform,
                           state.opacity, state.crop))
        }
        // Nothing to composite: the decoded frame is the output frame.
        if pieces.count == 1, let only = pieces.first, only.opacity >= 1, only.transform.isIdentity, only.natural == renderSize,
           only.crop.map({ $0.contains(CGRect(origin: .zero, size: only.natural)) }) ?? true,
           only.image.width == width, only.image.height == height {
            return only.image
        }
        if pieces.isEmpty { return backgroundFrame(background) }
        let toPixels = CATransform3DMakeScale(scale, scale, 1)
        let items = pieces.map { piece -> DrawItem in
            let full = CGRect(origin: .zero, size: piece.natural)
            let shown = piece.crop.map { $0.intersection(full) } ?? full
            let uv = CGRect(x: shown.minX / full.width, y: shown.minY / full.height, width: shown.width / full.width,
                            height: shown.height / full.height)
            return DrawItem(layer: label, role: "track", transform: CATransform3DMakeAffineTransform(piece.transform).concatenating(toPixels),
                            rect: shown.isNull ? .zero : shown, paint: .image(piece.image, source: uv, minification: .linear, magnification: .linear),
                            opacity: min(1, piece.opacity), antialiasEdges: !piece.transform.isAxisAligned)
        }
        let plan = RenderPlan(width: width, height: height,
                              passes: [RenderPass(id: 0, width: width, height: height, purpose: "video composition", clearColor: background, items: items)])
        guard let image = backend.render(plan, images: images) else { throw .renderFailed(frame: clock.frame(at: t)) }
        for piece in pieces { backend.forget(piece.image) }
        return CGImage(width: width, height: height, premultipliedRGBA: image.pixels)!
    }

    private func backgroundFrame(_ color: PremultipliedColor) -> CGImage {
        if let background, background.color == color { return background.image }
        let bytes = [UInt8(color.red * 255), UInt8(color.green * 255), UInt8(color.blue * 255), UInt8(color.alpha * 255)]
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels.replaceSubrange(i..<(i + 4), with: bytes) }
        let image = CGImage(width: width, height: height, premultipliedRGBA: pixels)!
        background = (color, image)
        return image
    }

    /// The decoder of segment `segmentIndex` of `track`, started at the frame of `t`.
    private func decoder(track: TrackPlan, segmentIndex: Int, at t: Double) throws(ExportError) -> SegmentDecoder {
        let key = "\(track.trackID)/\(segmentIndex)"
        if let known = decoders[key] { return known }
        let segment = track.segments[segmentIndex]
        let natural = segment.track.naturalSize
        let side = SceneLimits.maximumVideoSide
        let w = min(max(Int((natural.width * scale).rounded()), 2), side), h = min(max(Int((natural.height * scale).rounded()), 2), side)
        let decoder = try SegmentDecoder(segment: segment, width: w, height: h, clock: clock, firstTime: t)
        decoders[key] = decoder
        return decoder
    }
}

/// One segment's frames, decoded from the segment's source time at the output's frame rate
/// (at the segment's speed), read in order and held after the last.
final class SegmentDecoder {
    let segment: MediaSegment
    private let source: VideoSource
    /// The segment-local frame index the decoder's next frame has.
    private var next: Int
    private var last: CGImage?

    init(segment: MediaSegment, width: Int, height: Int, clock: FrameClock, firstTime t: Double) throws(ExportError) {
        self.segment = segment
        let first = max(0, clock.frame(at: t - segment.targetStart))
        let local = clock.time(ofFrame: first)
        let offset = local * segment.speed
        let info = VideoInfo(width: width, height: height, framesPerSecond: Double(segment.track.nominalFrameRate),
                             duration: segment.sourceDuration, rotation: 0)
        source = try VideoSource(url: segment.url, info: info, width: width, height: height, framesPerSecond: clock.framesPerSecond,
                                 start: segment.sourceStart + offset, stream: segment.track.streamIndex,
                                 duration: segment.sourceDuration - offset, speed: segment.speed, autorotates: false)
        next = first
    }

    /// The frame for composition time `t`.
    func frame(at t: Double, clock: FrameClock) throws(ExportError) -> CGImage {
        let wanted = clock.frame(at: t - segment.targetStart)
        while next <= wanted || last == nil {
            last = try source.nextFrame()
            next += 1
        }
        return last!
    }

    func close() { source.close() }
}

extension CGAffineTransform {
    /// No rotation or shear: rectangles stay axis-aligned.
    var isAxisAligned: Bool { b == 0 && c == 0 }
}

import Foundation
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster

/// What a render of a layer tree will cost, worked out before anything is allocated, and the
/// check against its budget (`SceneLimits.Budget`, docs/scene-limits.md).
///
/// The figures that do not depend on time come from the model (`ModelFigures`: presented layers
/// after replicator and particle expansion, keyframe values, path elements, image pixels). The
/// offscreen pixels of a frame (offscreen passes and content rasters, each clipped to what the
/// output can show) come from the render plan at a few times, built with a rasterizer that
/// draws nothing; every frame's own plan is checked again as it renders (`FrameRenderer`).
/// Over-budget renders fail with one line naming the figure, the limit and the layer behind it.
public struct RenderBudget: Sendable {
    /// The model's figures.
    public var model: ModelFigures
    /// The largest offscreen need of the frames measured, with its time and its largest part.
    public var offscreen: (pixels: Int, time: Double, largest: OffscreenArea?)?
    /// Output size in pixels.
    public var width: Int
    public var height: Int
    /// The limits checked.
    public var limits: SceneLimits.Budget
    /// Frames waiting for the encoder (they count toward memory).
    public var queueDepth: Int
    /// The renderer (a GL context and its driver count toward memory).
    public var backend: BackendKind

    /// Measures the render of `root` at `width`×`height` pixels (`scale` pixels per point) at
    /// `times`: the model first; the plans only when the model is within its limits (an
    /// expansion of 10⁹ layers must not be evaluated to be refused).
    public static func measure(_ root: CALayer, width: Int, height: Int, scale: CGFloat, placesRoot: Bool = true,
                               times: [Double], limits: SceneLimits.Budget, queueDepth: Int = 0,
                               backend: BackendKind = .gpu) -> RenderBudget {
        var budget = RenderBudget(model: ModelFigures.measure(root), offscreen: nil, width: width, height: height,
                                  limits: limits, queueDepth: queueDepth, backend: backend)
        guard budget.modelProblem == nil else { return budget }
        var builder = RenderPlanBuilder(width: width, height: height, scale: scale, contentRasterizer: MeasuringRasterizer())
        builder.placesRoot = placesRoot
        for time in times {
            let plan = builder.plan(for: PresentationTree.evaluate(root, at: time))
            let pixels = plan.offscreenPixels
            if budget.offscreen.map({ pixels > $0.pixels }) ?? true {
                budget.offscreen = (pixels, time, plan.offscreen.max { $0.pixels < $1.pixels })
            }
        }
        return budget
    }

    /// A few times that stand for `frames` of `clock`: the first, the middle and the last frame.
    public static func sampleTimes(_ frames: ClosedRange<Int>, clock: FrameClock) -> [Double] {
        Array(Set([frames.lowerBound, frames.lowerBound + frames.count / 2, frames.upperBound])).sorted().map(clock.time(ofFrame:))
    }

    /// Bytes of memory the render needs, estimated: a base for the process and its libraries
    /// (and the GL driver's for `.gpu`), each presented layer, offscreen and output pixels (the
    /// frame, the frames queued for the encoder, pass textures), decoded images, keyframes and
    /// path elements. Measured against peak resident memory (`/usr/bin/time -v`): 90,302 layers
    /// at 256×256, estimated 323 MB, CPU 305 MB; the demo frame at 1280×720, estimated 86 MB,
    /// CPU 63 MB, and with the GL base 166 MB against GPU 139 MB.
    public var estimatedBytes: Int {
        let output = width * height
        let parts: [Double] = [
            Double(Self.baseBytes + (backend == .gpu ? Self.glBytes : 0)),
            Double(model.presentedLayers) * Double(Self.bytesPerPresentedLayer),
            Double(offscreen?.pixels ?? 0) * 8,               // the pass or raster, and its texture
            Double(model.imagePixels) * 8,                    // decoded, and its texture
            Double(output) * 4 * Double(queueDepth + 3),      // drawn, read back, converted, queued
            Double(model.keyframeValues) * 96 + Double(model.pathElements) * 48,
        ]
        let total = parts.reduce(0, +)
        return total < Double(Int.max) ? Int(total) : Int.max
    }

    /// The process, Swift runtime, cairo, Pango and fontconfig, ffmpeg's pipes (measured: 32–60 MB).
    static let baseBytes = 56 << 20
    /// An EGL display and GLES context on Mesa (measured: about 80 MB more than the CPU backend).
    static let glBytes = 80 << 20
    /// A presented layer with its resolved properties, matrices and plan items (measured ≈ 3 KB).
    static let bytesPerPresentedLayer = 3 << 10

    /// The first figure of the model over its limit, as a message (nil: within).
    var modelProblem: String? {
        if model.presentedLayers > limits.presentedLayers {
            return "presents up to \(n(model.presentedLayers)) layers after replicator and particle expansion, over the budget of "
                + "\(n(limits.presentedLayers))" + (model.largest.map { "; \($0.layer) alone: \(n($0.count)) (\($0.reason))" } ?? "")
        }
        if model.keyframeValues > limits.keyframeValues {
            return "has \(n(model.keyframeValues)) keyframe values, over the budget of \(n(limits.keyframeValues))"
                + (model.largestKeyframes.map { "; \($0.layer) alone: \(n($0.count))" } ?? "")
        }
        if model.pathElements > limits.pathElements {
            return "has \(n(model.pathElements)) path elements, over the budget of \(n(limits.pathElements))"
                + (model.largestPath.map { "; \($0.layer) alone: \(n($0.count))" } ?? "")
        }
        return nil
    }

    /// The first figure over its limit, as a message (nil: the render fits its budget).
    public var problem: String? {
        if let modelProblem { return modelProblem }
        if let offscreen, offscreen.pixels > limits.offscreenPixels {
            return Self.offscreenProblem(pixels: offscreen.pixels, at: "at \(seconds(offscreen.time))", largest: offscreen.largest,
                                         limit: limits.offscreenPixels)
        }
        if let limit = limits.memoryBytes, estimatedBytes > limit {
            return "needs about \(megabytes(estimatedBytes)) MB (estimated), over --max-memory \(megabytes(limit)) MB"
        }
        return nil
    }

    static func offscreenProblem(pixels: Int, at when: String, largest: OffscreenArea?, limit: Int) -> String {
        "needs \(n(pixels)) offscreen pixels \(when), over the budget of \(n(limit))"
            + (largest.map { "; \($0.layer) (\($0.purpose)) alone: \($0.width)×\($0.height)" } ?? "")
    }

    /// Throws `.overBudget` naming `subject` when a figure is over its limit.
    public func check(subject: String) throws(ExportError) {
        if let problem { throw .overBudget("\(subject): \(problem)") }
    }

    /// The figures, one per line, for `lamina inspect --budget`.
    public var lines: [String] {
        func row(_ name: String, _ value: Int, _ limit: Int?, _ note: String = "") -> String {
            let padded = name.padding(toLength: 18, withPad: " ", startingAt: 0)
            let figure = n(value).leftPadded(to: 15)
            return "\(padded)\(figure)" + (limit.map { "  of \(n($0))" } ?? "") + (note.isEmpty ? "" : "  \(note)")
        }
        var out = [row("presented layers", model.presentedLayers, limits.presentedLayers,
                       model.largest.map { "most: \($0.layer), \(n($0.count)) (\($0.reason))" } ?? "")]
        if let offscreen {
            out.append(row("offscreen pixels", offscreen.pixels, limits.offscreenPixels,
                           "largest frame at \(seconds(offscreen.time))"
                           + (offscreen.largest.map { "; most: \($0.layer) (\($0.purpose)) \($0.width)×\($0.height)" } ?? "")))
        } else {
            out.append("offscreen pixels  (not measured: the model is over its budget)")
        }
        out.append(row("keyframe values", model.keyframeValues, limits.keyframeValues,
                       model.largestKeyframes.map { "most: \($0.layer), \(n($0.count))" } ?? ""))
        out.append(row("path elements", model.pathElements, limits.pathElements,
                       model.largestPath.map { "most: \($0.layer), \(n($0.count))" } ?? ""))
        out.append(row("image pixels", model.imagePixels, nil))
        out.append(row("output pixels", width * height, nil, "\(width)×\(height)"))
        let memory = "\(megabytes(estimatedBytes)) MB".leftPadded(to: 15)
        out.append("estimated memory  \(memory)" + (limits.memoryBytes.map { "  of \(megabytes($0)) MB (--max-memory)" } ?? ""))
        out.append(problem.map { "over budget: \($0)" } ?? "within budget")
        return out
    }

    private func n(_ value: Int) -> String { ModelFigures.grouped(value) }
    private static func n(_ value: Int) -> String { ModelFigures.grouped(value) }
    private func seconds(_ t: Double) -> String { String(format: "t = %g s", t) }
    private func megabytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

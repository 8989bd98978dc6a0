import Foundation
import Geometry
import Timing
import Animation
import Layers

/// Turns Lottie keyframes into the `CAKeyframeAnimation`s lottie-ios's Core Animation engine
/// builds: one per layer property, in root-composition time (seconds = frame / fr), held on both
/// sides of its keyframes. A property with one keyframe is set on the layer instead.
struct AnimationBuilder {
    let frameRate: Double
    /// The root composition's first frame and the frame after its last (`op + 1`: a paused
    /// lottie-ios animation plays to `op + 1`, so content that ends at `op` still shows there).
    let startFrame: Double
    let endFrame: Double

    /// A hold keyframe switches this many frames before the next keyframe (a linear segment
    /// that short is a step at any frame time a renderer asks for, far shorter than the key-time
    /// rounding below).
    static let holdStep = 1e-10

    /// The root frame where Core Animation sees a keyframe of a property whose keyframes are all
    /// holds: lottie-ios gives that (discrete) animation's key times as `Float` fractions of
    /// `startFrame … endFrame`, so a hold that ends exactly at a frame still shows at that frame
    /// when the fraction rounds up (the references show it). Mixed keyframes become one
    /// animation per run, timed in `Double`.
    func keyFrame(_ rootFrame: Double) -> Double {
        let span = endFrame - startFrame
        guard span > 0, rootFrame.isFinite else { return rootFrame }
        return startFrame + Double(Float((rootFrame - startFrame) / span)) * span
    }

    /// Animates `keyPath` of `layer` through `group`, mapping each keyframe value with `convert`.
    func animate<V: LottieInterpolatable>(_ layer: CALayer, _ keyPath: String, _ group: KeyframeGroup<V>, _ time: TimeContext,
                                           _ convert: (V) -> Any) {
        if group.keyframes.count == 1 {
            layer.setValue(convert(group.keyframes[0].value), forKeyPath: keyPath)
            return
        }
        if time.remap != nil {
            let samples = sampled(time) { group.value(at: $0) }
            add(layer, keyPath, samples.map { Entry(frame: $0.frame, value: convert($0.value)) })
            return
        }
        add(layer, keyPath, entries(group, time, convert))
    }

    /// A position: follows spatial bezier tangents along a path, as lottie-ios does.
    func animatePosition(_ layer: CALayer, _ group: KeyframeGroup<[Double]>, _ time: TimeContext) {
        func point(_ v: [Double]) -> CGPoint { CGPoint(x: v.first ?? 0, y: v.count > 1 ? v[1] : 0) }
        if group.keyframes.count == 1 || time.remap != nil {
            if time.remap != nil {
                let samples = sampled(time) { group.positionValue(at: $0) }
                add(layer, "position", samples.map { Entry(frame: $0.frame, value: point($0.value)) })
            } else {
                layer.position = point(group.first)
            }
            return
        }
        let k = group.keyframes
        let spatial = zip(k, k.dropFirst()).contains { a, b in
            !a.isHold && (a.spatialOutTangent?.contains { $0 != 0 } == true || b.spatialInTangent?.contains { $0 != 0 } == true)
        }
        let list = entries(group, time, { point($0) })
        guard spatial else {
            add(layer, "position", list)
            return
        }
        // One path element per segment: the spatial curve, or a line (holds add their step).
        let path = CGMutablePath()
        path.move(to: point(k[0].value))
        var index = 0
        for i in 0..<(k.count - 1) {
            let a = k[i], b = k[i + 1]
            let p0 = point(a.value), p3 = point(b.value)
            if a.isHold {
                path.addLine(to: p0)
                path.addLine(to: p3)
                index += 2
                continue
            }
            let to = a.spatialOutTangent ?? [], ti = b.spatialInTangent ?? []
            let c1 = CGPoint(x: p0.x + (to.first ?? 0), y: p0.y + (to.count > 1 ? to[1] : 0))
            let c2 = CGPoint(x: p3.x + (ti.first ?? 0), y: p3.y + (ti.count > 1 ? ti[1] : 0))
            if c1 == p0, c2 == p3 { path.addLine(to: p3) } else { path.addCurve(to: p3, control1: c1, control2: c2) }
            index += 1
        }
        add(layer, "position", list, path: index == list.count - 1 ? path : nil)
    }

    struct Entry {
        var frame: Double
        var value: Any
        /// Easing of the segment that starts here.
        var timing: CAMediaTimingFunction?
    }

    /// Keyframes as timed entries in root frames; a hold adds a step just before the next keyframe.
    private func entries<V>(_ group: KeyframeGroup<V>, _ time: TimeContext, _ convert: (V) -> Any) -> [Entry] {
        let k = group.keyframes
        // Only holds are changed by it: eased keyframes move by about 1e-7 of their span.
        let allHolds = k.allSatisfy(\.isHold)
        func rounded(_ frame: Double) -> Double { allHolds ? keyFrame(frame) : frame }
        var list: [Entry] = []
        list.reserveCapacity(k.count + 4)
        for i in k.indices {
            let frame = rounded(time.rootFrame(k[i].time))
            let value = convert(k[i].value)
            if i + 1 < k.count {
                let next = rounded(time.rootFrame(k[i + 1].time))
                if k[i].isHold {
                    list.append(Entry(frame: frame, value: value, timing: nil))
                    list.append(Entry(frame: max(frame, next - Self.holdStep * abs(time.scale)), value: value, timing: nil))
                } else {
                    list.append(Entry(frame: frame, value: value, timing: k[i].timingFunction(to: k[i + 1])))
                }
            } else {
                list.append(Entry(frame: frame, value: value, timing: nil))
            }
        }
        if time.scale < 0 { list.reverse() }
        return list
    }

    /// Values at every root frame of the composition (lottie-ios's manual interpolation below a
    /// time remap), played linearly in between.
    func sampled<V>(_ time: TimeContext, _ value: (Double) -> V) -> [(frame: Double, value: V)] {
        var result: [(Double, V)] = []
        var frame = startFrame
        while frame <= endFrame {
            result.append((frame, value(time.localFrame(frame))))
            frame += 1
        }
        return result
    }

    /// Adds the keyframe animation for the entries (or sets the value when they do not span time).
    func add(_ layer: CALayer, _ keyPath: String, _ list: [Entry], path: CGPath? = nil) {
        guard let first = list.first, let last = list.last else { return }
        let span = last.frame - first.frame
        guard list.count > 1, span > 0 else {
            layer.setValue(last.value, forKeyPath: keyPath)
            return
        }
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        if let path { animation.path = path } else { animation.values = list.map(\.value) }
        animation.keyTimes = list.map { NSNumber(value: ($0.frame - first.frame) / span) }
        animation.timingFunctions = list.dropLast().map { $0.timing ?? Self.linear }
        animation.beginTime = first.frame / frameRate
        animation.duration = span / frameRate
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        animation.timingFunction = Self.linear
        // Added at media time 0 before the layer joins its tree: beginTime is in root time.
        if animation.beginTime == 0 { animation.beginTime = 1e-300 }
        layer.add(animation, forKey: keyPath, atMediaTime: 0)
    }

    static let linear = CAMediaTimingFunction(name: .linear)
}

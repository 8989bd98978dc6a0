import Foundation
import Animation
import Layers

/// Finds animations that would not show in a video exported with AVFoundation, for the two
/// reasons Apple's users hit (core-animation-semantics.md §12):
///
/// 1. **beginTime 0 became host time.** `add(_:forKey:)` replaces a `beginTime` of 0 with the
///    media clock's "now"; unless that clock is the export's (time 0 at the first frame), the
///    animation starts far outside the video. Use `AVCoreAnimationBeginTimeAtZero`.
/// 2. **removedOnCompletion.** Core Animation removes a finished animation that has
///    `isRemovedOnCompletion` set; an export renders frames out of real time, so an animation
///    whose active window ends before the video does could not be evaluated again there.
///    Set `isRemovedOnCompletion = false`.
///
/// Lamina itself renders frame i from time i alone, so these animations still show in a Lamina
/// export; the warnings are for code that must also run on Apple's platforms.
public enum ExportLint {
    /// One line per affected animation, naming its layer (`name`, or its path of indexes) and key
    /// path, for an export of absolute times `start ..< end`.
    public static func warnings(_ root: CALayer, from start: Double, to end: Double) -> [String] {
        var lines: [String] = []
        visit(root, path: root.name ?? "root") { layer, path in
            for (key, animation) in layer.attachedAnimations {
                let what = "\(path): animation \(key.map { "\"\($0)\"" } ?? "(no key)")"
                    + ((animation as? CAPropertyAnimation)?.keyPath.map { " on \($0)" } ?? "")
                let timing = animation.timing
                let begin = layer.convertTime(timing.beginTime, to: nil)
                let finish = layer.convertTime(timing.beginTime + timing.activeDuration, to: nil)
                if begin >= end {
                    lines.append("\(what) starts at \(format(begin)) s, after the video ends at \(format(end)) s "
                                 + "(if its beginTime was 0, adding it replaced that with the media clock's time; for time 0 of the video use AVCoreAnimationBeginTimeAtZero)")
                } else if animation.isRemovedOnCompletion, finish.isFinite, finish < end {
                    lines.append("\(what) ends at \(format(finish)) s, before the video ends at \(format(end)) s, with "
                                 + "removedOnCompletion true: an AVFoundation export would not show it (set isRemovedOnCompletion = false)")
                }
            }
        }
        return lines
    }

    private static func visit(_ layer: CALayer, path: String, _ body: (CALayer, String) -> Void) {
        body(layer, path)
        if let mask = layer.mask { visit(mask, path: path + "/" + (mask.name ?? "mask"), body) }
        for (i, child) in (layer.sublayers ?? []).enumerated() {
            visit(child, path: path + "/" + (child.name ?? "#\(i)"), body)
        }
    }

    private static func format(_ t: Double) -> String {
        abs(t) >= 1e6 ? String(format: "%.4g", t) : String(format: "%.3f", t)
    }
}

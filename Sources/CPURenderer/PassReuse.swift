import Foundation
import Rendering

/// Which offscreen passes of a frame can keep last frame's pixels: a pass whose items draw the
/// same as the pass at its place in the previous plan did, into a target of the same size,
/// from passes that were themselves kept, would come out byte for byte as its target already
/// holds (drawing is a function of the items, the images — immutable, compared by identity and
/// kept alive by the plan held here — and the image provider). Lottie files are full of such
/// passes: a gradient under a mask that only moves with its parent, a precomp's matte.
struct PassReuse {
    /// The plan drawn last (with whether each pass was drawn into its target), and the provider
    /// its images came from.
    private var previous: [(pass: RenderPass, drawn: Bool)] = []
    private var provider: AnyObject?
    /// Whether this frame records and keeps passes.
    private var active = false
    /// Ids of this frame's passes whose targets hold what they held last frame.
    private(set) var kept: Set<Int> = []

    /// Starts a frame: nothing is kept yet. A plan that continues a pass into another (a
    /// backdrop filter) changes that pass's target after it is drawn, so nothing is kept.
    mutating func begin(_ plan: RenderPlan, images: ImageProvider, enabled: Bool) {
        kept.removeAll(keepingCapacity: true)
        active = enabled && !plan.passes.contains(where: { $0.startsFrom != nil })
        // Held, not just compared by address: a new provider at an old one's address is another provider.
        if !active || provider !== images { previous = [] }
        provider = images
    }

    /// Whether pass `index` of this frame (not the frame's own) may keep the pixels its target
    /// holds (`targetMatches`: the target at that index has the pass's size); records the pass as
    /// drawn either way. Call for every such pass in order (or `skip`).
    mutating func keeps(_ pass: RenderPass, at index: Int, targetMatches: Bool) -> Bool {
        guard active else { return false }
        defer { record(pass, at: index, drawn: true) }
        guard targetMatches, repeats(pass, at: index), previous[index].drawn else { return false }
        kept.insert(pass.id)
        return true
    }

    /// Whether pass `index` draws what it drew last frame, from passes kept this frame (whether
    /// or not its target was drawn then).
    func repeats(_ pass: RenderPass, at index: Int) -> Bool {
        active && pass.startsFrom == nil && index < previous.count && Self.drawsSame(previous[index].pass, pass)
            && pass.items.allSatisfy { $0.readsOnly(kept) }
    }

    /// Records pass `index` of this frame as drawn elsewhere than into its target (which then
    /// holds nothing a later frame may keep).
    mutating func skip(_ pass: RenderPass, at index: Int) {
        guard active else { return }
        record(pass, at: index, drawn: false)
    }

    private mutating func record(_ pass: RenderPass, at index: Int, drawn: Bool) {
        if index < previous.count { previous[index] = (pass, drawn) } else if index == previous.count { previous.append((pass, drawn)) }
    }

    /// Ends a frame of `count` passes.
    mutating func end(passCount count: Int) {
        if previous.count > count { previous.removeSubrange(count...) }
    }

    /// Forgets everything (an image's pixels were dropped, the drawing loops changed).
    mutating func reset() { previous = [] }

    /// Whether two passes draw the same pixels: equal in everything but the layer labels their
    /// items carry for printing (a new presentation tree every frame).
    static func drawsSame(_ a: RenderPass, _ b: RenderPass) -> Bool {
        guard a.id == b.id, a.width == b.width, a.height == b.height, a.clearColor == b.clearColor,
              a.startsFrom == b.startsFrom, a.items.count == b.items.count else { return false }
        for (x, y) in zip(a.items, b.items) {
            var relabelled = x
            relabelled.layer = y.layer
            guard relabelled == y else { return false }
        }
        return true
    }
}

extension DrawItem {
    /// Whether every earlier pass this item samples (its paint's and its mask's) is in `passes`.
    func readsOnly(_ passes: Set<Int>) -> Bool {
        switch paint {
        case .pass(let id, _), .tintedPass(let id, _, _), .blur(let id, _, _): guard passes.contains(id) else { return false }
        case .solid, .image, .gradient, .shape: break
        }
        return maskPass.map(passes.contains) ?? true
    }
}

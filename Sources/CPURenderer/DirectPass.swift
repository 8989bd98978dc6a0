import Foundation
import Geometry
import Rendering

/// An offscreen pass the frame only copies, unchanged, as its first item (a Lottie file's root
/// clip, `masksToBounds` on the composition): its items are drawn into the frame itself,
/// clipped to the pass's rectangle, instead of into a target of their own copied afterwards.
///
/// The frame comes out byte for byte as before: the copy is placed on whole pixels at the
/// frame's origin (one texel per pixel, unfaded, unmasked, source-over), and as the frame's
/// first item it lands on the transparent clear, where source-over stores the texel as it is —
/// what drawing the items straight there stores too. Items the frame draws after it blend over
/// it as they blended over the copy.
struct DirectPass {
    /// The pass's index in the plan.
    let index: Int

    /// The pass of `plan` the frame copies this way, if there is one.
    init?(_ plan: RenderPlan) {
        let frame = plan.framePass
        guard plan.passes.count >= 2, frame.startsFrom == nil, frame.clearColor.packedRGBA8 == 0,
              let first = frame.items.first, case .pass(let id, let source) = first.paint,
              source == CGRect(x: 0, y: 0, width: 1, height: 1),
              let index = plan.passes.firstIndex(where: { $0.id == id }), index < plan.passes.count - 1 else { return nil }
        let pass = plan.passes[index]
        guard pass.startsFrom == nil, pass.clearColor.packedRGBA8 == 0, pass.width <= frame.width, pass.height <= frame.height,
              !pass.items.contains(where: { if case .blur = $0.paint { true } else { false } }),
              first.copiesWholePixels(width: pass.width, height: pass.height) else { return nil }
        // Read by nothing else: no other item samples it, as paint or mask, and no pass draws on into it.
        for (n, other) in plan.passes.enumerated() {
            if other.startsFrom == id { return nil }
            for (m, item) in other.items.enumerated() where !(n == plan.passes.count - 1 && m == 0) {
                if item.maskPass == id { return nil }
                switch item.paint {
                case .pass(let read, _), .tintedPass(let read, _, _), .blur(let read, _, _): if read == id { return nil }
                case .solid, .image, .gradient, .shape: break
                }
            }
        }
        self.index = index
    }
}

extension DrawItem {
    /// Whether the item shows its whole `width`×`height` source one texel per pixel from the
    /// target's origin, as it is: a plain rectangle (no shape, border, body, polygon, mask, tint,
    /// colour matrix or fade), blended normally, whose corners land exactly on (0, 0) and
    /// (width, height) under an affine map without rotation or skew.
    func copiesWholePixels(width: Int, height: Int) -> Bool {
        guard opacity == 1, shape == nil, borderWidth == nil, maskPass == nil, polygon == nil, tint == nil,
              blendMode == .normal, colorMatrix == nil, body == nil, borderTint == nil, depthTransform == nil else { return false }
        let m = transform
        guard m.m12 == 0, m.m14 == 0, m.m21 == 0, m.m24 == 0, m.m44 == 1 else { return false }
        let a = transform.projecting(CGPoint(x: rect.minX, y: rect.minY))
        let b = transform.projecting(CGPoint(x: rect.maxX, y: rect.maxY))
        return a == .zero && b == CGPoint(x: width, y: height)
    }
}

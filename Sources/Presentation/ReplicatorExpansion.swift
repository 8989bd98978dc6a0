import Foundation
import Geometry
import Layers

/// How the copies of a `CAReplicatorLayer`'s sublayers differ (§15.4): copy k is moved by
/// `instanceTransform` k times about the bounds centre, lags by k·`instanceDelay` and is tinted by
/// `clamp(instanceColor + k·offsets, 0, 1)`. Copy 0 is the original.
public struct ReplicatorExpansion: Sendable {
    /// Copies per replicator are capped here (an animated `instanceCount` can reach 10⁹), so one
    /// replicator cannot make evaluation run away; the scene's budget bounds them all together.
    public static let maximumInstanceCount = SceneLimits.maximumPresentedInstances

    /// Copies to present, 0 when `instanceCount ≤ 0`.
    public let count: Int
    /// Seconds each copy lags behind the previous one (`instanceDelay`).
    public let delay: Double
    private let instanceTransform: CATransform3D
    private let center: (x: CGFloat, y: CGFloat)
    private let base: SIMD4<Float>
    private let step: SIMD4<Float>

    /// The expansion of a replicator with properties `r` and bounds `bounds` (for the pivot).
    public init(_ r: ReplicatorProperties, bounds: CGRect) {
        count = max(0, min(r.instanceCount, Self.maximumInstanceCount))
        delay = r.instanceDelay
        instanceTransform = r.instanceTransform
        center = (bounds.midX, bounds.midY)
        let c = r.instanceColor ?? .white
        base = SIMD4(Float(c.red), Float(c.green), Float(c.blue), Float(c.alpha))
        step = SIMD4(r.instanceRedOffset, r.instanceGreenOffset, r.instanceBlueOffset, r.instanceAlphaOffset)
    }

    /// The colour multiplier of copy k; nil when it is opaque white (no change).
    public func tint(instance k: Int) -> SIMD4<Float>? {
        let m = (base + Float(k) * step).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1))
        return m == SIMD4(repeating: 1) ? nil : m
    }

    /// `T(−C) · power · T(C)` where `power` is `instanceTransform^k`: the move of copy k in the
    /// replicator's bounds space, applied after the sublayer's own placement.
    func aboutCenter(_ power: CATransform3D) -> CATransform3D {
        CATransform3DMakeTranslation(-center.x, -center.y, 0)
            .concatenating(power)
            .concatenating(CATransform3DMakeTranslation(center.x, center.y, 0))
    }

    /// `instanceTransform^(k+1)` from `instanceTransform^k`.
    func nextPower(_ power: CATransform3D) -> CATransform3D { power.concatenating(instanceTransform) }

    /// Two multipliers applied one after the other (nested replicators, particles in copies).
    @inline(__always)
    public static func combine(_ a: SIMD4<Float>?, _ b: SIMD4<Float>?) -> SIMD4<Float>? {
        guard let a else { return b }
        guard let b else { return a }
        return a * b
    }

    /// The replica key of copy `instance` of the replicator at tree depth `depth`, inside a
    /// subtree whose key is `parent`. Copy 0 keeps its parent's key, so originals keep 0; any
    /// other copy gets a hash of the whole chain of (depth, copy index) pairs, distinct and
    /// stable across frames (the depth tells "outer copy 2, inner copy 0" from the reverse).
    @inline(__always)
    public static func replicaKey(parent: UInt64, depth: Int, instance: Int) -> UInt64 {
        guard instance != 0 else { return parent }
        let step = DeterministicRandom.mix(UInt64(depth) << 32 ^ UInt64(instance))
        return DeterministicRandom.mix(parent ^ step) | 1
    }
}

extension PresentationTree.Builder {
    /// Presents a replicator's sublayers once per copy (§15.4): copy k's subtree is placed by
    /// `T(−C)·instanceTransform^k·T(C)` before the replicator's sublayerTransform, runs k·delay
    /// behind and is tinted. Copies are drawn in index order, each copy's sublayers in their
    /// own zPosition order.
    mutating func appendReplicas(_ sublayers: [CALayer], of index: Int, depth: Int, replicator: ReplicatorExpansion,
                                 frame: PresentationTree.ParentFrame, into children: inout [Int]) {
        var power = CATransform3D.identity
        let firstCopyStart = nextIndex
        let outerMirror = mirrorOffset
        defer { mirrorOffset = outerMirror }
        for k in 0..<replicator.count {
            // Copies without a delay repeat copy 0's values (inside a copy that mirrors already,
            // its offset holds for everything below).
            if k > 0, replicator.delay == 0, outerMirror == nil { mirrorOffset = nextIndex - firstCopyStart }
            var copy = frame
            if k > 0 {
                power = replicator.nextPower(power)
                let move = replicator.aboutCenter(power)
                copy.sublayerMatrix = frame.sublayerMatrix.map { move.concatenating($0) } ?? move
                copy.localTime = frame.localTime - Double(k) * replicator.delay
                copy.isDelayedCopy = frame.isDelayedCopy || replicator.delay != 0
                copy.replicaKey = ReplicatorExpansion.replicaKey(parent: frame.replicaKey, depth: depth, instance: k)
            }
            copy.replicaInstance = k
            copy.tint = ReplicatorExpansion.combine(frame.tint, replicator.tint(instance: k))
            appendSublayers(sublayers, of: index, depth: depth, frame: copy, into: &children)
        }
    }
}

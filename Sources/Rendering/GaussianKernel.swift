import Foundation

/// The taps of one axis of a Gaussian blur of σ texels, as both backends apply them: weights for
/// offsets 0…radius (each but the first used on both sides), radius = ceil(3σ) up to 64,
/// normalised to sum to 1. Computed once, here, so the backends differ only in their sums.
public struct GaussianKernel: Sendable, Equatable {
    public static let maximumRadius = 64
    public let weights: [Float]
    public var radius: Int { weights.count - 1 }

    public init(sigma: CGFloat) {
        let s = Float(max(sigma, 1e-3))
        let radius = Int(min(CGFloat(Self.maximumRadius), (3 * sigma).rounded(.up)))
        let raw = (0...max(0, radius)).map { i -> Float in
            let x = Float(i)
            return Foundation.exp(-0.5 * x * x / (s * s))
        }
        let total = raw.dropFirst().reduce(raw[0]) { $0 + 2 * $1 }
        weights = raw.map { $0 / total }
    }
}

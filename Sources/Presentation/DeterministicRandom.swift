import Foundation

/// Counter-based random numbers (§15.5 `r_j(k)`): every value is a pure hash of its coordinates,
/// so a particle's random draws never depend on which other particles or frames were evaluated.
public enum DeterministicRandom {
    /// A uniform value in [0, 1) for draw `draw` of particle `index` of the cell at `stream`,
    /// under emitter seed `seed`.
    @inline(__always)
    public static func unit(seed: UInt32, stream: Int, index: Int, draw: Int) -> Double {
        var h = mix(UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15)
        h = mix(h ^ UInt64(bitPattern: Int64(stream)))
        h = mix(h ^ UInt64(bitPattern: Int64(index)))
        h = mix(h ^ UInt64(bitPattern: Int64(draw)))
        // The top 53 bits as a double in [0, 1).
        return Double(h >> 11) * 0x1p-53
    }

    /// `mean + range·(r − ½)`: uniform in [mean − range/2, mean + range/2] (the header's rule).
    @inline(__always)
    public static func draw(_ mean: Double, _ range: Double, _ r: Double) -> Double {
        mean + range * (r - 0.5)
    }

    /// The splitmix64 finaliser: a bijection on 64 bits with good avalanche.
    @inline(__always)
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

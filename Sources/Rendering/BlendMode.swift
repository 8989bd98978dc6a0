import Foundation

/// How a draw item's colour combines with what the target holds under it, premultiplied.
///
/// The blend modes follow W3C Compositing and Blending Level 1 (the formulas Core Graphics and
/// Core Image share): B(Cb, Cs) on un-premultiplied colour, then source-over with the item's
/// alpha — `co = cs·(1 − αb) + αs·αb·B(Cb, Cs) + cb·(1 − αs)`, `αo = αs + αb·(1 − αs)`.
public enum BlendMode: String, Sendable, CaseIterable {
    /// Source-over.
    case normal
    /// The clamped premultiplied sum, alpha included (Porter–Duff plus; `CIAdditionCompositing`,
    /// an additive emitter's particles).
    case addition
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion
    case hue, saturation, color, luminosity

    /// The families backends draw differently.
    public enum Family: Sendable {
        /// Fixed-function blending: `normal` and `addition`.
        case fixed
        /// B works per channel.
        case separable
        /// B mixes channels (hue, saturation, color, luminosity: `SetLum`/`SetSat`).
        case nonSeparable
    }

    public var family: Family {
        switch self {
        case .normal, .addition: .fixed
        case .hue, .saturation, .color, .luminosity: .nonSeparable
        default: .separable
        }
    }

    /// Whether drawing needs the colour under the item (a copy of the backdrop).
    public var readsBackdrop: Bool { family != .fixed }

    /// The mode's number within its family, as the shaders' `u_blendMode` takes it.
    public var indexInFamily: Int {
        switch self {
        case .normal, .addition, .multiply, .hue: 0
        case .screen, .saturation: 1
        case .overlay, .color: 2
        case .darken, .luminosity: 3
        case .lighten: 4
        case .colorDodge: 5
        case .colorBurn: 6
        case .softLight: 7
        case .hardLight: 8
        case .difference: 9
        case .exclusion: 10
        }
    }
}

/// An affine map of straight (un-premultiplied) RGBA colour, `out = M·c + bias`, clamped to 0…1
/// after: the form every colour filter takes (`CIColorMatrix`, `CIColorControls`,
/// `CIColorInvert`, `CISepiaTone`), so a run of them is one matrix.
public struct ColorMatrix: Sendable, Equatable, CustomStringConvertible {
    /// Rows: red, green, blue and alpha out as dot products with (r, g, b, a) in.
    public var rows: [SIMD4<Float>]
    public var bias: SIMD4<Float>

    public init(rows: [SIMD4<Float>], bias: SIMD4<Float> = .zero) {
        precondition(rows.count == 4)
        self.rows = rows; self.bias = bias
    }

    public static let identity = ColorMatrix(rows: [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)])

    /// A matrix on RGB only (alpha passes through), rows of three.
    public init(rgb: [SIMD3<Float>], bias: SIMD3<Float> = .zero) {
        self.init(rows: rgb.map { SIMD4($0.x, $0.y, $0.z, 0) } + [SIMD4(0, 0, 0, 1)], bias: SIMD4(bias.x, bias.y, bias.z, 0))
    }

    /// `self` applied first, then `next`.
    public func followed(by next: ColorMatrix) -> ColorMatrix {
        var rows: [SIMD4<Float>] = []
        for i in 0..<4 {
            let r = next.rows[i]
            rows.append(r.x * self.rows[0] + r.y * self.rows[1] + r.z * self.rows[2] + r.w * self.rows[3])
        }
        let b = SIMD4((next.rows[0] * bias).sum(), (next.rows[1] * bias).sum(), (next.rows[2] * bias).sum(), (next.rows[3] * bias).sum())
        return ColorMatrix(rows: rows, bias: b + next.bias)
    }

    /// The matrix applied to a straight colour, unclamped.
    public func apply(_ c: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4((rows[0] * c).sum(), (rows[1] * c).sum(), (rows[2] * c).sum(), (rows[3] * c).sum()) + bias
    }

    public var description: String {
        func f(_ v: Float) -> String { DrawItem.format(CGFloat(v)) }
        return "matrix " + rows.map { "(\(f($0.x)),\(f($0.y)),\(f($0.z)),\(f($0.w)))" }.joined(separator: " ")
            + " + (\(f(bias.x)),\(f(bias.y)),\(f(bias.z)),\(f(bias.w)))"
    }
}

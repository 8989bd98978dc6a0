import Foundation
import Filters
import Layers

/// One operation of a layer's filter chain, as the plan draws it.
enum FilterStep: Equatable {
    /// A Gaussian with standard deviation `radius`, in the layer's points.
    case blur(radius: CGFloat)
    /// A colour map (a run of colour filters is one).
    case color(ColorMatrix)
}

/// What a layer's `compositingFilter`, `filters` and `backgroundFilters` ask the plan for.
struct LayerEffects {
    /// nil for source-over.
    var blend: BlendMode?
    var filters: [FilterStep]
    var backdrop: [FilterStep]

    init(_ p: LayerProperties) {
        blend = p.compositingFilter.flatMap { BlendMode($0.kind) }
        filters = Self.steps(p.filters)
        backdrop = Self.steps(p.backgroundFilters)
    }

    /// The filters as steps: filters that change nothing are left out, consecutive colour
    /// filters are composed into one matrix (Core Image works unclamped between them).
    static func steps(_ list: [LayerFilter]) -> [FilterStep] {
        var steps: [FilterStep] = []
        for filter in list {
            if filter.kind == .gaussianBlur {
                let radius = CGFloat(filter.number(kCIInputRadiusKey) ?? 0)
                if radius > 0.01 { steps.append(.blur(radius: radius)) }
            } else if let matrix = ColorMatrix(filter), matrix != .identity {
                if case .color(let previous)? = steps.last {
                    steps[steps.count - 1] = .color(previous.followed(by: matrix))
                } else {
                    steps.append(.color(matrix))
                }
            }
        }
        return steps
    }

    /// The sum of the blur radii: how far (÷3) the filtered image reaches past its content.
    static func blurReach(_ steps: [FilterStep]) -> CGFloat {
        steps.reduce(0) { sum, step in if case .blur(let r) = step { sum + r } else { sum } }
    }
}

extension BlendMode {
    /// The mode of a compositing filter; nil for `normalBlendMode` (source-over) and for
    /// filters that are not compositing filters.
    init?(_ kind: LayerFilter.Kind) {
        switch kind {
        case .multiplyBlendMode: self = .multiply
        case .screenBlendMode: self = .screen
        case .overlayBlendMode: self = .overlay
        case .darkenBlendMode: self = .darken
        case .lightenBlendMode: self = .lighten
        case .colorDodgeBlendMode: self = .colorDodge
        case .colorBurnBlendMode: self = .colorBurn
        case .softLightBlendMode: self = .softLight
        case .hardLightBlendMode: self = .hardLight
        case .differenceBlendMode: self = .difference
        case .exclusionBlendMode: self = .exclusion
        case .hueBlendMode: self = .hue
        case .saturationBlendMode: self = .saturation
        case .colorBlendMode: self = .color
        case .luminosityBlendMode: self = .luminosity
        case .addition: self = .addition
        default: return nil
        }
    }
}

extension ColorMatrix {
    /// Rec. 709 luma weights: the grey `CIColorControls` desaturates towards.
    static let lumaWeights = SIMD3<Float>(0.2126, 0.7152, 0.0722)

    /// The matrix of a colour filter (Core Image's documented formulas, on un-premultiplied
    /// colour); nil for filters that are not colour maps.
    init?(_ filter: LayerFilter) {
        func number(_ key: String) -> Float { Float(filter.number(key) ?? 0) }
        switch filter.kind {
        case .colorControls:
            // Saturation mixes with the luma grey, then contrast about ½, then brightness added.
            let s = number(kCIInputSaturationKey), b = number(kCIInputBrightnessKey), c = number(kCIInputContrastKey)
            let w = Self.lumaWeights
            let rows = (0..<3).map { i -> SIMD3<Float> in
                var unit = SIMD3<Float>(repeating: 0)
                unit[i] = 1
                return c * ((1 - s) * w + s * unit)
            }
            self.init(rgb: rows, bias: SIMD3(repeating: 0.5 * (1 - c) + b))
        case .colorInvert:
            self.init(rgb: [SIMD3(-1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1)], bias: SIMD3(repeating: 1))
        case .sepiaTone:
            // The W3C Filter Effects sepia matrix, mixed with the identity by the intensity.
            let a = number(kCIInputIntensityKey)
            let sepia: [SIMD3<Float>] = [SIMD3(0.393, 0.769, 0.189), SIMD3(0.349, 0.686, 0.168), SIMD3(0.272, 0.534, 0.131)]
            let rows = (0..<3).map { i -> SIMD3<Float> in
                var unit = SIMD3<Float>(repeating: 0)
                unit[i] = 1
                return (1 - a) * unit + a * sepia[i]
            }
            self.init(rgb: rows)
        case .colorMatrix:
            func vector(_ key: String) -> SIMD4<Float> {
                let v = (filter.value(forKey: key)?.vector ?? []).map(Float.init) + [0, 0, 0, 0]
                return SIMD4(v[0], v[1], v[2], v[3])
            }
            self.init(rows: ["inputRVector", "inputGVector", "inputBVector", "inputAVector"].map(vector),
                      bias: vector("inputBiasVector"))
        default:
            return nil
        }
    }
}

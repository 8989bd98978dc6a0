import XCTest
import Foundation
import Geometry
import Filters
import Layers
import Presentation
import Rendering
import GLRenderer
import CPURenderer
import ImageIO
import TestSupport

/// `compositingFilter`, `filters` and `backgroundFilters` drawn by both backends and checked
/// against references computed here, independently of either: W3C Compositing and Blending
/// Level 1's formulas written out in Double, Gaussian blurs of rectangles and stripes as products
/// and sums of erf, Core Image's documented colour formulas. One case at least per family:
/// separable and non-separable blend modes, addition, blur, colour filters, backdrop blur,
/// additive particles.
final class FilterReferenceTests: XCTestCase {
    nonisolated(unsafe) private static let cpu = CPURenderer()

    /// Channels (0…255, premultiplied) may differ from the reference by this much: the pipeline
    /// rounds to 8 bits between passes.
    static let tolerance = 2.0

    private func backends() throws -> [(String, any RenderBackend)] {
        [("gpu", try TestBackends.gpu()), ("cpu", Self.cpu)]
    }

    /// The frame of `root` from each backend.
    private func render(_ root: CALayer, _ width: Int, _ height: Int, at time: Double = 0,
                        background: CGColor? = nil) throws -> [(String, Image)] {
        let tree = PresentationTree.evaluate(root, at: time)
        let plan = RenderPlanBuilder(width: width, height: height, background: background).plan(for: tree)
        return try backends().map { name, backend in (name, try XCTUnwrap(backend.render(plan, images: FileImageProvider()), name)) }
    }

    private func root(_ width: CGFloat, _ height: CGFloat) -> CALayer { rootLayer(width: width, height: height) }

    private func box(_ frame: CGRect, _ color: [Double]) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = CGColor(red: color[0], green: color[1], blue: color[2], alpha: color[3])
        return layer
    }

    /// Asserts pixel (x, y) of every frame is within `tolerance` of `expected` (premultiplied, 0…1).
    private func assertPixel(_ frames: [(String, Image)], _ x: Int, _ y: Int, _ expected: [Double], tolerance: Double = tolerance,
                             _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for (name, image) in frames {
            let p = image[x, y]
            let actual = [Double(p.r), Double(p.g), Double(p.b), Double(p.a)]
            let wanted = expected.map { ($0 * 255).rounded() }
            let worst = zip(actual, wanted).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, tolerance, "\(what) on \(name) at (\(x), \(y)): \(actual) vs reference \(wanted)",
                                     file: file, line: line)
        }
    }

    // MARK: - Blend modes

    /// Premultiplied bytes of a straight colour drawn onto nothing, as the backdrop holds it.
    private func stored(_ c: [Double]) -> [Double] {
        [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]].map { ($0 * 255).rounded() / 255 }
    }

    func testEveryBlendModeOverTranslucentBackdropsMatchesTheW3CFormulas() throws {
        let backdrops: [[Double]] = [[0.9, 0.2, 0.1, 0.8], [0.1, 0.5, 0.9, 0.6], [0.2, 0.9, 0.3, 1], [0.95, 0.85, 0.1, 0.4]]
        let sources: [[Double]] = [[0.3, 0.8, 0.4, 0.7], [0.9, 0.1, 0.6, 1]]
        let opacity = 0.9
        for mode in W3CBlend.modes {
            for source in sources {
                let r = root(16 * CGFloat(backdrops.count), 16)
                for (i, b) in backdrops.enumerated() { r.addSublayer(box(CGRect(x: 16 * CGFloat(i), y: 0, width: 16, height: 16), b)) }
                let top = box(CGRect(x: 0, y: 4, width: 16 * CGFloat(backdrops.count), height: 8), source)
                top.opacity = Float(opacity)
                top.compositingFilter = mode == "addition" ? "CIAdditionCompositing" : "\(mode)BlendMode"
                r.addSublayer(top)
                let frames = try render(r, 16 * backdrops.count, 16)
                for (i, b) in backdrops.enumerated() {
                    assertPixel(frames, 16 * i + 8, 1, stored(b), "\(mode): the backdrop outside the layer")
                    // Each backend's own 8-bit backdrop is the input (0.3·255 = 76.5 may round either way).
                    for frame in frames {
                        let p = frame.1[16 * i + 8, 1]
                        let backdrop = [p.r, p.g, p.b, p.a].map { Double($0) / 255 }
                        let expected = W3CBlend.composite(mode, source: source, opacity: opacity, backdrop: backdrop)
                        assertPixel([frame], 16 * i + 8, 8, expected, "\(mode) of \(source) over \(b)")
                    }
                }
            }
        }
    }

    func testABlendModeLayerWithSublayersIsFlattenedFirst() throws {
        // Two overlapping sublayers: flattened, the top one hides the bottom one where they
        // overlap, and only the result multiplies the backdrop.
        let r = root(48, 16)
        r.addSublayer(box(CGRect(x: 0, y: 0, width: 48, height: 16), [0.2, 0.6, 0.9, 1]))
        let group = CALayer()
        group.frame = CGRect(x: 0, y: 0, width: 48, height: 16)
        group.compositingFilter = CIFilter(name: "CIMultiplyBlendMode")
        group.addSublayer(box(CGRect(x: 0, y: 0, width: 32, height: 16), [1, 0.5, 0.5, 1]))
        group.addSublayer(box(CGRect(x: 16, y: 0, width: 32, height: 16), [0.5, 1, 0.25, 0.5]))
        r.addSublayer(group)
        let frames = try render(r, 48, 16)
        let backdrop = stored([0.2, 0.6, 0.9, 1])
        // Column 2: the second sublayer over the first, flattened, then multiplied.
        let flattened = [0.5 * 0.5 + 1 * 0.5, 1 * 0.5 + 0.5 * 0.5, 0.25 * 0.5 + 0.5 * 0.5]
        assertPixel(frames, 8, 8, W3CBlend.composite("multiply", source: [1, 0.5, 0.5, 1], opacity: 1, backdrop: backdrop), "first only")
        assertPixel(frames, 24, 8, W3CBlend.composite("multiply", source: flattened + [1], opacity: 1, backdrop: backdrop), "overlap")
        assertPixel(frames, 40, 8, W3CBlend.composite("multiply", source: [0.5, 1, 0.25, 0.5], opacity: 1, backdrop: backdrop), "second only")
    }

    func testTheBackdropStopsAtAGroupOpacityAncestor() throws {
        // Inside a group-opacity parent the blend layer sees only the parent's own pass, which
        // holds nothing under it: it composites source-over there, then the group fades.
        let r = root(16, 16)
        r.addSublayer(box(CGRect(x: 0, y: 0, width: 16, height: 16), [0.2, 0.6, 0.9, 1]))
        let parent = CALayer()
        parent.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        parent.opacity = 0.5
        let first = box(CGRect(x: 0, y: 0, width: 16, height: 8), [1, 1, 0, 1])
        let blended = box(CGRect(x: 0, y: 0, width: 16, height: 16), [1, 0, 0, 1])
        blended.compositingFilter = "multiplyBlendMode"
        parent.addSublayer(first)
        parent.addSublayer(blended)
        r.addSublayer(parent)
        let frames = try render(r, 16, 16)
        let backdrop = stored([0.2, 0.6, 0.9, 1])
        func over(_ c: [Double], _ alpha: Double) -> [Double] { (0..<4).map { c[$0] * alpha + backdrop[$0] * (1 - alpha) } }
        assertPixel(frames, 8, 4, over([1, 0, 0, 1], 0.5), "multiplied with the yellow inside the group: red")
        assertPixel(frames, 8, 12, over([1, 0, 0, 1], 0.5), "over nothing inside the group: the source")
    }

    // MARK: - Filters

    /// The blurred coverage of [a, b] at x: ∫ Gaussian(σ) over the interval.
    private func coverage(_ x: Double, _ a: Double, _ b: Double, _ sigma: Double) -> Double {
        0.5 * (erf((b - x) / (sigma * 2.0.squareRoot())) - erf((a - x) / (sigma * 2.0.squareRoot())))
    }

    func testGaussianBlurOfARectangleIsTheProductOfErfs() throws {
        for radius in [3.0, 8.0, 20.0] {
            let size = 160
            let r = root(CGFloat(size), CGFloat(size))
            let square = box(CGRect(x: 50, y: 60, width: 60, height: 40), [0.9, 0.5, 0.1, 1])
            square.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: radius])!]
            r.addSublayer(square)
            let frames = try render(r, size, size)
            for (x, y) in [(80, 80), (50, 80), (45, 62), (110, 100), (30, 80), (80, 45), (120, 110), (52, 95)] {
                let k = coverage(Double(x) + 0.5, 50, 110, radius) * coverage(Double(y) + 0.5, 60, 100, radius)
                assertPixel(frames, x, y, [0.9 * k, 0.5 * k, 0.1 * k, k], "blur of radius \(radius)")
            }
        }
    }

    func testColorFiltersFollowCoreImagesFormulas() throws {
        let colors: [[Double]] = [[0.8, 0.3, 0.2, 1], [0.2, 0.4, 0.9, 0.6]]
        let filters: [(CIFilter, ([Double]) -> [Double])] = [
            (CIFilter(name: "CIColorControls", parameters: [kCIInputSaturationKey: 0.4, kCIInputBrightnessKey: 0.1, kCIInputContrastKey: 1.3])!,
             { c in
                 let luma = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
                 return c.map { v in ((luma + 0.4 * (v - luma)) - 0.5) * 1.3 + 0.5 + 0.1 }
             }),
            (CIFilter(name: "CIColorInvert")!, { c in c.map { 1 - $0 } }),
            (CIFilter(name: "CISepiaTone", parameters: [kCIInputIntensityKey: 0.75])!, { c in
                let sepia = [0.393 * c[0] + 0.769 * c[1] + 0.189 * c[2], 0.349 * c[0] + 0.686 * c[1] + 0.168 * c[2],
                             0.272 * c[0] + 0.534 * c[1] + 0.131 * c[2]]
                return (0..<3).map { 0.25 * c[$0] + 0.75 * sepia[$0] }
            }),
            (CIFilter(name: "CIColorMatrix", parameters: ["inputRVector": CIVector(x: 0, y: 1, z: 0, w: 0),
                                                          "inputGVector": CIVector(x: 0, y: 0, z: 1, w: 0),
                                                          "inputBVector": CIVector(x: 1, y: 0, z: 0, w: 0),
                                                          "inputBiasVector": CIVector(x: 0.1, y: 0, z: -0.1, w: 0)])!,
             { c in [c[1] + 0.1, c[2], c[0] - 0.1] }),
        ]
        for (filter, formula) in filters {
            let r = root(32, 16)
            for (i, c) in colors.enumerated() {
                let layer = box(CGRect(x: 16 * CGFloat(i), y: 0, width: 16, height: 16), c)
                layer.filters = [filter]
                r.addSublayer(layer)
            }
            let frames = try render(r, 32, 16)
            for (i, c) in colors.enumerated() {
                let rgb = formula(Array(c.prefix(3))).map { min(1, max(0, $0)) }
                assertPixel(frames, 16 * i + 8, 8, rgb.map { $0 * c[3] } + [c[3]], "\(filter.filterName) of \(c)")
            }
        }
    }

    func testFrostedPanelBlursTheStripesBehindItInsideItsRoundedShape() throws {
        let (width, height) = (120, 80)
        let r = root(CGFloat(width), CGFloat(height))
        r.backgroundColor = CGColor(gray: 0, alpha: 1)
        for i in 0..<(width / 8) where i % 2 == 0 {
            r.addSublayer(box(CGRect(x: 8 * CGFloat(i), y: 0, width: 4, height: CGFloat(height)), [1, 1, 1, 1]))
        }
        let panel = CALayer()
        panel.frame = CGRect(x: 30, y: 20, width: 60, height: 40)
        panel.cornerRadius = 10
        panel.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.25)
        let sigma = 3.0
        panel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: sigma])!]
        r.addSublayer(panel)
        let frames = try render(r, width, height)
        func stripes(_ x: Double) -> Double {
            var sum = 0.0
            for i in stride(from: 0, to: width / 8, by: 2) {
                let left = 8 * Double(i)
                sum += coverage(x, left, left + 4, sigma)
            }
            return sum
        }
        for x in [40, 43, 45, 50, 61, 75, 80] {
            let blurred = stripes(Double(x) + 0.5)
            let v = blurred * 0.75 + 0.25
            assertPixel(frames, x, 40, [v, v, v, 1], "frosted glass")
        }
        // Outside the panel and in its rounded-off corner, the stripes stay sharp.
        assertPixel(frames, 25, 40, [0, 0, 0, 1], "left of the panel, a gap between stripes")
        assertPixel(frames, 32, 21, [1, 1, 1, 1], "the rounded corner is not frosted (a stripe shows)")
    }

    func testMasksApplyAfterTheFiltersAndShadowsFallFromTheFilteredLayer() throws {
        // A blurred square masked to its left half: the blur spreads inside the mask only.
        let r = root(120, 80)
        let square = box(CGRect(x: 20, y: 20, width: 40, height: 40), [0.2, 0.4, 0.8, 1])
        square.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 4])!]
        let mask = box(CGRect(x: -20, y: -20, width: 40, height: 80), [0, 0, 0, 1])
        square.mask = mask
        // A blurred, shadowed square: its shadow is the blurred alpha blurred again,
        // one Gaussian of σ = √(3² + 4²) = 5.
        let shadowed = box(CGRect(x: 80, y: 20, width: 20, height: 20), [0, 0, 0, 0])
        shadowed.backgroundColor = nil
        let inner = box(CGRect(x: 0, y: 0, width: 20, height: 20), [1, 1, 1, 1])
        shadowed.addSublayer(inner)
        shadowed.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 4])!]
        shadowed.shadowOpacity = 1
        shadowed.shadowRadius = 3
        shadowed.shadowOffset = CGSize(width: 0, height: 30)
        shadowed.shadowColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        r.addSublayer(square)
        r.addSublayer(shadowed)
        let frames = try render(r, 120, 80)
        // The mask spans x 0…40 on screen: the blur shows left of the square, not right of 40.
        for (x, y) in [(22, 40), (35, 22), (39, 40), (15, 40)] {
            let k = coverage(Double(x) + 0.5, 20, 60, 4) * coverage(Double(y) + 0.5, 20, 60, 4)
            assertPixel(frames, x, y, [0.2 * k, 0.4 * k, 0.8 * k, k], "inside the mask")
        }
        assertPixel(frames, 41, 40, [0, 0, 0, 0], "right of the mask")
        for (x, y) in [(90, 60), (90, 70), (84, 55)] {
            let k = coverage(Double(x) + 0.5, 80, 100, 5) * coverage(Double(y) + 0.5, 50, 70, 5)
            assertPixel(frames, x, y, [k, 0, 0, k], "the shadow of the blurred square")
        }
    }

    func testAdditiveParticlesAddUp() throws {
        var dot = [UInt8]()
        for _ in 0..<16 { dot += [255, 255, 255, 255] }
        let image = CGImage(width: 4, height: 4, premultipliedRGBA: dot)!
        for additive in [true, false] {
            let r = root(16, 16)
            r.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
            let emitter = CAEmitterLayer()
            emitter.frame = r.bounds
            emitter.emitterPosition = CGPoint(x: 8, y: 8)
            emitter.renderMode = additive ? .additive : .unordered
            let cell = CAEmitterCell()
            cell.contents = image
            cell.birthRate = 4
            cell.lifetime = 10
            cell.velocity = 0
            cell.color = CGColor(red: 0.2, green: 0.1, blue: 0.05, alpha: 1)
            emitter.emitterCells = [cell]
            r.addSublayer(emitter)
            // Births at 0, ¼, ½ and ¾ s: four particles on one spot at 0.9 s.
            let frames = try render(r, 16, 16, at: 0.9)
            let expected = additive ? [0.1 + 0.8, 0.1 + 0.4, 0.1 + 0.2, 1] : [0.2, 0.1, 0.05, 1]
            assertPixel(frames, 8, 8, expected, additive ? "four particles added" : "the top particle")
            assertPixel(frames, 1, 1, [0.1, 0.1, 0.1, 1], "the background")
        }
    }
}

/// W3C Compositing and Blending Level 1, written out as the specification states it.
enum W3CBlend {
    static let separable = ["multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn", "hardLight",
                            "softLight", "difference", "exclusion"]
    static let nonSeparable = ["hue", "saturation", "color", "luminosity"]
    static let modes = separable + nonSeparable + ["addition"]

    static func channel(_ mode: String, _ cb: Double, _ cs: Double) -> Double {
        switch mode {
        case "multiply": return cb * cs
        case "screen": return cb + cs - cb * cs
        case "overlay": return channel("hardLight", cs, cb)
        case "darken": return min(cb, cs)
        case "lighten": return max(cb, cs)
        case "colorDodge": return cb == 0 ? 0 : cs == 1 ? 1 : min(1, cb / (1 - cs))
        case "colorBurn": return cb == 1 ? 1 : cs == 0 ? 0 : 1 - min(1, (1 - cb) / cs)
        case "hardLight": return cs <= 0.5 ? channel("multiply", cb, 2 * cs) : channel("screen", cb, 2 * cs - 1)
        case "softLight":
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case "difference": return abs(cb - cs)
        default: return cb + cs - 2 * cb * cs  // exclusion
        }
    }

    static func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }

    static func clipColor(_ c: [Double]) -> [Double] {
        let l = lum(c), n = c.min()!, x = c.max()!
        var c = c
        if n < 0 { c = c.map { l + ($0 - l) * l / (l - n) } }
        if x > 1 { c = c.map { l + ($0 - l) * (1 - l) / (x - l) } }
        return c
    }

    static func setLum(_ c: [Double], _ l: Double) -> [Double] {
        let d = l - lum(c)
        return clipColor(c.map { $0 + d })
    }

    static func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }

    /// SetSat as the specification spells it: Cmax, Cmid and Cmin by index.
    static func setSat(_ c: [Double], _ s: Double) -> [Double] {
        let order = [0, 1, 2].sorted { c[$0] < c[$1] }
        let (minI, midI, maxI) = (order[0], order[1], order[2])
        var out = [0.0, 0.0, 0.0]
        if c[maxI] > c[minI] {
            out[midI] = (c[midI] - c[minI]) * s / (c[maxI] - c[minI])
            out[maxI] = s
        }
        out[minI] = 0
        return out
    }

    static func blend(_ mode: String, _ cb: [Double], _ cs: [Double]) -> [Double] {
        switch mode {
        case "hue": return setLum(setSat(cs, sat(cb)), lum(cb))
        case "saturation": return setLum(setSat(cb, sat(cs)), lum(cb))
        case "color": return setLum(cs, lum(cb))
        case "luminosity": return setLum(cb, lum(cs))
        default: return (0..<3).map { channel(mode, cb[$0], cs[$0]) }
        }
    }

    /// The premultiplied result of a straight `source` colour faded by `opacity`, blended over a
    /// premultiplied `backdrop`.
    static func composite(_ mode: String, source: [Double], opacity: Double, backdrop b: [Double]) -> [Double] {
        let alphaS = source[3] * opacity, alphaB = b[3]
        if mode == "addition" {
            return (0..<3).map { min(1, source[$0] * alphaS + b[$0]) } + [min(1, alphaS + alphaB)]
        }
        let cb = alphaB > 0 ? (0..<3).map { b[$0] / alphaB } : [0, 0, 0]
        let mixed = blend(mode, cb, Array(source.prefix(3)))
        let rgb = (0..<3).map { i in
            alphaS * (1 - alphaB) * source[i] + alphaS * alphaB * mixed[i] + (1 - alphaS) * b[i]
        }
        return rgb + [alphaS + alphaB * (1 - alphaS)]
    }
}

import Foundation
import CEGL
import Rendering

/// One variant of `Shaders/layer.glsl` and its uniform locations.
struct LayerProgram {
    /// Which optional stages a variant compiles in.
    struct Variant: Hashable {
        var textured: Bool, tinted: Bool = false, gradient: Bool = false, shaped: Bool, masked: Bool
        /// Continuous (superellipse) corners, with `shaped`.
        var continuous = false
        var colorMatrix = false
        /// A piece of a fill's body (`FillBody.pieces`): the edge band in the band colour (`DrawItem.body`).
        var body = false
        /// A corner-mask pair: the border colour (`i_band`) over the fill colour by the texture's
        /// green and red channels (`DrawItem.borderTint`), with `textured`.
        var paired = false
        /// With `paired`: the item shows its texels one per pixel (read, not filtered).
        var exactTexels = false
        /// Reads a copy of the backdrop: the blend family, or nil for fixed-function blending.
        var blend: BlendMode.Family?
        var defines: String {
            (textured ? "#define TEXTURED 1\n" : "") + (tinted ? "#define TINTED 1\n" : "") + (gradient ? "#define GRADIENT 1\n" : "")
                + (shaped ? "#define SHAPED 1\n" : "") + (continuous ? "#define CONTINUOUS 1\n" : "") + (masked ? "#define MASKED 1\n" : "")
                + (colorMatrix ? "#define COLOR_MATRIX 1\n" : "") + (body ? "#define BODY 1\n" : "") + (paired ? "#define PAIRED 1\n" : "") + (exactTexels ? "#define EXACT_TEXELS 1\n" : "")
                + (blend == .separable ? "#define BLEND_SEPARABLE 1\n" : blend == .nonSeparable ? "#define BLEND_NONSEPARABLE 1\n" : "")
        }
    }

    let program: GLuint
    let target, texture, mask: GLint
    let gradientColors, gradientLocations, gradientCount, gradientType, gradientPoints: GLint
    let colorMatrix, colorBias, backdrop, backdropOrigin, blendMode: GLint

    init(_ variant: Variant) throws(GLContextError) {
        let linked = try GLShaderProgram.build(EmbeddedShaders.layer, name: "layer.glsl", defines: variant.defines)
        program = linked
        let location = { (name: String) -> GLint in glGetUniformLocation(linked, name) }
        target = location("u_target"); texture = location("u_texture"); mask = location("u_mask")
        gradientColors = location("u_gradientColors"); gradientLocations = location("u_gradientLocations")
        gradientCount = location("u_gradientCount"); gradientType = location("u_gradientType")
        gradientPoints = location("u_gradientPoints")
        colorMatrix = location("u_colorMatrix"); colorBias = location("u_colorBias")
        backdrop = location("u_backdrop"); backdropOrigin = location("u_backdropOrigin"); blendMode = location("u_blendMode")
    }
}

/// `Shaders/blur.glsl`: one axis of a separable Gaussian blur.
struct BlurProgram {
    let program: GLuint
    let source, step, weights, radius: GLint

    init() throws(GLContextError) {
        let linked = try GLShaderProgram.build(EmbeddedShaders.blur, name: "blur.glsl")
        program = linked
        source = glGetUniformLocation(linked, "u_source"); step = glGetUniformLocation(linked, "u_step")
        weights = glGetUniformLocation(linked, "u_weights"); radius = glGetUniformLocation(linked, "u_radius")
    }
}

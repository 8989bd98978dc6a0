// layer.glsl — the program every render-plan draw item uses (GLSL ES 3.00).
//
// Vertex inputs:
//   a_corner      vec2   corner of the unit square, (0,0)…(1,1)
// Uniforms (struct LayerProgramUniforms in GLRenderer mirrors them):
//   u_transform   mat4   item space (points) → target pixels; a row-vector matrix uploaded as is,
//                        so GLSL's column-vector product computes Core Animation's p · M
//   u_target      vec2   target size in pixels
//   u_rect        vec4   the item's rectangle (x, y, w, h) in item space
//   u_uv          vec4   normalised source rectangle (u, v, du, dv) of the texture or pass
//   u_depth       float  painter's-order depth in 0…1 (later items nearer), so opaque items can be
//                        drawn front to back first and hidden pixels are never shaded
//   u_color       vec4   premultiplied solid colour (variants without TEXTURED)
//   u_texture     sampler2D  premultiplied contents or pass result
//   u_opacity     float  multiplies everything
//   u_shape       vec4   coverage rounded rectangle (x, y, w, h) in item space (SHAPED variant)
//   u_radii       vec4   corner radii: minX-minY, maxX-minY, maxX-maxY, minX-maxY (0: square)
//   u_border      float  > 0: only a ring this wide inside the shape is covered
//   u_mask        sampler2D  alpha multiplies coverage (MASKED variant; sampled at v_uv)
// Variants: the renderer compiles this file once per combination of TEXTURED (or TINTED: the
// texture's alpha times u_color, for shadows), SHAPED and MASKED (defined right after #version), so plain quads never pay for corner math, masks or
// a branch (llvmpipe shades every fragment on the CPU). u_paint, u_shaped and u_masked are then
// implied by the variant.
// Output: premultiplied colour, blended source-over (ONE, ONE_MINUS_SRC_ALPHA).
// The framebuffer's row 0 is the image's top row: the y flip lives in this projection alone.

// --- vertex
#version 300 es
precision highp float;
in vec2 a_corner;
uniform mat4 u_transform;
uniform vec2 u_target;
uniform vec4 u_rect;
uniform vec4 u_uv;
uniform float u_depth;
out vec2 v_local;
out vec2 v_uv;
void main() {
    vec2 local = u_rect.xy + a_corner * u_rect.zw;
    vec4 p = u_transform * vec4(local, 0.0, 1.0);
    // Pixels → clip space with w kept, so the rasterizer divides (perspective) and clips w ≤ 0.
    gl_Position = vec4(2.0 * p.x / u_target.x - p.w, 2.0 * p.y / u_target.y - p.w, (2.0 * u_depth - 1.0) * p.w, p.w);
    v_local = local;
    v_uv = u_uv.xy + a_corner * u_uv.zw;
}

// --- fragment
#version 300 es
precision highp float;
in vec2 v_local;
in vec2 v_uv;
uniform vec4 u_color;
uniform sampler2D u_texture;
uniform float u_opacity;
uniform vec4 u_shape;
uniform vec4 u_radii;
uniform float u_border;
uniform sampler2D u_mask;
out vec4 fragColor;

// Signed distance to a rounded rectangle (negative inside), per-corner radii.
float roundedBoxDistance(vec2 p, vec2 halfSize, float r) {
    vec2 q = abs(p) - halfSize + vec2(r);
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

void main() {
#if defined(TINTED)
    vec4 color = u_color * texture(u_texture, v_uv).a;
#elif defined(TEXTURED)
    vec4 color = texture(u_texture, v_uv);
#else
    vec4 color = u_color;
#endif
    float coverage = u_opacity;
#if defined(SHAPED)
    vec2 center = u_shape.xy + 0.5 * u_shape.zw;
    vec2 p = v_local - center;
    float r = p.x < 0.0 ? (p.y < 0.0 ? u_radii.x : u_radii.w) : (p.y < 0.0 ? u_radii.y : u_radii.z);
    float d = roundedBoxDistance(p, 0.5 * u_shape.zw, r);
    float aa = max(fwidth(d), 1e-4);
    coverage *= clamp(0.5 - d / aa, 0.0, 1.0);
    if (u_border > 0.0) {
        coverage *= clamp(0.5 + (d + u_border) / aa, 0.0, 1.0);
    }
#endif
#if defined(MASKED)
    coverage *= texture(u_mask, v_uv).a;
#endif
    fragColor = color * coverage;
}

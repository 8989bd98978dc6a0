// layer.glsl — the program every render-plan draw item uses (GLSL ES 3.00), instanced: one
// instance per item, consecutive items that share a variant and textures in one draw call.
//
// Vertex inputs:
//   a_corner      vec2   corner of the unit square, (0,0)…(1,1)              (per vertex)
//   i_transform   mat4   item space (points) → target pixels; a row-vector matrix whose rows are
//                        fed as GL columns, so GLSL's column-vector product computes p · M
//   i_rect        vec4   the item's rectangle (x, y, w, h) in item space
//   i_uv          vec4   normalised source rectangle (u, v, du, dv) of the texture or pass
//   i_color       vec4   premultiplied solid colour; the colour of TINTED; for TEXTURED a
//                        premultiplied multiplier (white, or a replicator instance's colour)
//   i_shape       vec4   coverage rounded rectangle (x, y, w, h) in item space (SHAPED)
//   i_radii       vec4   corner radii: minX-minY, maxX-minY, maxX-maxY, minX-maxY (SHAPED)
//   i_params      vec4   x opacity, y border width (> 0: only a ring inside the shape),
//                        z painter's-order depth in 0…1 (later items nearer),
//                        w 1 for continuous corners (`cornerCurve = .continuous`), else 0
// Uniforms (struct LayerProgram in GLRenderer mirrors them):
//   u_target      vec2   target size in pixels
//   u_texture     sampler2D  premultiplied contents or pass result (TEXTURED, TINTED)
//   u_mask        sampler2D  alpha multiplies coverage (MASKED; sampled at v_uv)
//   u_gradientColors[16]    vec4   straight-alpha stop colours (GRADIENT)
//   u_gradientLocations[16] float  non-decreasing stop locations (GRADIENT)
//   u_gradientCount         int    stops in use, 1…16 (GRADIENT)
//   u_gradientType          int    0 axial, 1 radial, 2 conic (GRADIENT)
//   u_gradientPoints        vec4   start point (xy) and end point (zw) in unit space (GRADIENT);
//                                  v_uv is the fragment's unit-space point of the layer's bounds
// Variants: compiled once per combination of TEXTURED (or TINTED: the texture's alpha times
// i_color, for shadows; or GRADIENT: a CAGradientLayer's colour, §15.2), SHAPED and MASKED (defined right after #version), so plain quads never
// pay for corner math, masks or a branch (llvmpipe shades every fragment on the CPU).
// Output: premultiplied colour, blended source-over (ONE, ONE_MINUS_SRC_ALPHA). The depth lets
// opaque items be drawn front to back first so hidden pixels are never shaded.
// The framebuffer's row 0 is the image's top row: the y flip lives in this projection alone.

// --- vertex
#version 300 es
precision highp float;
layout(location = 0) in vec2 a_corner;
layout(location = 1) in mat4 i_transform;
layout(location = 5) in vec4 i_rect;
layout(location = 6) in vec4 i_uv;
layout(location = 7) in vec4 i_color;
layout(location = 8) in vec4 i_shape;
layout(location = 9) in vec4 i_radii;
layout(location = 10) in vec4 i_params;
uniform vec2 u_target;
out vec2 v_local;
out vec2 v_uv;
flat out vec4 v_color;
flat out vec4 v_shape;
flat out vec4 v_radii;
flat out vec3 v_params;
void main() {
    vec2 local = i_rect.xy + a_corner * i_rect.zw;
    vec4 p = i_transform * vec4(local, 0.0, 1.0);
    // Pixels → clip space with w kept, so the rasterizer divides (perspective) and clips w ≤ 0.
    gl_Position = vec4(2.0 * p.x / u_target.x - p.w, 2.0 * p.y / u_target.y - p.w, (2.0 * i_params.z - 1.0) * p.w, p.w);
    v_local = local;
    v_uv = i_uv.xy + a_corner * i_uv.zw;
    v_color = i_color;
    v_shape = i_shape;
    v_radii = i_radii;
    v_params = i_params.xyw;
}

// --- fragment
#version 300 es
precision highp float;
in vec2 v_local;
in vec2 v_uv;
flat in vec4 v_color;
flat in vec4 v_shape;
flat in vec4 v_radii;
flat in vec3 v_params;
uniform sampler2D u_texture;
uniform sampler2D u_mask;
#if defined(GRADIENT)
uniform vec4 u_gradientColors[16];
uniform float u_gradientLocations[16];
uniform int u_gradientCount;
uniform int u_gradientType;
uniform vec4 u_gradientPoints;

// The parameter t of unit-space point p: axial projection, radial ellipse or conic turn.
float gradientParameter(vec2 p) {
    vec2 s = u_gradientPoints.xy, d = u_gradientPoints.zw - s, q = p - s;
    if (u_gradientType == 1) {
        if (d.x == 0.0 || d.y == 0.0) return 1e30;
        return length(q / d);
    }
    if (u_gradientType == 2) {
        if (d.x == 0.0 && d.y == 0.0) return 0.0;
        float turn = (atan(q.y, q.x) - atan(d.y, d.x)) / 6.2831853;
        return turn - floor(turn);
    }
    float len = dot(d, d);
    return len > 0.0 ? dot(q, d) / len : 0.0;
}

// Premultiplied colour at t: straight-alpha stops mixed linearly, padded at both ends.
vec4 gradientColor(float t) {
    vec4 c = u_gradientColors[u_gradientCount - 1];
    if (t <= u_gradientLocations[0]) {
        c = u_gradientColors[0];
    } else {
        for (int i = 1; i < 16; i++) {
            if (i >= u_gradientCount) break;
            if (t <= u_gradientLocations[i]) {
                float span = u_gradientLocations[i] - u_gradientLocations[i - 1];
                float f = span > 0.0 ? (t - u_gradientLocations[i - 1]) / span : 1.0;
                c = mix(u_gradientColors[i - 1], u_gradientColors[i], f);
                break;
            }
        }
    }
    return vec4(c.rgb * c.a, c.a);
}
#endif
out vec4 fragColor;

// Signed distance to a rounded rectangle (negative inside). Continuous corners are drawn as a
// superellipse (exponent 3) over 1.528665 times the radius — Core Animation's reported
// expansion factor — an approximation of Apple's curvature-continuous corner.
float roundedBoxDistance(vec2 p, vec2 halfSize, float r, float continuous) {
    if (continuous > 0.5) {
        r = min(r * 1.528665, min(halfSize.x, halfSize.y));
    }
    vec2 q = abs(p) - halfSize + vec2(r);
    vec2 m = max(q, 0.0);
    float corner = continuous > 0.5 ? pow(pow(m.x, 3.0) + pow(m.y, 3.0), 1.0 / 3.0) : length(m);
    return corner + min(max(q.x, q.y), 0.0) - r;
}

void main() {
#if defined(GRADIENT)
    vec4 color = gradientColor(gradientParameter(v_uv));
#elif defined(TINTED)
    vec4 color = v_color * texture(u_texture, v_uv).a;
#elif defined(TEXTURED)
    vec4 color = texture(u_texture, v_uv) * v_color;
#else
    vec4 color = v_color;
#endif
    float coverage = v_params.x;
#if defined(SHAPED)
    vec2 center = v_shape.xy + 0.5 * v_shape.zw;
    vec2 p = v_local - center;
    float r = p.x < 0.0 ? (p.y < 0.0 ? v_radii.x : v_radii.w) : (p.y < 0.0 ? v_radii.y : v_radii.z);
    float d = roundedBoxDistance(p, 0.5 * v_shape.zw, r, v_params.z);
    // The distance's change per pixel along its gradient: a one-pixel ramp across the edge at
    // any angle (fwidth would widen it by up to √2 on diagonals).
    float aa = max(length(vec2(dFdx(d), dFdy(d))), 1e-4);
    coverage *= clamp(0.5 - d / aa, 0.0, 1.0);
    if (v_params.y > 0.0) {
        coverage *= clamp(0.5 + (d + v_params.y) / aa, 0.0, 1.0);
    }
#endif
#if defined(MASKED)
    coverage *= texture(u_mask, v_uv).a;
#endif
    fragColor = color * coverage;
}

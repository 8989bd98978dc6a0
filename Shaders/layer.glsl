// layer.glsl — the program every render-plan draw item uses (GLSL ES 3.00), instanced: one
// instance per item, consecutive items that share a variant and textures in one draw call.
//
// Vertex inputs:
//   a_corner      vec2   corner of the unit square, (0,0)…(1,1)              (per vertex)
//   i_transform   mat4   item space (points) → target pixels; a row-vector matrix whose rows are
//                        fed as GL columns, so GLSL's column-vector product computes p · M
//   i_rect        vec4   the item's rectangle (x, y, w, h) in item space
//   i_uv          vec4   normalised source rectangle (u, v, du, dv) of the texture or pass;
//                        EXACT_TEXELS: xy the target pixel of texel (0, 0)
//   i_color       vec4   premultiplied solid colour; the colour of TINTED; for TEXTURED a
//                        premultiplied multiplier (white, or a replicator instance's colour)
//   i_shape       vec4   coverage rounded rectangle (x, y, w, h) in item space (SHAPED); BODY: the
//                        card's rectangle (i_rect is the piece's)
//   i_radii       vec4   corner radii: minX-minY, maxX-minY, maxX-maxY, minX-maxY (SHAPED)
//   i_params      vec4   x opacity, y border width (> 0: only a ring inside the shape; BODY: the
//                        band width), z painter's-order depth in 0…1 (later items nearer),
//                        w 1 for continuous corners (`cornerCurve = .continuous`), else 0
//   i_band        vec4   BODY: premultiplied colour of the edge band (a border's straight parts);
//                        PAIRED: the border's premultiplied colour
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
//   u_colorMatrix  mat4   maps straight (un-premultiplied) RGBA: out = M·c + u_colorBias, clamped
//   u_colorBias    vec4   (COLOR_MATRIX: the colour filters of `filters`/`backgroundFilters`)
//   u_backdrop     sampler2D  copy of the target under the item, premultiplied (BLEND_*)
//   u_backdropOrigin ivec2    target pixel of the copy's texel (0, 0) (BLEND_*)
//   u_blendMode    int    the mode within its family (BLEND_*): separable 0 multiply, 1 screen,
//                         2 overlay, 3 darken, 4 lighten, 5 colorDodge, 6 colorBurn, 7 softLight,
//                         8 hardLight, 9 difference, 10 exclusion; non-separable 0 hue,
//                         1 saturation, 2 color, 3 luminosity
// Variants: compiled once per combination of TEXTURED (or TINTED: the texture's alpha times
// i_color, for shadows; or GRADIENT: a CAGradientLayer's colour, §15.2), SHAPED (with
// CONTINUOUS for continuous corners), BODY (a piece of a rounded fill's body — the pieces tile it
// without its corner squares, see BodyPieces in GLRenderer — with pixels within i_params.y of
// i_shape's edges in i_band; nothing discarded, which on llvmpipe would move the depth test
// after shading), PAIRED (with
// TEXTURED: a corner-mask pair, red the fill's coverage of i_color, green the border's of
// i_band, the border composited over the fill in one fragment; with EXACT_TEXELS where the pair
// lies one texel per pixel, centre on centre, its texels read instead of filtered), MASKED,
// COLOR_MATRIX and one of BLEND_SEPARABLE / BLEND_NONSEPARABLE (defined after both stages' #version),
// so plain quads never pay for corner math, masks, blending maths or a branch (llvmpipe shades
// every fragment on the CPU, and runs both sides of every branch and select).
// Output: premultiplied colour, blended source-over (ONE, ONE_MINUS_SRC_ALPHA; ONE, ONE for the
// `addition` mode). The BLEND_* variants output cs·(1 − αb) + αs·αb·B(Cb, Cs) with alpha αs —
// W3C Compositing and Blending's result once source-over adds cb·(1 − αs). The depth lets
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
layout(location = 11) in vec4 i_band;
uniform vec2 u_target;
out vec2 v_local;
out vec2 v_uv;
flat out vec4 v_color;
flat out vec4 v_shape;
flat out vec4 v_radii;
flat out vec3 v_params;
flat out vec4 v_band;
#if defined(BODY)
flat out vec2 v_center;
flat out vec2 v_inner;
#endif
#if defined(EXACT_TEXELS)
flat out vec2 v_texelOrigin;
#endif
void main() {
#if defined(BODY)
    // The card's centre on the target and how far from it the fill reaches before the band, in
    // pixels: bodies are drawn axis-aligned (no rotation or perspective; the plan checks).
    vec2 scale = abs(vec2(i_transform[0][0], i_transform[1][1]));
    v_center = (i_transform * vec4(i_shape.xy + 0.5 * i_shape.zw, 0.0, 1.0)).xy;
    v_inner = (0.5 * i_shape.zw - i_params.y) * scale;
#endif
#if defined(EXACT_TEXELS)
    v_texelOrigin = i_uv.xy;
#endif
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
    v_band = i_band;
#if defined(BODY)
    // A body's colours come faded (the fragment stage would multiply each of its pixels).
    v_color = i_color * i_params.x;
    v_band = i_band * i_params.x;
#endif
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
flat in vec4 v_band;
#if defined(BODY)
flat in vec2 v_center;
flat in vec2 v_inner;
#endif
#if defined(EXACT_TEXELS)
flat in vec2 v_texelOrigin;
#endif
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
#if defined(COLOR_MATRIX)
uniform mat4 u_colorMatrix;
uniform vec4 u_colorBias;

vec4 mapColor(vec4 c) {
    vec4 straight = c.a > 0.0 ? vec4(c.rgb / c.a, c.a) : vec4(0.0);
    vec4 o = clamp(u_colorMatrix * straight + u_colorBias, 0.0, 1.0);
    return vec4(o.rgb * o.a, o.a);
}
#endif
#if defined(BLEND_SEPARABLE) || defined(BLEND_NONSEPARABLE)
uniform sampler2D u_backdrop;
uniform ivec2 u_backdropOrigin;
uniform int u_blendMode;
#endif
#if defined(BLEND_SEPARABLE)
float hardLight(float b, float s) {
    return s <= 0.5 ? b * (2.0 * s) : b + (2.0 * s - 1.0) - b * (2.0 * s - 1.0);
}

float blendChannel(float b, float s) {
    if (u_blendMode == 0) return b * s;
    if (u_blendMode == 1) return b + s - b * s;
    if (u_blendMode == 2) return hardLight(s, b);
    if (u_blendMode == 3) return min(b, s);
    if (u_blendMode == 4) return max(b, s);
    if (u_blendMode == 5) {
        if (b == 0.0) return 0.0;
        if (s >= 1.0) return 1.0;
        return min(1.0, b / (1.0 - s));
    }
    if (u_blendMode == 6) {
        if (b >= 1.0) return 1.0;
        if (s <= 0.0) return 0.0;
        return 1.0 - min(1.0, (1.0 - b) / s);
    }
    if (u_blendMode == 7) {
        if (s <= 0.5) return b - (1.0 - 2.0 * s) * b * (1.0 - b);
        float d = b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
        return b + (2.0 * s - 1.0) * (d - b);
    }
    if (u_blendMode == 8) return hardLight(b, s);
    if (u_blendMode == 9) return abs(b - s);
    return b + s - 2.0 * b * s;
}

vec3 blendColors(vec3 cb, vec3 cs) {
    return vec3(blendChannel(cb.r, cs.r), blendChannel(cb.g, cs.g), blendChannel(cb.b, cs.b));
}
#endif
#if defined(BLEND_NONSEPARABLE)
float luminosity(vec3 c) { return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; }

vec3 clipColor(vec3 c) {
    float l = luminosity(c);
    float n = min(min(c.r, c.g), c.b), x = max(max(c.r, c.g), c.b);
    if (n < 0.0 && l - n > 1e-6) c = l + (c - l) * (l / (l - n));
    if (x > 1.0 && x - l > 1e-6) c = l + (c - l) * ((1.0 - l) / (x - l));
    return c;
}

vec3 setLuminosity(vec3 c, float l) { return clipColor(c + (l - luminosity(c))); }

float saturation(vec3 c) { return max(max(c.r, c.g), c.b) - min(min(c.r, c.g), c.b); }

// SetSat: the largest channel becomes s, the smallest 0, the middle one in proportion.
vec3 setSaturation(vec3 c, float s) {
    float n = min(min(c.r, c.g), c.b), x = max(max(c.r, c.g), c.b);
    if (x <= n) return vec3(0.0);
    return (c - n) * (s / (x - n));
}

vec3 blendColors(vec3 cb, vec3 cs) {
    if (u_blendMode == 0) return setLuminosity(setSaturation(cs, saturation(cb)), luminosity(cb));
    if (u_blendMode == 1) return setLuminosity(setSaturation(cb, saturation(cs)), luminosity(cb));
    if (u_blendMode == 2) return setLuminosity(cs, luminosity(cb));
    return setLuminosity(cb, luminosity(cs));
}
#endif
#if defined(BLEND_SEPARABLE) || defined(BLEND_NONSEPARABLE)
// What to draw source-over so that the result is the blend of `s` over the backdrop.
vec4 blendOverBackdrop(vec4 s) {
    if (s.a <= 0.0) return s;
    vec4 b = texelFetch(u_backdrop, ivec2(gl_FragCoord.xy) - u_backdropOrigin, 0);
    vec3 cs = clamp(s.rgb / s.a, 0.0, 1.0);
    vec3 cb = b.a > 0.0 ? clamp(b.rgb / b.a, 0.0, 1.0) : vec3(0.0);
    return vec4(s.rgb * (1.0 - b.a) + s.a * b.a * blendColors(cb, cs), s.a);
}
#endif
out vec4 fragColor;

// Signed distance to a rounded rectangle (negative inside). Continuous corners are drawn as a
// superellipse (exponent 3) over 1.528665 times the radius — Core Animation's reported
// expansion factor — an approximation of Apple's curvature-continuous corner.
// (CONTINUOUS is a variant, not a flag: llvmpipe would evaluate the superellipse's pow for
// every fragment of every shaped item.)
float roundedBoxDistance(vec2 p, vec2 halfSize, float r) {
#if defined(CONTINUOUS)
    r = min(r * 1.528665, min(halfSize.x, halfSize.y));
    vec2 q = abs(p) - halfSize + vec2(r);
    vec2 m = max(q, 0.0);
    float corner = pow(pow(m.x, 3.0) + pow(m.y, 3.0), 1.0 / 3.0);
#else
    vec2 q = abs(p) - halfSize + vec2(r);
    vec2 m = max(q, 0.0);
    float corner = length(m);
#endif
    return corner + min(max(q.x, q.y), 0.0) - r;
}

void main() {
#if defined(GRADIENT)
    vec4 color = gradientColor(gradientParameter(v_uv));
#elif defined(TINTED)
    vec4 color = v_color * texture(u_texture, v_uv).a;
#elif defined(PAIRED)
    // What drawing the fill (coverage m.r) and then its border (m.g) over it at opacity o gives:
    // o·(B·m.g + F·m.r·(1 − o·Bα·m.g)), o applied below.
#if defined(EXACT_TEXELS)
    // One texel per pixel, centre on centre: the texel itself (what filtering there returns).
    vec4 m = texelFetch(u_texture, ivec2(gl_FragCoord.xy - v_texelOrigin), 0);
#else
    vec4 m = texture(u_texture, v_uv);
#endif
    vec4 color = v_band * m.g + v_color * m.r * (1.0 - v_params.x * v_band.a * m.g);
#elif defined(TEXTURED)
    vec4 color = texture(u_texture, v_uv) * v_color;
#else
    vec4 color = v_color;
#endif
#if defined(COLOR_MATRIX)
    color = mapColor(color);
#endif
#if defined(BODY)
    float coverage = 1.0;
#else
    float coverage = v_params.x;
#endif
#if defined(SHAPED)
    vec2 center = v_shape.xy + 0.5 * v_shape.zw;
    vec2 p = v_local - center;
    float r = p.x < 0.0 ? (p.y < 0.0 ? v_radii.x : v_radii.w) : (p.y < 0.0 ? v_radii.y : v_radii.z);
    float d = roundedBoxDistance(p, 0.5 * v_shape.zw, r);
    // The distance's change per pixel along its gradient: a one-pixel ramp across the edge at
    // any angle (fwidth would widen it by up to √2 on diagonals).
    float aa = max(length(vec2(dFdx(d), dFdy(d))), 1e-4);
    coverage *= clamp(0.5 - d / aa, 0.0, 1.0);
    if (v_params.y > 0.0) {
        coverage *= clamp(0.5 + (d + v_params.y) / aa, 0.0, 1.0);
    }
#endif
#if defined(BODY)
    // The band is the border's straight part: within i_params.y of the card's edges.
    vec2 q = abs(gl_FragCoord.xy - v_center);
    if (q.x > v_inner.x || q.y > v_inner.y) color = v_band;
#endif
#if defined(MASKED)
    coverage *= texture(u_mask, v_uv).a;
#endif
#if defined(BLEND_SEPARABLE) || defined(BLEND_NONSEPARABLE)
    color = blendOverBackdrop(color);
#endif
    fragColor = color * coverage;
}

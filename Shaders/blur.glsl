// blur.glsl — one axis of a separable Gaussian blur (GLSL ES 3.00), for shadows and filters.
//
// Vertex inputs:
//   a_corner   vec2       corner of the unit square; the quad covers the whole target
// Uniforms (mirrored by BlurProgram in GLRenderer):
//   u_source   sampler2D  the pass to blur (premultiplied)
//   u_step     vec2       one texel along the blur axis, in texture coordinates
//   u_weights  float[65]  the tap weights for offsets 0…u_radius, summing to 1 over both sides
//                         (GaussianKernel in Rendering, which the CPU backend uses too)
//   u_radius   int        taps on each side: ceil(3σ), at most 64
// Output: the blurred premultiplied colour; texture row 0 stays framebuffer row 0.

// --- vertex
#version 300 es
precision highp float;
in vec2 a_corner;
out vec2 v_uv;
void main() {
    v_uv = a_corner;
    gl_Position = vec4(a_corner * 2.0 - 1.0, 0.0, 1.0);
}

// --- fragment
#version 300 es
precision highp float;
in vec2 v_uv;
uniform sampler2D u_source;
uniform vec2 u_step;
uniform float u_weights[65];
uniform int u_radius;
out vec4 fragColor;
void main() {
    vec4 sum = texture(u_source, v_uv) * u_weights[0];
    for (int i = 1; i <= u_radius; i++) {
        vec2 d = u_step * float(i);
        sum += (texture(u_source, v_uv + d) + texture(u_source, v_uv - d)) * u_weights[i];
    }
    fragColor = sum;
}

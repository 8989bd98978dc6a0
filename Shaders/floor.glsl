// floor.glsl — the benchmark floor (GLSL ES 3.00): a textured quad per draw, nothing else.
// `lamina bench` times Lamina's GPU path against a hand-written loop of these draws
// (GLFloorLoop in the Benchmarks target), so it measures what the GPU path adds.
//
// Vertex inputs:
//   a_corner   vec2       corner of the unit square (0…1), also the texture coordinate
// Uniforms (mirrored by GLFloorLoop):
//   u_m        mat4       unit square → clip space (column-major, as GL reads it)
//   u_t        sampler2D  the quad's texture (premultiplied)
// Output: the texel as sampled; blending (premultiplied source-over) is set by the loop.

// --- vertex
#version 300 es
in vec2 a_corner;
uniform mat4 u_m;
out vec2 v_uv;
void main() {
    v_uv = a_corner;
    gl_Position = u_m * vec4(a_corner, 0.0, 1.0);
}

// --- fragment
#version 300 es
precision mediump float;
in vec2 v_uv;
uniform sampler2D u_t;
out vec4 color;
void main() { color = texture(u_t, v_uv); }

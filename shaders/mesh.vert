#version 410 core
// Lit, smooth-shaded meshes (muscles and bones); positions are world space.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_color;
layout(location = 3) in vec4 a_fiber;  // muscles: cos θ, sin θ around the muscle, stripe count, glow; else 0

layout(location = 4) in vec2 a_uv;     // base colour texture coordinates (0 without a texture)

uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;
// The selected muscle's particles [first, end): its vertices (one per
// particle, so gl_VertexID is the particle) get the outline; bones: empty.
uniform int u_sel_first;
uniform int u_sel_end;

out vec3 v_pos;
out vec3 v_normal;
out vec3 v_color;
out vec4 v_fiber;
out vec4 v_light;
out vec2 v_uv;
out float v_selected;

void main() {
    v_pos = a_pos;
    v_normal = a_normal;
    v_color = a_color;
    v_fiber = a_fiber;
    v_uv = a_uv;
    v_selected = gl_VertexID >= u_sel_first && gl_VertexID < u_sel_end ? 1.0 : 0.0;
    v_light = u_light_view_proj * vec4(a_pos, 1.0);
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}

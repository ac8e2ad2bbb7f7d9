#version 410 core
// A square in the ground plane (XZ), centred under the scene.
layout(location = 0) in vec2 a_xz;
uniform mat4 u_view_proj;
uniform mat4 u_model;
uniform mat4 u_light_view_proj;
out vec3 v_pos;
out vec4 v_light;
void main() {
    vec4 p = u_model * vec4(a_xz.x, 0.0, a_xz.y, 1.0);
    v_pos = p.xyz;
    v_light = u_light_view_proj * p;
    gl_Position = u_view_proj * p;
}

#version 410 core
// Overlay lines and points with per-vertex colour.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_color;
uniform mat4 u_view_proj;
uniform float u_point_size;
out vec4 v_color;
void main() {
    v_color = a_color;
    gl_PointSize = u_point_size;
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}

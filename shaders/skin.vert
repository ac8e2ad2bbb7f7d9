#version 410 core
// Translucent meshes (material alphaMode BLEND, e.g. the generated skin);
// positions are world space, posed on the CPU (engine/render/bone_pose.h).
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;

layout(location = 4) in vec2 a_uv;     // base colour texture coordinates (0 without a texture)

uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;

out vec3 v_pos;
out vec3 v_normal;
out vec4 v_light;
out vec2 v_uv;

void main() {
    v_pos = a_pos;
    v_normal = a_normal;
    v_uv = a_uv;
    v_light = u_light_view_proj * vec4(a_pos, 1.0);
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}

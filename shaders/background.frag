#version 410 core
// Vertical gradient: light at the horizon, cooler above, like a studio backdrop.
in vec2 v_uv;
out vec4 frag_color;
void main() {
    vec3 top = vec3(0.36, 0.41, 0.48);
    vec3 bottom = vec3(0.70, 0.71, 0.72);
    frag_color = vec4(mix(bottom, top, clamp(v_uv.y, 0.0, 1.0)), 1.0);
}

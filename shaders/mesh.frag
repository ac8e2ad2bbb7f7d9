#version 410 core
// Hemisphere ambient + one key light with soft PCF shadows + a faint rim, in
// linear space; vertex colours (from the perceptual colour maps) are sRGB.
in vec3 v_pos;
in vec3 v_normal;
in vec3 v_color;
in vec4 v_light;

uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform sampler2DShadow u_shadow;
uniform int u_use_shadow;
uniform float u_shadow_texel;

out vec4 frag_color;

const vec2 kPoisson[12] = vec2[](
    vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893),
    vec2(0.507, 0.064), vec2(0.896, 0.412), vec2(-0.322, -0.933), vec2(-0.792, -0.598));

float shadowFactor(vec3 n, vec3 l) {
    if (u_use_shadow == 0) return 1.0;
    vec3 p = v_light.xyz / v_light.w * 0.5 + 0.5;
    if (p.x < 0.0 || p.x > 1.0 || p.y < 0.0 || p.y > 1.0 || p.z > 1.0) return 1.0;
    float bias = 0.0015 + 0.004 * (1.0 - max(dot(n, l), 0.0));
    float s = 0.0;
    for (int i = 0; i < 12; ++i)
        s += texture(u_shadow, vec3(p.xy + kPoisson[i] * 2.5 * u_shadow_texel, p.z - bias));
    return s / 12.0;
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_pos);
    if (dot(n, v) < 0.0) n = -n;  // inner side seen through a hidden neighbour or a cut
    vec3 l = normalize(u_light_dir);
    vec3 base = pow(v_color, vec3(2.2));

    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.10, 0.09, 0.09), vec3(0.32, 0.34, 0.38), hemi);
    float diffuse = max(dot(n, l), 0.0);
    float sh = shadowFactor(n, l);
    vec3 h = normalize(l + v);
    float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.18;
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.08;
    // A weak fill light from the camera side keeps the unlit side readable.
    float fill = 0.25 * max(dot(n, v), 0.0);

    vec3 c = base * (ambient + 0.95 * diffuse * sh + fill) + vec3(spec * sh + rim);
    frag_color = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}

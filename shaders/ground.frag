#version 410 core
// Anti-aliased grid (minor lines every u_spacing, major every 5) fading out
// with distance, darkened by a wide-kernel soft shadow: the cue that shows
// where the muscles hang above the floor.
in vec3 v_pos;
in vec4 v_light;
uniform sampler2DShadow u_shadow;
uniform int u_use_shadow;
uniform float u_shadow_texel;
uniform int u_fast_shadow;     // 1: four taps (the fast render path)
uniform float u_spacing;
uniform vec3 u_center;
uniform float u_extent;
out vec4 frag_color;

const vec2 kPoisson[12] = vec2[](
    vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893),
    vec2(0.507, 0.064), vec2(0.896, 0.412), vec2(-0.322, -0.933), vec2(-0.792, -0.598));

// The fast render path (engine/render/render_path.h): four taps on a square.
const vec2 kFastTaps[4] = vec2[](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(-0.5, 0.5), vec2(0.5, 0.5));

float gridLine(vec2 coord) {
    vec2 g = abs(fract(coord - 0.5) - 0.5) / fwidth(coord);
    return 1.0 - min(min(g.x, g.y), 1.0);
}

float shadowFactor() {
    if (u_use_shadow == 0) return 1.0;
    vec3 p = v_light.xyz / v_light.w * 0.5 + 0.5;
    if (p.x < 0.0 || p.x > 1.0 || p.y < 0.0 || p.y > 1.0 || p.z > 1.0) return 1.0;
    float s = 0.0;
    if (u_fast_shadow == 1) {
        // One ring of four taps at the two rings' mean radius (the map has half the texels).
        for (int i = 0; i < 4; ++i)
            s += texture(u_shadow, vec3(p.xy + kFastTaps[i] * 5.0 * u_shadow_texel, p.z - 0.002));
        return s / 4.0;
    }
    // Two rings of taps: the penumbra widens like a contact shadow's.
    for (int i = 0; i < 12; ++i) {
        s += texture(u_shadow, vec3(p.xy + kPoisson[i] * 6.0 * u_shadow_texel, p.z - 0.002));
        s += texture(u_shadow, vec3(p.xy + kPoisson[i].yx * 14.0 * u_shadow_texel, p.z - 0.002));
    }
    return s / 24.0;
}

void main() {
    vec2 c = v_pos.xz / u_spacing;
    float minor = gridLine(c);
    float major = gridLine(c / 5.0);
    vec3 base = vec3(0.80, 0.80, 0.78);
    vec3 col = mix(base, vec3(0.55, 0.56, 0.58), max(minor * 0.45, major * 0.85));
    float sh = shadowFactor();
    col *= mix(0.55, 1.0, sh);
    float d = length(v_pos.xz - u_center.xz) / u_extent;
    float alpha = 1.0 - smoothstep(0.45, 1.0, d);
    frag_color = vec4(col, alpha);
}

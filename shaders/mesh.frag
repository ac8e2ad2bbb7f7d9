#version 410 core
// Hemisphere ambient + one key light with soft PCF shadows + a faint rim, in
// linear space; vertex colours are sRGB. Muscles (a fibre direction given)
// get fine striation along their fibres and, with activation, a warm glow.
in vec3 v_pos;
in vec3 v_normal;
in vec3 v_color;
in vec4 v_fiber;
in vec4 v_light;
in vec2 v_uv;
in float v_selected;

uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform sampler2DShadow u_shadow;
uniform int u_use_shadow;
uniform float u_shadow_texel;
uniform int u_fast_shadow;     // 1: four taps (the fast render path)
// A glTF base colour texture (sRGB, so sampled linear) multiplies the
// material colour; MASK materials drop texels under their cutoff.
uniform sampler2D u_base_texture;
uniform int u_textured;
uniform float u_alpha_cutoff;   // < 0: none

out vec4 frag_color;

const vec2 kPoisson[12] = vec2[](
    vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893),
    vec2(0.507, 0.064), vec2(0.896, 0.412), vec2(-0.322, -0.933), vec2(-0.792, -0.598));

// The fast render path (engine/render/render_path.h): four taps on a square.
const vec2 kFastTaps[4] = vec2[](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(-0.5, 0.5), vec2(0.5, 0.5));

float shadowFactor(vec3 n, vec3 l) {
    if (u_use_shadow == 0) return 1.0;
    vec3 p = v_light.xyz / v_light.w * 0.5 + 0.5;
    if (p.x < 0.0 || p.x > 1.0 || p.y < 0.0 || p.y > 1.0 || p.z > 1.0) return 1.0;
    float bias = 0.0015 + 0.004 * (1.0 - max(dot(n, l), 0.0));
    float s = 0.0;
    if (u_fast_shadow == 1) {
        for (int i = 0; i < 4; ++i)
            s += texture(u_shadow, vec3(p.xy + kFastTaps[i] * 1.5 * u_shadow_texel, p.z - bias));
        return s / 4.0;
    }
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
    if (u_textured == 1) {
        vec4 texel = texture(u_base_texture, v_uv);
        if (u_alpha_cutoff >= 0.0 && texel.a < u_alpha_cutoff) discard;
        base *= texel.rgb;
    }
    // Striation: stripes of constant angle around the muscle run along it
    // (fascicle bundles ~1.5 mm apart); faded out where they would be finer
    // than two pixels, and towards the tendons (the count falls to 0 there).
    if (v_fiber.z > 0.5 && dot(v_fiber.xy, v_fiber.xy) > 1e-4) {
        float count = floor(v_fiber.z), belly = fract(v_fiber.z) / 0.49;
        float phase = atan(v_fiber.y, v_fiber.x) * count;
        float fade = clamp(1.5 - fwidth(phase) / 3.1415927, 0.0, 1.0) * belly;
        float stripe = 0.5 + 0.5 * sin(phase);
        base *= 1.0 - 0.25 * fade * stripe;
    }

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
    // Activation glow: emitted, so it reads on the shadowed side too.
    c += v_fiber.w * vec3(1.0, 0.38, 0.06) * (0.35 + 0.65 * pow(1.0 - max(dot(n, v), 0.0), 1.5));
    // The selected muscle (picked or chosen in the list): a bright band
    // where its surface turns away from the eye, an outline around it.
    if (v_selected > 0.5) c = mix(c, vec3(1.0, 0.82, 0.3), smoothstep(0.55, 0.85, 1.0 - max(dot(n, v), 0.0)));
    frag_color = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}

#version 410 core
// Translucent meshes, drawn after everything opaque in two passes (back
// faces, then front faces; docs/architecture.md, "Renderer"). Lit like
// mesh.frag (hemisphere ambient, key light with the opaque geometry's
// shadow, camera fill); the alpha rises towards the silhouette (a
// Fresnel-like rim) so the outline of a thin, faint skin still reads while
// the middle stays see-through. The back faces (the far side, seen through
// the near one) are fainter and carry no rim.
in vec3 v_pos;
in vec3 v_normal;
in vec4 v_light;
in vec2 v_uv;

uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform vec3 u_color;     // sRGB
uniform float u_alpha;    // material alpha × the opacity setting
uniform int u_back;       // 1: back-face pass
uniform sampler2DShadow u_shadow;
uniform int u_use_shadow;
uniform float u_shadow_texel;
uniform int u_fast_shadow;     // 1: four taps (the fast render path)
uniform sampler2D u_base_texture;  // as in mesh.frag; its alpha multiplies u_alpha
uniform int u_textured;

out vec4 frag_color;

const vec2 kPoisson[8] = vec2[](
    vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893));

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
    for (int i = 0; i < 8; ++i)
        s += texture(u_shadow, vec3(p.xy + kPoisson[i] * 2.5 * u_shadow_texel, p.z - bias));
    return s / 8.0;
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_pos);
    if (dot(n, v) < 0.0) n = -n;  // back faces: lit as the inner side
    vec3 l = normalize(u_light_dir);
    vec3 base = pow(u_color, vec3(2.2));
    float alpha = u_alpha;
    if (u_textured == 1) {
        vec4 texel = texture(u_base_texture, v_uv);
        base *= texel.rgb;
        alpha *= texel.a;
    }
    float ndv = max(dot(n, v), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.14, 0.12, 0.12), vec3(0.36, 0.37, 0.40), hemi);
    float diffuse = max(dot(n, l), 0.0) * shadowFactor(n, l);
    vec3 h = normalize(l + v);
    float spec = pow(max(dot(n, h), 0.0), 30.0) * 0.25;
    float fill = 0.25 * ndv;
    vec3 c = base * (ambient + 0.9 * diffuse + fill) + vec3(spec);
    // Towards the silhouette the skin turns nearly opaque and a little
    // darker: a mid-tone contour that reads on the pale floor and the dark
    // sky alike.
    float rim = pow(1.0 - ndv, 2.0);
    float a;
    if (u_back == 1) {
        a = 0.45 * alpha;
    } else {
        c *= mix(1.0, 0.75, rim);
        a = mix(alpha, min(1.0, 3.2 * alpha + 0.1), rim);
        a = clamp(a + spec * alpha, 0.0, 1.0);
    }
    frag_color = vec4(pow(c, vec3(1.0 / 2.2)), a);
}

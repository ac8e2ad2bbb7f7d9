#include "engine/anatomy/skin_outline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace engine {

namespace {

constexpr double kPi = 3.14159265358979323846;

int findBone(const std::vector<OutlineBone>& bones, const std::string& name) {
    for (size_t i = 0; i < bones.size(); ++i)
        if (bones[i].name == name) return int(i);
    return -1;
}

glm::vec3 unit(glm::vec3 v) {
    const float l = glm::length(v);
    return l > 0.0f ? v / l : glm::vec3(0, -1, 0);
}

// Exact signed distance of a round cone (segment a→b, radii r1→r2), after
// Inigo Quilez's formulation, in double for stable bits near the axis.
double roundCone(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, double r1, double r2) {
    const glm::dvec3 ba = b - a;
    const double l2 = glm::dot(ba, ba);
    if (l2 < 1e-18) return glm::length(p - a) - std::max(r1, r2);
    const double rr = r1 - r2, a2 = l2 - rr * rr, il2 = 1.0 / l2;
    const glm::dvec3 pa = p - a;
    const double y = glm::dot(pa, ba), z = y - l2;
    const glm::dvec3 xv = pa * l2 - ba * y;
    const double x2 = glm::dot(xv, xv), y2 = y * y * l2, z2 = z * z * l2;
    const double k = (rr > 0 ? 1.0 : rr < 0 ? -1.0 : 0.0) * rr * rr * x2;
    if ((z > 0 ? 1.0 : z < 0 ? -1.0 : 0.0) * a2 * z2 > k) return std::sqrt(x2 + z2) * il2 - r2;
    if ((y > 0 ? 1.0 : y < 0 ? -1.0 : 0.0) * a2 * y2 < k) return std::sqrt(x2 + y2) * il2 - r1;
    return (std::sqrt(x2 * a2 * il2) + y * rr) * il2 - r1;
}

// Polynomial smooth minimum (blend radius k).
float smin(float a, float b, float k) {
    const float h = std::max(k - std::fabs(a - b), 0.0f) / k;
    return std::min(a, b) - h * h * k * 0.25f;
}

// Moves p onto the zero set of f along the gradient (Newton steps).
glm::vec3 project(const std::function<float(glm::vec3)>& f, glm::vec3 p) {
    constexpr float h = 1e-4f;
    for (int it = 0; it < 3; ++it) {
        const float v = f(p);
        if (std::fabs(v) < 1e-6f) break;
        const glm::vec3 g((f(p + glm::vec3(h, 0, 0)) - f(p - glm::vec3(h, 0, 0))) / (2 * h),
                          (f(p + glm::vec3(0, h, 0)) - f(p - glm::vec3(0, h, 0))) / (2 * h),
                          (f(p + glm::vec3(0, 0, h)) - f(p - glm::vec3(0, 0, h))) / (2 * h));
        const float g2 = glm::dot(g, g);
        if (!(g2 > 1e-8f)) break;
        glm::vec3 step = v * g / g2;
        const float l = glm::length(step);
        if (l > 0.01f) step *= 0.01f / l;  // never jump across a thin part
        p -= step;
    }
    return p;
}

float quality(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const float area2 = glm::length(glm::cross(b - a, c - a));  // twice the area
    const float s = glm::dot(b - a, b - a) + glm::dot(c - b, c - b) + glm::dot(a - c, a - c);
    return s > 0.0f ? 2.0f * std::sqrt(3.0f) * area2 / s : 0.0f;  // 1 for equilateral
}

// Edge-collapse reduction of a closed manifold mesh: in passes, the shortest
// edges first, each collapse on its own neighbourhood (an independent set per
// pass, so the order of collapses never depends on earlier ones in the same
// region). A collapse must keep the mesh manifold (link condition, valence
// > 3 at the two opposite vertices), not flip or squash a triangle, and not
// make an edge longer than `max_edge`. The merged vertex goes to the
// surface of f.
void decimate(MeshData& m, size_t target, float max_edge, const std::function<float(glm::vec3)>& f) {
    std::vector<glm::vec3>& V = m.vertices;
    std::vector<glm::uvec3>& T = m.triangles;
    std::vector<uint8_t> alive(T.size(), 1);
    std::vector<std::vector<uint32_t>> vt(V.size());
    for (uint32_t t = 0; t < T.size(); ++t)
        for (int k = 0; k < 3; ++k) vt[T[t][k]].push_back(t);
    size_t count = T.size();
    std::vector<uint32_t> na, nb;
    auto ring = [&](uint32_t v, std::vector<uint32_t>& out) {
        out.clear();
        for (uint32_t t : vt[v])
            for (int k = 0; k < 3; ++k)
                if (T[t][k] != v) out.push_back(T[t][k]);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    };
    auto tryCollapse = [&](uint32_t a, uint32_t b) {
        ring(a, na);
        ring(b, nb);
        std::array<uint32_t, 3> common{};
        size_t nc = 0;
        for (uint32_t x : na)
            if (std::binary_search(nb.begin(), nb.end(), x)) {
                if (nc == 2) return false;  // link condition
                common[nc++] = x;
            }
        if (nc != 2) return false;
        for (size_t c = 0; c < 2; ++c)
            if (vt[common[c]].size() <= 3) return false;
        if (vt[a].size() + vt[b].size() - 4 < 3) return false;
        const glm::vec3 p = 0.5f * (V[a] + V[b]);
        for (uint32_t v : {a, b})
            for (uint32_t t : vt[v]) {
                glm::uvec3 tri = T[t];
                const bool has_a = tri.x == a || tri.y == a || tri.z == a;
                const bool has_b = tri.x == b || tri.y == b || tri.z == b;
                if (has_a && has_b) continue;
                std::array<glm::vec3, 3> q{V[tri.x], V[tri.y], V[tri.z]};
                const glm::vec3 n0 = glm::cross(q[1] - q[0], q[2] - q[0]);
                for (int k = 0; k < 3; ++k)
                    if (tri[k] == v) q[size_t(k)] = p;
                const glm::vec3 n1 = glm::cross(q[1] - q[0], q[2] - q[0]);
                const float l0 = glm::length(n0), l1 = glm::length(n1);
                if (!(l1 > 0.0f) || glm::dot(n0, n1) < 0.6f * l0 * l1) return false;
                if (quality(q[0], q[1], q[2]) < 0.2f) return false;
                for (int k = 0; k < 3; ++k)
                    if (glm::length(q[size_t(k)] - q[size_t((k + 1) % 3)]) > max_edge) return false;
            }
        for (uint32_t t : vt[b]) {
            glm::uvec3& tri = T[t];
            if (tri.x == a || tri.y == a || tri.z == a) {
                alive[t] = 0;
                --count;
                continue;
            }
            for (int k = 0; k < 3; ++k)
                if (tri[k] == b) tri[k] = a;
            vt[a].push_back(t);
        }
        vt[b].clear();
        std::erase_if(vt[a], [&](uint32_t t) { return !alive[t]; });
        for (uint32_t c : {common[0], common[1]}) std::erase_if(vt[c], [&](uint32_t t) { return !alive[t]; });
        V[a] = project(f, p);
        return true;
    };
    struct Edge {
        float len2;
        uint32_t a, b;
    };
    std::vector<Edge> edges;
    std::vector<uint8_t> touched(V.size());
    while (count > target) {
        edges.clear();
        for (uint32_t t = 0; t < T.size(); ++t) {
            if (!alive[t]) continue;
            for (int k = 0; k < 3; ++k) {
                const uint32_t a = T[t][k], b = T[t][(k + 1) % 3];
                if (a < b) edges.push_back({glm::dot(V[a] - V[b], V[a] - V[b]), a, b});
            }
        }
        std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
            return x.len2 != y.len2 ? x.len2 < y.len2 : x.a != y.a ? x.a < y.a : x.b < y.b;
        });
        std::fill(touched.begin(), touched.end(), 0);
        size_t done = 0;
        for (const Edge& e : edges) {
            if (count <= target) break;
            if (touched[e.a] || touched[e.b]) continue;
            if (!tryCollapse(e.a, e.b)) continue;
            ++done;
            touched[e.a] = touched[e.b] = 1;
            for (uint32_t t : vt[e.a])
                for (int k = 0; k < 3; ++k) touched[T[t][k]] = 1;
        }
        if (done == 0) break;
    }
    // Compact, keeping the order of the survivors.
    std::vector<uint32_t> remap(V.size(), UINT32_MAX);
    std::vector<glm::vec3> nv;
    std::vector<glm::uvec3> nt;
    for (uint32_t t = 0; t < T.size(); ++t) {
        if (!alive[t]) continue;
        glm::uvec3 tri;
        for (int k = 0; k < 3; ++k) {
            uint32_t& r = remap[T[t][k]];
            if (r == UINT32_MAX) {
                r = uint32_t(nv.size());
                nv.push_back(V[T[t][k]]);
            }
            tri[k] = r;
        }
        nt.push_back(tri);
    }
    V = std::move(nv);
    T = std::move(nt);
}

// Tangential relaxation: each vertex halfway to its neighbours' centroid,
// then back onto the surface (Jacobi order: deterministic).
void relax(MeshData& m, int iterations, const std::function<float(glm::vec3)>& f) {
    std::vector<std::vector<uint32_t>> nbr(m.vertices.size());
    for (const glm::uvec3& t : m.triangles)
        for (int k = 0; k < 3; ++k) {
            nbr[t[k]].push_back(t[(k + 1) % 3]);
            nbr[t[k]].push_back(t[(k + 2) % 3]);
        }
    for (auto& n : nbr) {
        std::sort(n.begin(), n.end());
        n.erase(std::unique(n.begin(), n.end()), n.end());
    }
    std::vector<glm::vec3> next(m.vertices.size());
    for (int it = 0; it < iterations; ++it) {
        for (size_t v = 0; v < m.vertices.size(); ++v) {
            glm::vec3 c(0.0f);
            for (uint32_t u : nbr[v]) c += m.vertices[u];
            c /= float(std::max<size_t>(nbr[v].size(), 1));
            next[v] = project(f, glm::mix(m.vertices[v], c, 0.5f));
        }
        m.vertices.swap(next);
    }
}

}  // namespace

float pieceSdf(const OutlinePiece& pc, glm::vec3 p) {
    glm::dvec3 q(p), a(pc.a), b(pc.b);
    double scale = 1.0;
    if (pc.flatten < 1.0f) {
        // Stretch the flat axis (made perpendicular to the segment) so the
        // ellipse becomes a circle; the distance is scaled back by `flatten`
        // (a lower bound, exact along the other axis).
        glm::dvec3 d = b - a;
        const double dl = glm::length(d);
        d = dl > 0 ? d / dl : glm::dvec3(0, 1, 0);
        glm::dvec3 ax(pc.flat_axis);
        ax -= d * glm::dot(ax, d);
        const double al = glm::length(ax);
        if (al > 1e-9) {
            ax /= al;
            const double s = glm::dot(q - a, ax);
            q += ax * (s / double(pc.flatten) - s);
            scale = double(pc.flatten);
        }
    }
    return float(scale * roundCone(q, a, b, double(pc.ra), double(pc.rb)));
}

float outlineSdf(const std::vector<OutlinePiece>& pieces, glm::vec3 p) {
    constexpr float kFar = 1e9f;
    float d = kFar, run = kFar;  // the union so far, the current run of joined pieces
    auto close = [&] {
        if (run < kFar) d = d < kFar ? smin(d, run, kOutlineBlend) : run;
        run = kFar;
    };
    for (const OutlinePiece& pc : pieces) {
        if (!pc.joined) close();
        // Far pieces (more than the blend beyond the current value) cannot change it.
        const float reach = 0.5f * glm::length(pc.b - pc.a) + std::max(pc.ra, pc.rb);
        if (glm::length(p - 0.5f * (pc.a + pc.b)) - reach > std::min(d, run) + kOutlineBlend) continue;
        run = std::min(run, pieceSdf(pc, p));
    }
    close();
    return d;
}

std::vector<OutlinePiece> limbOutline(const std::vector<OutlineBone>& bones) {
    std::vector<OutlinePiece> out;  // (trunk pieces all blend: `join` stays false)
    bool join = false;  // the next piece continues the limb of the previous one
    auto piece = [&](glm::vec3 a, float ra, glm::vec3 b, float rb, int bone, float flatten = 1.0f,
                     glm::vec3 axis = {0, 0, 1}) {
        out.push_back({a, b, ra, rb, flatten, axis, bone, join});
    };
    const glm::vec3 X(1, 0, 0), Y(0, 1, 0), Z(0, 0, 1);
    const int pelvis = findBone(bones, "pelvis"), torso = findBone(bones, "torso");
    const bool trunk = pelvis >= 0 && torso >= 0;

    if (trunk) {
        // Trunk (docs/anatomy.md, "Skin outline"): hip breadth ~0.33 m, waist
        // narrower, chest 0.33 m wide and 0.24 m deep; neck girth ~38 cm.
        const glm::vec3 P = bones[size_t(pelvis)].head;  // (0, 0.97, 0) in the generated rigs
        const glm::vec3 up = unit(bones[size_t(torso)].tail - bones[size_t(torso)].head);
        const glm::vec3 base(P.x, P.y, bones[size_t(torso)].head.z);
        auto at = [&](float y, float z) { return base + up * y + Z * z; };
        piece(at(-0.04f, 0.015f) - X * 0.07f, 0.095f, at(-0.04f, 0.015f) + X * 0.07f, 0.095f, pelvis, 0.95f, Z);
        piece(at(-0.05f, -0.02f) - X * 0.055f, 0.08f, at(-0.05f, -0.02f) + X * 0.055f, 0.08f, pelvis);  // buttocks
        piece(at(0.03f, 0.015f), 0.15f, at(0.12f, 0.01f), 0.142f, pelvis, 0.70f, Z);
        piece(at(0.12f, 0.01f), 0.142f, at(0.30f, 0.01f), 0.165f, torso, 0.727f, Z);
        // The upper back over the thoracic spine (the chest piece's round
        // end left its spinous processes out by 1.5–3.5 cm); narrow, so it
        // stays clear of the armpits.
        piece(at(0.33f, -0.045f), 0.08f, at(0.52f, -0.03f), 0.06f, torso, 0.85f, X);
        piece(at(0.44f, -0.005f), 0.058f, at(0.59f, 0.01f), 0.055f, torso);                // neck
        // The nape over the cervical spine's spinous processes (the neck
        // piece's back left them out by up to 1.7 cm).
        piece(at(0.50f, -0.04f), 0.04f, at(0.64f, -0.035f), 0.04f, torso);
        // The cranium over the skull (bone_shapes.cpp, `torso`: its vertex
        // 0.83 m above the pelvis joint).
        piece(at(0.705f, 0.008f), 0.094f, at(0.735f, 0.004f), 0.094f, torso, 0.82f, X);
        piece(at(0.63f, 0.045f), 0.055f, at(0.595f, 0.075f), 0.04f, torso, 0.9f, X);       // face, jaw
        for (const char* suf : {"_r", "_l"}) {
            const int hum = findBone(bones, std::string("humerus") + suf);
            if (hum < 0) continue;
            const glm::vec3 SH = bones[size_t(hum)].head;
            const glm::vec3 side = X * (SH.x < P.x ? -1.0f : 1.0f);
            // Shoulder girdle (trapezius, clavicle) from the neck to the shoulder.
            piece(at(0.47f, -0.01f) + side * 0.04f, 0.055f, SH + Y * 0.012f - side * 0.02f + Z * 0.005f, 0.05f, torso,
                  0.8f, Z);
            // The upper back over the scapula (bone_shapes.cpp): its blade
            // and its spine out to the acromion, which the pieces above
            // left out by up to 3 cm.
            piece(at(0.46f, -0.045f) + side * 0.085f, 0.05f, at(0.34f, -0.05f) + side * 0.095f, 0.04f, torso);
            piece(at(0.455f, -0.048f) + side * 0.085f, 0.045f, at(0.48f, -0.03f) + side * 0.15f, 0.035f, torso);
            // The clavicle's inner half, out of the neck's base by up to 2 cm.
            const int clav = findBone(bones, std::string("clavicle") + (SH.x < P.x ? "_r" : "_l"));
            if (clav >= 0) {
                const OutlineBone& c = bones[size_t(clav)];
                piece(c.head, 0.02f, glm::mix(c.head, c.tail, 0.6f), 0.02f, torso, 0.8f, Y);
            }
        }
    }

    if (!trunk) {
        // An arm without a trunk (T5, T6): the skin goes on over its
        // shoulder girdle as far as the bones do, as an anatomical model of
        // the upper limb does: a bar along the clavicle and a plate, flat
        // across the blade, over the scapula (bone_shapes.cpp).
        for (const char* suf : {"_r", "_l"}) {
            const int clav = findBone(bones, std::string("clavicle") + suf);
            const int scap = findBone(bones, std::string("scapula") + suf);
            if (clav >= 0) {
                const OutlineBone& c = bones[size_t(clav)];
                piece(c.head, 0.021f, c.tail, 0.026f, clav, 0.8f, Y);
            }
            if (scap >= 0) {
                const OutlineBone& sb = bones[size_t(scap)];
                // The blade: from the middle of its upper border (5.5 cm
                // medial of the joint end) to the inferior angle (the tail).
                const glm::vec3 medial = X * (sb.head.x < 0.0f ? 1.0f : -1.0f);
                const glm::vec3 top = sb.head + medial * 0.055f + glm::vec3(0.0f, -0.01f, -0.035f);
                const glm::vec3 normal = unit(glm::cross(X, sb.tail - top));
                piece(top, 0.062f, sb.tail, 0.026f, scap, 0.42f, normal);
            }
        }
    }

    for (const char* suf : {"_r", "_l"}) {
        const std::string s(suf);
        const int hum = findBone(bones, "humerus" + s), uln = findBone(bones, "ulna" + s),
                  rad = findBone(bones, "radius" + s), hand = findBone(bones, "hand" + s);
        if (hum >= 0 && uln >= 0) {
            // Arm (ANSUR II): upper arm relaxed 32–35 cm (r 5.2 cm mid-arm),
            // forearm 27–29 cm just below the elbow (r 4.4), wrist 16.5 cm.
            const glm::vec3 SH = bones[size_t(hum)].head, E = bones[size_t(hum)].tail;
            const glm::vec3 W = hand >= 0 ? bones[size_t(hand)].head : bones[size_t(uln)].tail;
            const glm::vec3 side = X * (SH.x < 0.0f ? -1.0f : 1.0f);
            const glm::vec3 dU = unit(E - SH), dF = unit(W - E);
            join = false;
            piece(SH - dU * 0.015f + side * 0.008f, 0.056f, SH + dU * 0.09f, 0.053f, hum);  // deltoid
            join = true;
            piece(SH + dU * 0.09f, 0.053f, SH + dU * 0.21f, 0.050f, hum);
            piece(SH + dU * 0.21f, 0.050f, E, 0.043f, hum);
            piece(E, 0.043f, E + dF * 0.06f, 0.045f, uln);
            piece(E + dF * 0.06f, 0.045f, E + dF * 0.15f, 0.036f, uln);
            piece(E + dF * 0.15f, 0.036f, W, 0.029f, rad >= 0 ? rad : uln, 0.8f, Z);
            if (hand >= 0) {
                // The hand follows its bones (bone_shapes.cpp, `hand`): the
                // palm ~8.5 cm wide, the fingers curled ~12° a joint towards
                // the palm (their tips ~4 cm in front of it), the thumb
                // lateral and forward. At the hand's length (17 cm), in cm
                // from the wrist along the hand / in front of it.
                const glm::vec3 dH = unit(bones[size_t(hand)].tail - W);
                auto at = [&](float along, float front, float lateral = 0.0f) {
                    return W + dH * along + Z * front + side * lateral;
                };
                piece(at(0.0f, 0.0f), 0.028f, at(0.09f, 0.003f), 0.042f, hand, 0.42f, Z);  // palm
                if (bones[size_t(hand)].fist) {
                    // A fist (bone_shapes.cpp): the curled fingers a block in
                    // front of the palm's end, 6 cm deep, across the four
                    // knuckles; the thumb forward and across its front.
                    join = true;
                    piece(at(0.088f, 0.025f, 0.02f), 0.028f, at(0.088f, 0.025f, -0.022f), 0.028f, hand);
                    join = false;
                    piece(at(0.03f, 0.006f, 0.022f), 0.016f, at(0.061f, 0.033f, 0.03f), 0.013f, hand);  // thumb
                    join = true;
                    piece(at(0.061f, 0.033f, 0.03f), 0.013f, at(0.081f, 0.053f, 0.021f), 0.011f, hand);
                    piece(at(0.081f, 0.053f, 0.021f), 0.011f, at(0.092f, 0.066f, 0.007f), 0.0095f, hand);
                } else {
                    join = true;
                    // The fingers fan out, the little finger's side a little further.
                    piece(at(0.09f, 0.003f), 0.043f, at(0.14f, 0.016f, -0.004f), 0.044f, hand, 0.38f, Z);
                    piece(at(0.14f, 0.016f, -0.004f), 0.044f, at(0.178f, 0.037f, -0.004f), 0.039f, hand, 0.38f, Z);
                    join = false;
                    piece(at(0.03f, 0.006f, 0.02f), 0.016f, at(0.085f, 0.033f, 0.04f), 0.012f, hand);  // thumb
                    join = true;
                    piece(at(0.085f, 0.033f, 0.04f), 0.012f, at(0.112f, 0.053f, 0.039f), 0.0095f, hand);
                }
            }
        }
        const int fem = findBone(bones, "femur" + s), tib = findBone(bones, "tibia" + s),
                  foot = findBone(bones, "foot" + s);
        if (fem >= 0 && tib >= 0) {
            // Leg (ANSUR II): thigh 62 cm at the gluteal furrow (r 9.9), 40.5
            // above the knee (r 6.4), calf 38 at the upper third of the shank
            // (r 6.1), ankle 22 (r 3.5).
            const glm::vec3 H = bones[size_t(fem)].head, K = bones[size_t(fem)].tail, A = bones[size_t(tib)].tail;
            const glm::vec3 side = X * (H.x < 0.0f ? -1.0f : 1.0f);
            const glm::vec3 dT = unit(K - H), dS = unit(A - K);
            const glm::vec3 back = -Z;
            join = false;
            piece(H + side * 0.015f - dT * 0.03f + back * 0.01f, 0.085f, H + side * 0.02f + dT * 0.10f, 0.099f, fem);
            join = true;
            piece(H + side * 0.02f + dT * 0.10f, 0.099f, K - dT * 0.08f, 0.064f, fem);
            piece(K - dT * 0.08f, 0.064f, K, 0.060f, fem);
            piece(K, 0.060f, K + dS * 0.143f + back * 0.012f, 0.061f, tib);  // calf
            piece(K + dS * 0.143f + back * 0.012f, 0.061f, A - dS * 0.08f, 0.035f, tib);
            piece(A - dS * 0.08f, 0.035f, A, 0.037f, tib);
            if (foot >= 0) {
                join = false;  // heel and sole blend into the ankle
                const glm::vec3 T = bones[size_t(foot)].tail;
                piece(A + glm::vec3(0, -0.035f, -0.035f), 0.033f, A + glm::vec3(0, -0.03f, 0.03f), 0.035f, foot);  // heel
                join = true;
                piece(A + glm::vec3(0, -0.03f, 0.0f), 0.038f, T, 0.030f, foot, 0.55f, Y);
                // The toes (bone_shapes.cpp, `foot`): they fan from the big
                // toe, medial, to the little one and reach 19 cm in front of
                // the ankle and 7.5 cm below it, past the sole's end and
                // under it. Clear of the ankle, whose skin keeps its weights,
                // and under the toe extensors' tendons (3 cm below the ankle).
                piece(A + side * 0.003f + glm::vec3(0, -0.058f, 0.11f), 0.035f,
                      A + side * 0.003f + glm::vec3(0, -0.058f, 0.19f), 0.035f, foot, 0.7f, Y);
            }
        }
    }
    return out;
}

MeshData outlineMesh(const std::vector<OutlinePiece>& pieces, float cell, size_t max_triangles) {
    if (pieces.empty()) return {};
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (const OutlinePiece& p : pieces) {
        const float r = std::max(p.ra, p.rb) + kOutlineBlend;
        lo = glm::min(lo, glm::min(p.a, p.b) - glm::vec3(r));
        hi = glm::max(hi, glm::max(p.a, p.b) + glm::vec3(r));
    }
    lo -= glm::vec3(2.0f * cell);
    hi += glm::vec3(2.0f * cell);
    auto f = [&pieces](glm::vec3 p) { return outlineSdf(pieces, p); };
    MeshData m = polygonize(f, lo, hi, cell);
    for (glm::vec3& v : m.vertices) v = project(f, v);
    decimate(m, max_triangles, 4.0f * cell, f);
    relax(m, 2, f);
    return m;
}

void keepFourLargest(std::vector<std::pair<float, uint32_t>>& candidates, glm::uvec4& joints, glm::vec4& weights) {
    std::sort(candidates.begin(), candidates.end(),
              [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    if (candidates.size() > 4) candidates.resize(4);
    float sum = 0.0f;
    for (auto& c : candidates) sum += c.first;
    joints = glm::uvec4(0u);
    weights = glm::vec4(0.0f);
    float acc = 0.0f;
    for (size_t k = 0; k < candidates.size(); ++k) {
        joints[int(k)] = candidates[k].second;
        weights[int(k)] = k + 1 < candidates.size() ? candidates[k].first / sum : 1.0f - acc;  // sums to 1 exactly
        acc += weights[int(k)];
    }
}

SkinWeights skinWeights(const std::vector<glm::vec3>& positions, const std::vector<OutlinePiece>& pieces, float blend) {
    SkinWeights w;
    int nbones = 0;
    for (const OutlinePiece& p : pieces) nbones = std::max(nbones, p.bone + 1);
    std::vector<float> d(static_cast<size_t>(nbones));
    std::vector<std::pair<float, uint32_t>> cand;
    for (const glm::vec3& x : positions) {
        std::fill(d.begin(), d.end(), 1e9f);
        for (const OutlinePiece& p : pieces)
            if (p.bone >= 0) d[size_t(p.bone)] = std::min(d[size_t(p.bone)], pieceSdf(p, x));
        const float dmin = *std::min_element(d.begin(), d.end());
        cand.clear();
        for (int j = 0; j < nbones; ++j) {
            const float s = std::clamp((d[size_t(j)] - dmin) / blend, 0.0f, 1.0f);
            const float wj = 1.0f - s * s * (3.0f - 2.0f * s);
            if (wj > 0.0f) cand.emplace_back(wj, uint32_t(j));
        }
        glm::uvec4 j(0u);
        glm::vec4 v(0.0f);
        keepFourLargest(cand, j, v);
        w.joints.push_back(j);
        w.weights.push_back(v);
    }
    return w;
}

SkinMesh buildSkin(const std::vector<OutlineBone>& bones, float cell, size_t max_triangles) {
    SkinMesh out;
    const std::vector<OutlinePiece> rest = limbOutline(bones);
    if (rest.empty()) return out;
    // The modelling pose: with a trunk, arms abducted 30° and legs 5° about
    // their proximal joints (descendants follow), so limbs that touch in
    // the rest pose (hand and thigh, upper arm and chest, the two thighs)
    // come out as separate surfaces.
    std::vector<glm::mat4> pose(bones.size(), glm::mat4(1.0f));
    if (findBone(bones, "pelvis") >= 0 && findBone(bones, "torso") >= 0) {
        for (size_t i = 0; i < bones.size(); ++i) {
            float angle = 0.0f;
            if (bones[i].name.rfind("humerus", 0) == 0) angle = 30.0f;
            if (bones[i].name.rfind("femur", 0) == 0) angle = 5.0f;
            if (angle == 0.0f) continue;
            const glm::vec3 h = bones[i].head;
            const float s = h.x < 0.0f ? -1.0f : 1.0f;
            const glm::mat4 m = glm::translate(glm::mat4(1.0f), h) *
                                glm::rotate(glm::mat4(1.0f), float(s * angle * kPi / 180.0), glm::vec3(0, 0, 1)) *
                                glm::translate(glm::mat4(1.0f), -h);
            // This bone and every descendant (parents come before children).
            std::vector<uint8_t> sub(bones.size(), 0);
            sub[i] = 1;
            for (size_t k = i + 1; k < bones.size(); ++k)
                if (bones[k].parent >= 0 && sub[size_t(bones[k].parent)]) sub[k] = 1;
            for (size_t k = 0; k < bones.size(); ++k)
                if (sub[k]) pose[k] = m * pose[k];
        }
    }
    std::vector<OutlinePiece> posed = rest;
    for (OutlinePiece& p : posed) {
        if (p.bone < 0) continue;
        const glm::mat4& m = pose[size_t(p.bone)];
        p.a = glm::vec3(m * glm::vec4(p.a, 1.0f));
        p.b = glm::vec3(m * glm::vec4(p.b, 1.0f));
        p.flat_axis = glm::vec3(m * glm::vec4(p.flat_axis, 0.0f));
    }
    MeshData mesh = outlineMesh(posed, cell, max_triangles);
    out.weights = skinWeights(mesh.vertices, posed, 0.03f);
    // Back to the rest pose through the weights (linear blend of the inverse poses).
    std::vector<glm::mat4> inv(pose.size());
    for (size_t i = 0; i < pose.size(); ++i) inv[i] = glm::inverse(pose[i]);
    out.positions.resize(mesh.vertices.size());
    for (size_t v = 0; v < mesh.vertices.size(); ++v) {
        glm::vec4 acc(0.0f);
        for (int k = 0; k < 4; ++k) {
            const float wk = out.weights.weights[v][k];
            if (wk != 0.0f) acc += wk * (inv[out.weights.joints[v][k]] * glm::vec4(mesh.vertices[v], 1.0f));
        }
        out.positions[v] = glm::vec3(acc);
    }
    out.triangles = std::move(mesh.triangles);
    std::vector<glm::dvec3> n(out.positions.size(), glm::dvec3(0.0));
    for (const glm::uvec3& t : out.triangles) {
        const glm::dvec3 a = out.positions[t.x], b = out.positions[t.y], c = out.positions[t.z];
        const glm::dvec3 fn = glm::cross(b - a, c - a);
        for (int k = 0; k < 3; ++k) n[t[k]] += fn;
    }
    for (const glm::dvec3& x : n) {
        const double l = glm::length(x);
        out.normals.push_back(l > 0 ? glm::vec3(x / l) : glm::vec3(0, 1, 0));
    }
    return out;
}

}  // namespace engine

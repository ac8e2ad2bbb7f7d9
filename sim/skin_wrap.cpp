#include "sim/skin_wrap.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <glm/geometric.hpp>

#include "sim/envelope.h"
#include "sim/geometry.h"
#include "sim/world.h"

namespace sim {

namespace {

// Three rounds: each measures against the skin the last pushed out (where
// it moved, the closest triangle may be another one) and adds what is
// still missing.
constexpr int kRounds = 3;
// What the first round counts as near the skin (m): later rounds look again
// only at those vertices.
constexpr float kNear = 0.01f;
// The bulge spreads over this many rings of skin vertices around a pushed
// one, losing kFalloff of its move per ring, so the skin rounds over a
// muscle instead of tenting at one vertex.
constexpr int kSpreadRings = 4;
constexpr float kFalloff = 0.6f;

// Vertex normals of the envelope in positions V, smoothed over one ring
// (a crease's normals converge; smoothed, neighbours move alike).
void vertexNormals(const Envelope& e, const std::vector<glm::vec3>& V, std::vector<glm::vec3>& face,
                   std::vector<glm::vec3>& out) {
    face.assign(V.size(), glm::vec3(0.0f));
    for (const glm::uvec3& t : e.triangles) {
        const glm::vec3 n = glm::cross(V[t.y] - V[t.x], V[t.z] - V[t.x]);
        face[t.x] += n;
        face[t.y] += n;
        face[t.z] += n;
    }
    for (glm::vec3& n : face) n = glm::length(n) > 0.0f ? glm::normalize(n) : glm::vec3(0.0f);
    out.assign(V.size(), glm::vec3(0.0f));
    for (size_t v = 0; v < V.size(); ++v) {
        glm::vec3 sum = face[v];
        for (uint32_t k = e.ring_begin[v]; k < e.ring_begin[v + 1]; ++k) {
            const glm::uvec3 t = e.triangles[e.ring[k]];
            sum += face[t.x] + face[t.y] + face[t.z];
        }
        out[v] = glm::length(sum) > 0.0f ? glm::normalize(sum) : glm::vec3(0.0f);
    }
}

}  // namespace

void wrapSkin(const World& w, const std::vector<glm::vec3>& X, float clearance, SkinWrapScratch& s,
              std::vector<glm::vec3>& out, SkinWrapQuality quality) {
    const Envelope& e = w.envelope;
    if (!e.active() || e.curr.size() != e.rest.size() || X.size() != w.particles.size()) {
        out.clear();
        return;
    }
    out = e.curr;
    const size_t nv = out.size(), np = X.size();
    s.tri.assign(np, -1);
    s.near.assign(np, 0);
    if (s.hint.size() != np) s.hint.assign(np, -1);
    s.bary.resize(np);
    s.push.resize(np);
    s.push_normal.resize(np);
    s.required.resize(nv);
    s.height.resize(nv);
    s.next.resize(nv);
    // The viewer's pass: one round of walks, no grid unless a vertex has
    // no walk to start from yet (its first frame).
    const bool interactive = quality == SkinWrapQuality::Interactive;
    bool need_grid = !interactive;
    for (size_t i = 0; i < np && !need_grid; ++i)
        need_grid = w.particles.branch[i] == 0 && e.tri[i] < 0 && s.hint[i] < 0;
    const int rounds = interactive ? 1 : kRounds;
    for (int round = 0; round < rounds; ++round) {
        std::optional<EnvelopeGrid> built;
        if (need_grid) built.emplace(e, out);
        s.rays.build(out, e.triangles, 0, uint32_t(e.triangles.size()));
        // Which surface vertices lie closer to the skin than the clearance,
        // and where on it (in parallel: each writes its own slot).
        const int64_t nm = int64_t(w.muscles.size());
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t mi = 0; mi < nm; ++mi) {
            const Muscle& m = w.muscles[size_t(mi)];
            for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
                s.tri[i] = -1;
                // Later rounds only look again at the vertices the first
                // found near the skin: pushing it out takes it away from
                // the others.
                if (round > 0 && !s.near[i]) continue;
                float beyond = 0.0f;
                if (built && built->far(X[i], beyond)) continue;  // flung far away: no skin could hold it
                // A bound vertex walks from where its last substep ended;
                // any other from where its walk ended the frame before
                // (found exactly the first time). Near the skin, an unbound
                // vertex's closest point is found exactly.
                ClosestPoint c;
                const bool bound = e.tri[i] >= 0;
                const int32_t start = bound ? e.tri[i] : s.hint[i];
                uint32_t t = ~0u;
                if (start >= 0 && size_t(start) < e.triangles.size()) {
                    t = envelopeWalk(e, out, uint32_t(start), X[i], c);
                    // A walk can rest on a far piece of the skin, behind
                    // which the vertex seems deep inside (T7's running knee:
                    // a sartorius vertex 10 cm "inside" a triangle of the
                    // leg's far side while outside the skin): where the
                    // winding number says outside, it is located exactly.
                    if (!interactive && c.signed_distance <= -kNear && s.rays.winding(out, e.triangles, X[i]) == 0)
                        t = locateOnEnvelope(e, out, *built, -1, X[i], c);
                    else if (!interactive && c.signed_distance > -kNear) {
                        // Near the skin a walk may rest on a fold: the exact
                        // closest point, from the nearest cells when they
                        // settle it.
                        ClosestPoint near;
                        bool proven = false;
                        const uint32_t u = built->closestWithin(X[i], 1, near, proven);
                        if (u != ~0u && proven) t = u, c = near;
                        else t = locateOnEnvelope(e, out, *built, -1, X[i], c);
                    }
                } else if (built) {
                    t = locateOnEnvelope(e, out, *built, -1, X[i], c);
                }
                if (t == ~0u || !c.valid) continue;
                if (!bound && round == 0) s.hint[i] = int32_t(t);
                if (round == 0) s.near[i] = c.signed_distance > -kNear;
                if (!(c.signed_distance > -clearance)) continue;
                // Outside its closest triangle but inside another piece of
                // a skin folded through itself (the crease of a flexed
                // elbow): covered (sim/envelope.h).
                if (c.signed_distance > 0.0f && s.rays.winding(out, e.triangles, X[i]) >= 1) continue;
                const glm::uvec3 tri = e.triangles[t];
                s.tri[i] = int32_t(t);
                s.bary[i] = barycentric(c.point, out[tri.x], out[tri.y], out[tri.z]);
                s.push[i] = c.signed_distance + clearance;
                s.push_normal[i] = c.normal;
            }
        }
        vertexNormals(e, out, s.face_normals, s.normals);
        std::fill(s.required.begin(), s.required.end(), glm::vec3(0.0f));
        for (size_t i = 0; i < np; ++i) {
            if (s.tri[i] < 0) continue;
            const glm::uvec3 tri = e.triangles[size_t(s.tri[i])];
            const glm::vec3 b = s.bary[i];
            const float norm2 = glm::dot(b, b);
            for (int k = 0; k < 3; ++k) {
                const float cosine = std::max(0.3f, glm::dot(s.normals[tri[k]], s.push_normal[i]));
                const glm::vec3 move = (s.push[i] * b[k] / (norm2 * cosine)) * s.normals[tri[k]];
                if (glm::dot(move, move) > glm::dot(s.required[tri[k]], s.required[tri[k]])) s.required[tri[k]] = move;
            }
        }
        s.height = s.required;
        for (int ring = 0; ring < kSpreadRings; ++ring) {
            const int64_t n = int64_t(nv);
#pragma omp parallel for schedule(static)
            for (int64_t v = 0; v < n; ++v) {
                float best = glm::length(s.height[size_t(v)]);
                for (uint32_t k = e.ring_begin[size_t(v)]; k < e.ring_begin[size_t(v) + 1]; ++k) {
                    const glm::uvec3 t = e.triangles[e.ring[k]];
                    for (int c = 0; c < 3; ++c) best = std::max(best, kFalloff * glm::length(s.height[t[c]]));
                }
                s.next[size_t(v)] = best * s.normals[size_t(v)];
            }
            std::swap(s.height, s.next);
        }
        for (size_t v = 0; v < nv; ++v) out[v] += s.height[v];
    }
}

}  // namespace sim

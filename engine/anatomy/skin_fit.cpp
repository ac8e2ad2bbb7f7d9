#include "engine/anatomy/skin_fit.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "engine/mesh/mesh_normals.h"
#include "sim/envelope.h"
#include "sim/skew_ray_grid.h"

namespace engine {

namespace {
// Passes of push-and-measure; each one closes most of what is left (the
// vertex normals differ a little from the faces the points measure against).
constexpr int kPasses = 24;
// What counts as enclosed: a tenth of a millimetre short.
constexpr float kTolerance = 1.0e-4f;
}  // namespace

float fitSkinAround(std::vector<glm::vec3>& skin, const std::vector<glm::uvec3>& triangles,
                    const std::vector<glm::vec3>& inside, float clearance,
                    const std::function<bool(size_t, uint32_t)>& covers, float spread) {
    sim::EnvelopeDesc desc;
    desc.vertices = skin;
    desc.triangles = triangles;
    sim::Envelope env;
    if (!sim::buildEnvelopeGeometry(desc, env).empty() || !env.active()) return 0.0f;
    double edge_sum = 0.0;
    for (const glm::uvec3& t : triangles) edge_sum += glm::length(skin[t.y] - skin[t.x]);
    // A push spreads over `spread` mean skin edges.
    const float reach = spread * float(edge_sum / double(triangles.size()));
    std::vector<float> demand(skin.size());
    std::vector<glm::vec3> normals;
    float worst = 0.0f;
    for (int pass = 0; pass < kPasses; ++pass) {
        env.rest = skin;
        const sim::EnvelopeGrid grid(env, env.rest);
        sim::SkewRayGrid rays;
        rays.build(skin, triangles, 0, uint32_t(triangles.size()));
        std::fill(demand.begin(), demand.end(), 0.0f);
        worst = 0.0f;
        for (const glm::vec3& m : inside) {
            sim::ClosestPoint c;
            const uint32_t t = grid.closest(m, c);
            if (t == ~0u) continue;
            const float need = c.signed_distance + clearance;  // > 0: too far out
            if (need <= kTolerance) continue;
            // Outside the nearest triangle's face but enclosed by the skin
            // elsewhere: a point of the trunk under the inner arm, nearest
            // the arm's skin, is not the arm's to cover.
            if (c.signed_distance > 0.0f && rays.inBounds(m) && rays.winding(skin, triangles, m) != 0) continue;
            if (covers && !covers(size_t(&m - inside.data()), t)) continue;
            worst = std::max(worst, need);
            // The skin vertices around the closest point: the triangle's
            // corners and every vertex of their rings.
            const glm::uvec3 tri = triangles[t];
            for (int k = 0; k < 3; ++k)
                for (uint32_t r = env.ring_begin[tri[k]]; r < env.ring_begin[tri[k] + 1]; ++r)
                    for (int j = 0; j < 3; ++j) {
                        const uint32_t v = triangles[env.ring[r]][j];
                        const float x = glm::length(skin[v] - c.point) / reach;
                        const float fall = x < 0.5f ? 1.0f : x >= 1.0f ? 0.0f : 1.0f - glm::smoothstep(0.5f, 1.0f, x);
                        demand[v] = std::max(demand[v], need * fall);
                    }
        }
        if (worst <= kTolerance) return 0.0f;
        vertexNormals(skin, triangles, normals);
        for (size_t v = 0; v < skin.size(); ++v) skin[v] += demand[v] * normals[v];
    }
    return worst;
}

}  // namespace engine

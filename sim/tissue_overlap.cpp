#include "sim/tissue_overlap.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "sim/geometry.h"
#include "sim/world.h"

namespace sim {

namespace {
// Coordinates across the parity ray: two unit vectors perpendicular to it.
struct RayPlane {
    glm::vec3 u, v;
    RayPlane() {
        const glm::vec3 d = skewRayDirection();
        u = glm::normalize(glm::cross(d, glm::vec3(0.0f, 0.0f, 1.0f)));
        v = glm::cross(d, u);
    }
    glm::vec2 operator()(glm::vec3 p) const { return {glm::dot(p, u), glm::dot(p, v)}; }
};
const RayPlane& rayPlane() {
    static const RayPlane plane;
    return plane;
}
constexpr int kMaxCells = 128;  // per axis
}  // namespace

void TissueOverlap::build(const World& w, const std::vector<glm::vec3>& X, uint32_t mi) {
    const Muscle& m = w.muscles[mi];
    RayGrid& g = grids_[mi];
    const RayPlane& rp = rayPlane();
    g.lo = glm::vec3(std::numeric_limits<float>::max());
    g.hi = -g.lo;
    glm::vec2 lo2(std::numeric_limits<float>::max()), hi2 = -lo2;
    for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
        g.lo = glm::min(g.lo, X[i]);
        g.hi = glm::max(g.hi, X[i]);
        const glm::vec2 q = rp(X[i]);
        lo2 = glm::min(lo2, q);
        hi2 = glm::max(hi2, q);
    }
    const glm::vec2 ext = hi2 - lo2;
    const float cell = std::max({ext.x / kMaxCells, ext.y / kMaxCells, 1e-4f});
    g.origin = lo2;
    g.cell = cell;
    // Non-finite positions (a blown-up scene) end in one cell: still exact.
    const bool sane = std::isfinite(ext.x) && std::isfinite(ext.y);
    g.nu = sane ? std::clamp(int(ext.x / cell) + 1, 1, kMaxCells) : 1;
    g.nv = sane ? std::clamp(int(ext.y / cell) + 1, 1, kMaxCells) : 1;
    auto cellOf = [&](glm::vec2 q) {
        const int cu = sane ? std::clamp(int((q.x - g.origin.x) / cell), 0, g.nu - 1) : 0;
        const int cv = sane ? std::clamp(int((q.y - g.origin.y) / cell), 0, g.nv - 1) : 0;
        return glm::ivec2(cu, cv);
    };
    g.start.assign(size_t(g.nu) * size_t(g.nv) + 1, 0);
    // Two passes of a counting sort: count, then place (deterministic order).
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            for (size_t c = 1; c < g.start.size(); ++c) g.start[c] += g.start[c - 1];
            g.tris.resize(g.start.back());
        }
        std::vector<uint32_t> cursor;
        if (pass == 1) cursor.assign(g.start.begin(), g.start.end() - 1);
        for (uint32_t k = m.tri_begin; k < m.tri_begin + m.tri_count; ++k) {
            const glm::uvec3 t = w.triangles[k];
            const glm::vec2 a = rp(X[t.x]), b = rp(X[t.y]), c = rp(X[t.z]);
            const glm::ivec2 c0 = cellOf(glm::min(glm::min(a, b), c)), c1 = cellOf(glm::max(glm::max(a, b), c));
            for (int v = c0.y; v <= c1.y; ++v)
                for (int u = c0.x; u <= c1.x; ++u) {
                    const size_t cid = size_t(v) * size_t(g.nu) + size_t(u);
                    if (pass == 0)
                        ++g.start[cid + 1];
                    else
                        g.tris[cursor[cid]++] = k;
                }
        }
    }
}

bool TissueOverlap::inside(const World& w, const std::vector<glm::vec3>& X, uint32_t mi, glm::vec3 p) const {
    const RayGrid& g = grids_[mi];
    const glm::vec2 q = rayPlane()(p);
    size_t cid = 0;  // a one-cell grid (blown-up positions) holds every triangle
    if (g.nu > 1 || g.nv > 1) {
        const float fu = (q.x - g.origin.x) / g.cell, fv = (q.y - g.origin.y) / g.cell;
        // Beyond the surface's projection no triangle can be crossed.
        if (!(fu >= 0.0f && fv >= 0.0f && fu < float(g.nu) + 1.0f && fv < float(g.nv) + 1.0f)) return false;
        const int cu = std::min(int(fu), g.nu - 1), cv = std::min(int(fv), g.nv - 1);
        cid = size_t(cv) * size_t(g.nu) + size_t(cu);
    }
    int hits = 0;
    for (uint32_t e = g.start[cid]; e < g.start[cid + 1]; ++e) {
        const glm::uvec3 t = w.triangles[g.tris[e]];
        hits += skewRayCrosses(p, X[t.x], X[t.y], X[t.z]) ? 1 : 0;
    }
    return hits % 2 == 1;
}

TissueOverlapResult TissueOverlap::measure(const World& w, const std::vector<glm::vec3>& X, float count_beyond) {
    TissueOverlapResult best;
    const size_t nm = w.muscles.size();
    is_target_.assign(nm, 0);
    for (const Muscle& m : w.muscles)
        for (const TargetDesc& t : m.contact_targets)
            if (t.kind == TargetDesc::Kind::Muscle && t.index >= 0 && size_t(t.index) < nm) is_target_[size_t(t.index)] = 1;
    grids_.resize(nm);
    for (uint32_t mi = 0; mi < nm; ++mi)
        if (is_target_[mi]) build(w, X, mi);
    const int64_t n = int64_t(X.size());
    depth_.assign(size_t(n), 0.0f);
    std::vector<TissuePairOverlap> pairs;  // every thread's, merged below
#pragma omp parallel
    {
        TissueOverlapResult mine;
        std::vector<TissuePairOverlap> my_pairs;
#pragma omp for schedule(dynamic, 256) nowait
        for (int64_t i = 0; i < n; ++i) {
            if (w.particles.w[size_t(i)] == 0.0f) continue;
            const uint32_t mi = w.particles.muscle[size_t(i)];
            const Muscle& m = w.muscles[mi];
            if (uint32_t(i) >= m.first + m.surface_count) continue;  // branch points are inside their own muscle
            const glm::vec3 p = X[size_t(i)];
            float deepest = 0.0f;
            int into = -1;
            for (const TargetDesc& t : m.contact_targets) {
                if (t.kind != TargetDesc::Kind::Muscle || t.index < 0 || size_t(t.index) >= nm) continue;
                const RayGrid& g = grids_[size_t(t.index)];
                if (p.x < g.lo.x || p.y < g.lo.y || p.z < g.lo.z || p.x > g.hi.x || p.y > g.hi.y || p.z > g.hi.z) continue;
                if (!inside(w, X, uint32_t(t.index), p)) continue;
                const Muscle& o = w.muscles[size_t(t.index)];
                float d2 = std::numeric_limits<float>::max();
                for (uint32_t k = o.tri_begin; k < o.tri_begin + o.tri_count; ++k) {
                    const glm::uvec3 tri = w.triangles[k];
                    TriFeature f;
                    const glm::vec3 c = closestPointOnTriangle(p, X[tri.x], X[tri.y], X[tri.z], f);
                    d2 = std::min(d2, glm::dot(p - c, p - c));
                }
                const float d = std::sqrt(d2);
                if (d > deepest) deepest = d, into = t.index;
            }
            depth_[size_t(i)] = deepest;
            if (deepest > count_beyond) {
                // A thread's vertices come in runs of one muscle: the pair is
                // most often the last one touched.
                auto it = std::find_if(my_pairs.rbegin(), my_pairs.rend(), [&](const TissuePairOverlap& q) {
                    return q.muscle == int(mi) && q.into == into;
                });
                if (it == my_pairs.rend()) my_pairs.push_back({int(mi), into, 0, 0.0f}), it = my_pairs.rbegin();
                ++it->vertices;
                it->deepest = std::max(it->deepest, deepest);
            }
            // Deterministic for any thread count: the deepest, then the lowest particle.
            if (into >= 0 && (deepest > mine.depth || (deepest == mine.depth && int(i) < mine.particle)))
                mine = {deepest, int(mi), into, int(i), 0, {}};
        }
#pragma omp critical
        {
            pairs.insert(pairs.end(), my_pairs.begin(), my_pairs.end());
            if (mine.particle >= 0 &&
                (mine.depth > best.depth || (mine.depth == best.depth && (best.particle < 0 || mine.particle < best.particle))))
                best = mine;
        }
    }
    // Merged in (muscle, into) order: counts add and the deepest is a
    // maximum, so the result is the same whichever thread saw which vertex;
    // the total past the depth is their sum.
    std::sort(pairs.begin(), pairs.end(), [](const TissuePairOverlap& a, const TissuePairOverlap& b) {
        return std::make_pair(a.muscle, a.into) < std::make_pair(b.muscle, b.into);
    });
    for (const TissuePairOverlap& q : pairs) {
        best.vertices_inside += q.vertices;
        if (!best.pairs.empty() && best.pairs.back().muscle == q.muscle && best.pairs.back().into == q.into) {
            best.pairs.back().vertices += q.vertices;
            best.pairs.back().deepest = std::max(best.pairs.back().deepest, q.deepest);
        } else {
            best.pairs.push_back(q);
        }
    }
    return best;
}

}  // namespace sim

#include "sim/tissue_overlap.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "sim/geometry.h"
#include "sim/world.h"

namespace sim {

TissueOverlapResult TissueOverlap::measure(const World& w, const std::vector<glm::vec3>& X, float count_beyond) {
    TissueOverlapResult best;
    const size_t nm = w.muscles.size();
    is_target_.assign(nm, 0);
    for (const Muscle& m : w.muscles)
        for (const TargetDesc& t : m.contact_targets)
            if (t.kind == TargetDesc::Kind::Muscle && t.index >= 0 && size_t(t.index) < nm) is_target_[size_t(t.index)] = 1;
    grids_.resize(nm);
    for (uint32_t mi = 0; mi < nm; ++mi)
        if (is_target_[mi]) grids_[mi].build(X, w.triangles, w.muscles[mi].tri_begin, w.muscles[mi].tri_count);
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
                const SkewRayGrid& g = grids_[size_t(t.index)];
                if (!g.inBounds(p) || g.winding(X, w.triangles, p) == 0) continue;
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

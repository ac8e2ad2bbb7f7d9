#include "sim/skew_ray_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "sim/geometry.h"

namespace sim {

namespace {
// Coordinates across the skew ray: two unit vectors perpendicular to it.
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

void SkewRayGrid::build(const std::vector<glm::vec3>& X, const std::vector<glm::uvec3>& triangles, uint32_t first,
                        uint32_t count) {
    const RayPlane& rp = rayPlane();
    lo_ = glm::vec3(std::numeric_limits<float>::max());
    hi_ = -lo_;
    glm::vec2 lo2(std::numeric_limits<float>::max()), hi2 = -lo2;
    for (uint32_t k = first; k < first + count; ++k)
        for (int c = 0; c < 3; ++c) {
            const glm::vec3 x = X[triangles[k][c]];
            lo_ = glm::min(lo_, x);
            hi_ = glm::max(hi_, x);
            const glm::vec2 q = rp(x);
            lo2 = glm::min(lo2, q);
            hi2 = glm::max(hi2, q);
        }
    const glm::vec2 ext = hi2 - lo2;
    cell_ = std::max({ext.x / kMaxCells, ext.y / kMaxCells, 1e-4f});
    origin_ = lo2;
    // Non-finite positions (a blown-up scene) end in one cell: still exact.
    const bool sane = std::isfinite(ext.x) && std::isfinite(ext.y);
    nu_ = sane ? std::clamp(int(ext.x / cell_) + 1, 1, kMaxCells) : 1;
    nv_ = sane ? std::clamp(int(ext.y / cell_) + 1, 1, kMaxCells) : 1;
    auto cellAt = [&](glm::vec2 q) {
        const int cu = sane ? std::clamp(int((q.x - origin_.x) / cell_), 0, nu_ - 1) : 0;
        const int cv = sane ? std::clamp(int((q.y - origin_.y) / cell_), 0, nv_ - 1) : 0;
        return glm::ivec2(cu, cv);
    };
    start_.assign(size_t(nu_) * size_t(nv_) + 1, 0);
    // Two passes of a counting sort: count, then place (deterministic order).
    std::vector<uint32_t> cursor;
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            for (size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
            tris_.resize(start_.back());
            cursor.assign(start_.begin(), start_.end() - 1);
        }
        for (uint32_t k = first; k < first + count; ++k) {
            const glm::uvec3 t = triangles[k];
            const glm::vec2 a = rp(X[t.x]), b = rp(X[t.y]), c = rp(X[t.z]);
            const glm::ivec2 c0 = cellAt(glm::min(glm::min(a, b), c)), c1 = cellAt(glm::max(glm::max(a, b), c));
            for (int v = c0.y; v <= c1.y; ++v)
                for (int u = c0.x; u <= c1.x; ++u) {
                    const size_t cid = size_t(v) * size_t(nu_) + size_t(u);
                    if (pass == 0)
                        ++start_[cid + 1];
                    else
                        tris_[cursor[cid]++] = k;
                }
        }
    }
}

bool SkewRayGrid::inBounds(glm::vec3 p) const {
    return !(p.x < lo_.x || p.y < lo_.y || p.z < lo_.z || p.x > hi_.x || p.y > hi_.y || p.z > hi_.z);
}

bool SkewRayGrid::cellOf(glm::vec3 p, size_t& cell) const {
    cell = 0;  // a one-cell grid (blown-up positions) holds every triangle
    if (start_.empty()) return false;
    if (nu_ > 1 || nv_ > 1) {
        const glm::vec2 q = rayPlane()(p);
        const float fu = (q.x - origin_.x) / cell_, fv = (q.y - origin_.y) / cell_;
        // Beyond the surface's projection no triangle can be crossed.
        if (!(fu >= 0.0f && fv >= 0.0f && fu < float(nu_) + 1.0f && fv < float(nv_) + 1.0f)) return false;
        const int cu = std::min(int(fu), nu_ - 1), cv = std::min(int(fv), nv_ - 1);
        cell = size_t(cv) * size_t(nu_) + size_t(cu);
    }
    return true;
}

bool SkewRayGrid::inside(const std::vector<glm::vec3>& X, const std::vector<glm::uvec3>& triangles, glm::vec3 p) const {
    size_t cid = 0;
    if (!cellOf(p, cid)) return false;
    int hits = 0;
    for (uint32_t e = start_[cid]; e < start_[cid + 1]; ++e) {
        const glm::uvec3 t = triangles[tris_[e]];
        hits += skewRayCrosses(p, X[t.x], X[t.y], X[t.z]) ? 1 : 0;
    }
    return hits % 2 == 1;
}

int SkewRayGrid::winding(const std::vector<glm::vec3>& X, const std::vector<glm::uvec3>& triangles, glm::vec3 p) const {
    size_t cid = 0;
    if (!cellOf(p, cid)) return 0;
    int w = 0;
    for (uint32_t e = start_[cid]; e < start_[cid + 1]; ++e) {
        const glm::uvec3 t = triangles[tris_[e]];
        w += skewRaySignedCrossing(p, X[t.x], X[t.y], X[t.z]);
    }
    return w;
}

}  // namespace sim

#include "sim/limb_drift.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/envelope.h"
#include "sim/geometry.h"
#include "sim/world.h"

namespace sim {

namespace {

// The grid's cell: about the muscles' edge length, so the nearest vertex of
// a packed neighbour is found in the first shell or two.
constexpr float kCell = 0.01f;

glm::ivec3 cellOf(glm::vec3 p) { return glm::ivec3(glm::floor(p / kCell)); }

// CSR of vertex → triangles over `count` vertices.
void incidence(const std::vector<glm::uvec3>& tris, size_t count, std::vector<uint32_t>& begin,
               std::vector<uint32_t>& of) {
    begin.assign(count + 1, 0);
    for (const glm::uvec3& t : tris)
        for (int k = 0; k < 3; ++k) ++begin[t[k] + 1];
    for (size_t v = 0; v < count; ++v) begin[v + 1] += begin[v];
    of.assign(begin.back(), 0);
    std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
    for (uint32_t k = 0; k < tris.size(); ++k)
        for (int c = 0; c < 3; ++c) of[fill[tris[k][c]]++] = k;
}

}  // namespace

uint32_t LimbDrift::bucketOf(glm::ivec3 c) const {
    const uint32_t h = uint32_t(c.x) * 73856093u ^ uint32_t(c.y) * 19349663u ^ uint32_t(c.z) * 83492791u;
    return h & mask_;
}

void LimbDrift::buildGrid(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::mat4>& T) {
    points_.clear();
    for (size_t mi = 0; mi < w.muscles.size(); ++mi) {
        const Muscle& m = w.muscles[mi];
        for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) points_.push_back({X[i], int32_t(mi), i});
    }
    body_vertices_.clear();
    body_first_.assign(w.bodies.size() + 1, 0);
    for (size_t b = 0; b < w.bodies.size(); ++b) {
        body_first_[b] = uint32_t(body_vertices_.size());
        const Body& body = w.bodies[b];
        if (body.triangles.empty()) continue;
        for (uint32_t v = 0; v < body.vertices.size(); ++v) {
            const glm::vec3 x = glm::vec3(T[b] * glm::vec4(body.vertices[v], 1.0f));
            body_vertices_.push_back(x);
            points_.push_back({x, -1 - int32_t(b), v});
        }
    }
    body_first_.back() = uint32_t(body_vertices_.size());
    uint32_t buckets = 1;
    while (buckets < 2 * points_.size()) buckets <<= 1;
    mask_ = buckets - 1;
    start_.assign(size_t(buckets) + 1, 0);
    bucket_.resize(points_.size());
    for (size_t k = 0; k < points_.size(); ++k) {
        bucket_[k] = bucketOf(cellOf(points_[k].x));
        ++start_[bucket_[k] + 1];
    }
    for (uint32_t b = 0; b < buckets; ++b) start_[b + 1] += start_[b];
    sorted_.resize(points_.size());
    std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
    for (size_t k = 0; k < points_.size(); ++k) sorted_[fill[bucket_[k]]++] = points_[k];
}

float LimbDrift::nearest(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::mat4>& T,
                         const std::vector<glm::vec3>* envelope, uint32_t i, glm::vec3 p) const {
    const int32_t own = int32_t(w.particles.muscle[i]);
    float best = kDriftReach;
    // Bone capsules, exactly.
    for (size_t k = 0; k < w.bodies.size(); ++k) {
        const Body& b = w.bodies[k];
        if (!b.collidesAsCapsule()) continue;
        const glm::vec3 a = glm::vec3(T[k] * glm::vec4(b.capsule_a, 1.0f));
        const glm::vec3 c = glm::vec3(T[k] * glm::vec4(b.capsule_b, 1.0f));
        best = std::min(best, std::max(0.0f, glm::length(p - closestOnSegment(p, a, c)) - b.capsule_radius));
    }
    // The skin from inside, for a vertex bound to it.
    const Envelope& e = w.envelope;
    if (envelope && i < e.tri.size() && e.tri[i] >= 0) {
        ClosestPoint c;
        envelopeWalk(e, *envelope, uint32_t(e.tri[i]), p, c);
        best = std::min(best, std::max(0.0f, -c.signed_distance));
    }
    // The nearest vertex of another surface, shell by shell until no
    // farther shell can hold a closer one.
    const glm::ivec3 home = cellOf(p);
    const Point* found = nullptr;
    float found_d2 = best * best;
    const int shells = int(std::ceil(kDriftReach / kCell));
    for (int r = 0; r <= shells; ++r) {
        for (int dx = -r; dx <= r; ++dx)
            for (int dy = -r; dy <= r; ++dy)
                for (int dz = -r; dz <= r; ++dz) {
                    if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
                    const glm::ivec3 c = home + glm::ivec3(dx, dy, dz);
                    const uint32_t b = bucketOf(c);
                    for (uint32_t k = start_[b]; k < start_[b + 1]; ++k) {
                        const Point& q = sorted_[k];
                        if (q.owner == own) continue;
                        const glm::vec3 d = q.x - p;
                        const float d2 = glm::dot(d, d);
                        if (d2 < found_d2 || (d2 == found_d2 && found && (q.owner < found->owner ||
                                                                         (q.owner == found->owner && q.id < found->id)))) {
                            found = &sorted_[k];
                            found_d2 = d2;
                        }
                    }
                }
        // Every point not yet seen lies farther than r cells from p's cell.
        const float reach = float(r) * kCell;
        if (found_d2 <= reach * reach) break;
    }
    if (!found) return best;
    best = std::min(best, std::sqrt(found_d2));
    // Refined over the triangles around that vertex.
    if (found->owner >= 0) {
        for (uint32_t k = tri_begin_[found->id]; k < tri_begin_[found->id + 1]; ++k) {
            const glm::uvec3 t = w.triangles[tri_of_[k]];
            best = std::min(best, closestOnTriangle(p, X[t.x], X[t.y], X[t.z]).distance);
        }
    } else {
        const uint32_t body = uint32_t(-1 - found->owner);
        const Body& b = w.bodies[body];
        const uint32_t base = body_first_[body];
        for (const glm::uvec3& t : b.triangles)
            if (t.x == found->id || t.y == found->id || t.z == found->id)
                best = std::min(best, closestOnTriangle(p, body_vertices_[base + t.x], body_vertices_[base + t.y],
                                                        body_vertices_[base + t.z])
                                          .distance);
    }
    return best;
}

void LimbDrift::distances(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::mat4>& T,
                          const std::vector<glm::vec3>* envelope, std::vector<float>& out) const {
    out.assign(X.size(), 0.0f);
    const int64_t nm = int64_t(w.muscles.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t mi = 0; mi < nm; ++mi) {
        const Muscle& m = w.muscles[size_t(mi)];
        for (uint32_t i = m.first; i < m.first + m.surface_count; ++i)
            if (w.particles.w[i] != 0.0f) out[i] = nearest(w, X, T, envelope, i, X[i]);
    }
}

void LimbDrift::prepare(const World& w) {
    // Only what the rest distances need from the load: they are measured
    // at the first measure (a run that never asks pays nothing).
    incidence(w.triangles, w.particles.size(), tri_begin_, tri_of_);
    body_rest_.clear();
    for (const Body& b : w.bodies) body_rest_.push_back(b.curr);
    rest_.clear();
}

DriftResult LimbDrift::measure(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::vec3>& envelope) {
    DriftResult r;
    r.muscle_max.assign(w.muscles.size(), 0.0f);
    drift_.assign(X.size(), 0.0f);
    if (tri_begin_.size() != X.size() + 1 || body_rest_.size() != w.bodies.size() || X.size() != w.particles.size())
        return r;
    if (rest_.size() != X.size()) {
        buildGrid(w, w.particles.rest, body_rest_);
        distances(w, w.particles.rest, body_rest_, w.envelope.active() ? &w.envelope.rest : nullptr, rest_);
    }
    body_now_.clear();
    for (const Body& b : w.bodies) body_now_.push_back(b.curr);
    buildGrid(w, X, body_now_);
    const bool env = w.envelope.active() && envelope.size() == w.envelope.rest.size();
    distances(w, X, body_now_, env ? &envelope : nullptr, now_);
    std::vector<float> all;
    for (size_t mi = 0; mi < w.muscles.size(); ++mi) {
        const Muscle& m = w.muscles[mi];
        for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
            if (w.particles.w[i] == 0.0f) continue;
            const float d = std::max(0.0f, now_[i] - rest_[i]);
            drift_[i] = d;
            all.push_back(d);
            r.muscle_max[mi] = std::max(r.muscle_max[mi], d);
            if (d > r.deepest) {
                r.deepest = d;
                r.muscle = int(mi);
                r.particle = int(i);
            }
        }
    }
    r.vertices = int(all.size());
    if (!all.empty()) {
        const size_t k = std::min(all.size() - 1, size_t(std::ceil(0.99 * double(all.size()))) - 1);
        std::nth_element(all.begin(), all.begin() + std::ptrdiff_t(k), all.end());
        r.p99 = all[k];
    }
    return r;
}

}  // namespace sim

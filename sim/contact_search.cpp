#include "sim/contact_search.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/geometry.h"
#include "sim/world.h"

namespace sim {

namespace {
bool sameTarget(const TargetDesc& a, const TargetDesc& b) { return a.kind == b.kind && a.index == b.index; }

bool listed(const std::vector<TargetDesc>& list, const TargetDesc& t) {
    for (const auto& x : list)
        if (sameTarget(x, t)) return true;
    return false;
}

uint64_t hashCell(int64_t x, int64_t y, int64_t z) {
    // Large odd multipliers (Teschner et al. 2003 style), mixed into 64 bits.
    uint64_t h = uint64_t(x) * 73856093ull ^ uint64_t(y) * 19349663ull ^ uint64_t(z) * 83492791ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
}
}  // namespace

void ContactSearch::prepare(const World& w) {
    slots_.assign(w.particles.size() * kSlots, Slot{});
    wants_.assign(w.particles.size(), 0);
    size_t tri_count = 0;
    std::vector<uint8_t> is_target(w.muscles.size() + w.bodies.size(), 0);
    for (const auto& m : w.muscles) {
        if (!m.contact_targets.empty())
            std::fill(wants_.begin() + m.first, wants_.begin() + m.first + m.surface_count, 1);
        for (const auto* list : {&m.contact_targets, &m.sliding_targets})
            for (const auto& t : *list) {
                size_t k = t.kind == TargetDesc::Kind::Muscle ? size_t(t.index) : w.muscles.size() + size_t(t.index);
                if (is_target[k]) continue;
                is_target[k] = 1;
                tri_count += t.kind == TargetDesc::Kind::Muscle ? w.muscles[size_t(t.index)].tri_count
                                                                : w.bodies[size_t(t.index)].triangles.size();
            }
    }
    tris_.clear();
    tris_.reserve(tri_count);
    entries_.clear();
    entries_.reserve(tri_count * 8);
}

uint64_t ContactSearch::cellKey(glm::vec3 p) const {
    glm::vec3 c = glm::floor(p / cell_);
    return hashCell(int64_t(c.x), int64_t(c.y), int64_t(c.z));
}

void ContactSearch::buildGrid(const World& w, float search) {
    tris_.clear();
    entries_.clear();
    // Gather every target's current triangles once (a target shared by many
    // muscles is inserted once).
    std::vector<TargetDesc> seen;
    double edge_sum = 0.0;
    for (const auto& m : w.muscles)
        for (const auto* list : {&m.contact_targets, &m.sliding_targets})
            for (const auto& t : *list) {
                if (listed(seen, t)) continue;
                seen.push_back(t);
                if (t.kind == TargetDesc::Kind::Muscle) {
                    const Muscle& tm = w.muscles[size_t(t.index)];
                    const auto& X = w.particles.p;
                    for (uint32_t k = tm.tri_begin; k < tm.tri_begin + tm.tri_count; ++k) {
                        const auto& tri = w.triangles[k];
                        tris_.push_back({X[tri.x], X[tri.y], X[tri.z], t});
                    }
                } else {
                    const Body& b = w.bodies[size_t(t.index)];
                    for (const auto& tri : b.triangles) {
                        auto world = [&](uint32_t i) { return glm::vec3(b.now * glm::vec4(b.vertices[i], 1.0f)); };
                        tris_.push_back({world(tri.x), world(tri.y), world(tri.z), t});
                    }
                }
            }
    for (const auto& t : tris_) edge_sum += glm::length(t.b - t.a);
    float mean_edge = tris_.empty() ? search : float(edge_sum / double(tris_.size()));
    cell_ = std::max(2.0f * search, 1.5f * mean_edge);
    for (uint32_t k = 0; k < tris_.size(); ++k) {
        const Tri& t = tris_[k];
        glm::vec3 lo = glm::min(glm::min(t.a, t.b), t.c) - search;
        glm::vec3 hi = glm::max(glm::max(t.a, t.b), t.c) + search;
        glm::ivec3 c0 = glm::ivec3(glm::floor(lo / cell_)), c1 = glm::ivec3(glm::floor(hi / cell_));
        for (int z = c0.z; z <= c1.z; ++z)
            for (int y = c0.y; y <= c1.y; ++y)
                for (int x = c0.x; x <= c1.x; ++x) entries_.push_back({hashCell(x, y, z), k});
    }
    std::sort(entries_.begin(), entries_.end());
}

template <typename F>
void ContactSearch::forCandidates(glm::vec3 p, F&& f) const {
    uint64_t key = cellKey(p);
    auto it = std::lower_bound(entries_.begin(), entries_.end(), std::make_pair(key, uint32_t(0)));
    for (; it != entries_.end() && it->first == key; ++it) f(tris_[it->second]);
}

void ContactSearch::findContacts(World& w, float search) {
    buildGrid(w, search);
    const auto& X = w.particles.p;
    const int64_t n = int64_t(w.particles.size());
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        Slot* s = &slots_[size_t(i) * kSlots];
        for (int k = 0; k < kSlots; ++k) s[k].valid = 0;
        if (!wants_[size_t(i)] || w.particles.w[size_t(i)] == 0.0f) continue;
        const Muscle& m = w.muscles[w.particles.muscle[size_t(i)]];
        glm::vec3 p = X[size_t(i)];
        // Best point per nearby target; keep the kSlots closest targets.
        TargetDesc best_t[kSlots];
        ClosestPoint best[kSlots];
        auto offer = [&](const TargetDesc& t, const ClosestPoint& c) {
            if (!c.valid || c.signed_distance > search) return;
            for (int k = 0; k < kSlots; ++k)
                if (best[k].valid && sameTarget(best_t[k], t)) {
                    if (c.distance < best[k].distance) best[k] = c;
                    return;
                }
            int worst = -1;
            for (int k = 0; k < kSlots; ++k)
                if (!best[k].valid) { worst = k; break; }
            if (worst < 0) {
                worst = 0;
                for (int k = 1; k < kSlots; ++k)
                    if (best[k].signed_distance > best[worst].signed_distance) worst = k;
                if (c.signed_distance >= best[worst].signed_distance) return;
            }
            best[worst] = c;
            best_t[worst] = t;
        };
        forCandidates(p, [&](const Tri& t) {
            if (listed(m.contact_targets, t.owner)) offer(t.owner, closestOnTriangle(p, t.a, t.b, t.c));
        });
        for (const auto& t : m.contact_targets) {
            if (t.kind != TargetDesc::Kind::Body) continue;
            const Body& b = w.bodies[size_t(t.index)];
            if (!b.triangles.empty() || !(b.capsule_radius > 0.0f)) continue;
            glm::vec3 a = glm::vec3(b.now * glm::vec4(b.capsule_a, 1.0f));
            glm::vec3 c = glm::vec3(b.now * glm::vec4(b.capsule_b, 1.0f));
            offer(t, closestOnCapsule(p, a, c, b.capsule_radius));
        }
        for (int k = 0; k < kSlots; ++k)
            if (best[k].valid) s[k] = {best[k].point, best[k].normal, best[k].signed_distance, 1};
    }
    // Compaction in particle order: deterministic.
    w.contacts.clear();
    for (size_t i = 0; i < size_t(n); ++i)
        for (int k = 0; k < kSlots; ++k) {
            const Slot& s = slots_[i * kSlots + size_t(k)];
            if (s.valid) w.contacts.push_back({uint32_t(i), s.q, s.n});
        }
    w.contact_lambda.assign(w.contacts.size(), 0.0f);
}

void ContactSearch::updateSliding(World& w) const {
    const auto& X = w.particles.p;
    const int64_t n = int64_t(w.sliding.size());
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < n; ++k) {
        SlidingConnection& s = w.sliding[size_t(k)];
        glm::vec3 p = X[s.particle];
        ClosestPoint best;
        if (s.target.kind == TargetDesc::Kind::Body && w.bodies[size_t(s.target.index)].triangles.empty()) {
            const Body& b = w.bodies[size_t(s.target.index)];
            best = closestOnCapsule(p, glm::vec3(b.now * glm::vec4(b.capsule_a, 1.0f)),
                                    glm::vec3(b.now * glm::vec4(b.capsule_b, 1.0f)), b.capsule_radius);
        } else {
            forCandidates(p, [&](const Tri& t) {
                if (!sameTarget(t.owner, s.target)) return;
                ClosestPoint c = closestOnTriangle(p, t.a, t.b, t.c);
                if (c.valid && (!best.valid || c.distance < best.distance)) best = c;
            });
        }
        if (best.valid) s.q = best.point;
    }
}

}  // namespace sim

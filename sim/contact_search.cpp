#include "sim/contact_search.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <tuple>

#include <omp.h>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/world.h"

namespace sim {

namespace {
bool sameTarget(const TargetDesc& a, const TargetDesc& b) { return a.kind == b.kind && a.index == b.index; }

// Each target has its own hashed grid (Target::Grid): a query looks up only
// the targets its muscle touches, and never reads the entries of its own
// muscle or of muscles it does not touch; one target's table is small enough
// to be built in cache, by the thread that has just built its triangles.
uint64_t hashCell(int64_t x, int64_t y, int64_t z) {
    uint64_t h = uint64_t(x) * 73856093ull ^ uint64_t(y) * 19349663ull ^ uint64_t(z) * 83492791ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
}

// Cell coordinate of x: floor(x · (1 / cell)), clamped so that the
// conversion is defined for any input (NaN → 0); the identity for every sane
// position. A product, not a quotient: it runs for every (triangle, corner)
// and every query, and any monotone map serves, as long as the grid and the
// queries use the same one (a point within the band of a triangle then lies
// in one of the cells the triangle's padded bounds cover).
inline int32_t cellCoord(float x, float inv_cell) {
    const float c = std::floor(x * inv_cell);
    if (c != c) return 0;
    return int32_t(std::clamp(c, -1.0e9f, 1.0e9f));
}
inline glm::ivec3 cellOf(glm::vec3 p, float inv_cell) {
    return {cellCoord(p.x, inv_cell), cellCoord(p.y, inv_cell), cellCoord(p.z, inv_cell)};
}

bool inside(glm::vec3 p, glm::vec3 lo, glm::vec3 hi) {
    return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
}

// The angle at `at` between the edges to u and v, given their lengths
// la = |u − at| and lb = |v − at| (a triangle's three edge lengths serve
// its three corners: |u − at| and |at − u| are the same bits).
float angleAt(glm::vec3 at, glm::vec3 u, glm::vec3 v, float la, float lb) {
    if (!(la > 0.0f && lb > 0.0f)) return 0.0f;
    return std::acos(std::clamp(glm::dot(u - at, v - at) / (la * lb), -1.0f, 1.0f));
}

// Bone capsules are evaluated exactly at every projection (Contact::
// capsule_body), so they can afford a wider band than the linearised
// triangle targets: a vertex that the solver drags a few centimetres within
// one substep (a fast strike swinging the muscle around its bone) still
// finds the bone in its way.
float boneBand(float search) { return ContactSearch::kBoneBandFactor * search; }

glm::vec3 safeNormalize(glm::vec3 v) {
    float l = glm::length(v);
    return l > 0.0f ? v / l : glm::vec3(0.0f);
}

// An orthonormal frame of triangle abc (edge ab, in-plane, face normal);
// false when it is degenerate.
bool triangleFrame(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::mat3& f) {
    const glm::vec3 e1 = safeNormalize(b - a), e3 = safeNormalize(glm::cross(b - a, c - a));
    if (glm::dot(e1, e1) == 0.0f || glm::dot(e3, e3) == 0.0f) return false;
    f = glm::mat3(e1, glm::cross(e3, e1), e3);
    return true;
}
}  // namespace

int ContactSearch::targetIndex(const TargetDesc& t) const {
    for (size_t i = 0; i < targets_.size(); ++i)
        if (sameTarget(targets_[i].desc, t)) return int(i);
    return -1;
}

void ContactSearch::prepare(const World& w) {
    targets_.clear();
    muscle_targets_.assign(w.muscles.size(), {});
    size_t total_tris = 0, max_vertices = 0;
    auto add = [&](const TargetDesc& t) {
        int found = targetIndex(t);
        if (found >= 0) return uint32_t(found);
        Target T;
        T.desc = t;
        if (t.kind == TargetDesc::Kind::Muscle) {
            const Muscle& m = w.muscles[size_t(t.index)];
            T.first_particle = m.first;
            T.vertex_count = m.surface_count;
            for (uint32_t k = m.tri_begin; k < m.tri_begin + m.tri_count; ++k)
                T.tris.push_back(w.triangles[k] - glm::uvec3(m.first));
        } else {
            const Body& b = w.bodies[size_t(t.index)];
            T.vertex_count = uint32_t(b.vertices.size());
            T.tris = b.triangles;
        }
        // Neighbour across each edge, for the edge pseudo-normals.
        std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> half;  // (from, to, triangle)
        for (uint32_t k = 0; k < T.tris.size(); ++k)
            for (int e = 0; e < 3; ++e) half.emplace_back(T.tris[k][e], T.tris[k][(e + 1) % 3], k);
        std::sort(half.begin(), half.end());
        T.neighbour.assign(T.tris.size(), glm::uvec3(0));
        for (uint32_t k = 0; k < T.tris.size(); ++k)
            for (int e = 0; e < 3; ++e) {
                auto key = std::make_tuple(T.tris[k][(e + 1) % 3], T.tris[k][e], 0u);
                auto it = std::lower_bound(half.begin(), half.end(), key);
                bool ok = it != half.end() && std::get<0>(*it) == std::get<0>(key) && std::get<1>(*it) == std::get<1>(key);
                T.neighbour[k][e] = ok ? std::get<2>(*it) : k;
            }
        T.tri_offset = uint32_t(total_tris);
        total_tris += T.tris.size();
        max_vertices = std::max<size_t>(max_vertices, T.vertex_count);
        targets_.push_back(std::move(T));
        return uint32_t(targets_.size() - 1);
    };
    for (size_t mi = 0; mi < w.muscles.size(); ++mi) {
        for (const auto& t : w.muscles[mi].contact_targets) muscle_targets_[mi].push_back(add(t));
        for (const auto& t : w.muscles[mi].sliding_targets) add(t);
    }
    muscle_mesh_targets_.assign(w.muscles.size(), {});
    for (size_t mi = 0; mi < w.muscles.size(); ++mi) {
        for (uint32_t t : muscle_targets_[mi])
            if (!targets_[t].capsule()) muscle_mesh_targets_[mi].push_back(t);
        std::sort(muscle_mesh_targets_[mi].begin(), muscle_mesh_targets_[mi].end());
        muscle_mesh_targets_[mi].erase(std::unique(muscle_mesh_targets_[mi].begin(), muscle_mesh_targets_[mi].end()),
                                       muscle_mesh_targets_[mi].end());
    }
    size_t max_tris = 0;
    for (const auto& T : targets_) max_tris = std::max(max_tris, T.tris.size());
    positions_.resize(max_vertices);
    vertex_normals_.resize(max_vertices);
    face_normals_.resize(max_tris);
    tris_.clear();
    tris_.reserve(total_tris);
    bounds_.clear();
    bounds_.reserve(total_tris);
    slots_.assign(w.particles.size() * kSlots, Slot{});
}

void ContactSearch::buildTargets(const World& w, float search) {
    // Targets in parallel (each writes its own range of tris_ and bounds_,
    // from its own scratch, then its own grid: the same triangles and grids
    // for any thread count).
    size_t total = 0, max_vertices = 0, max_tris = 0;
    for (const Target& T : targets_) {
        total += T.tris.size();
        max_vertices = std::max<size_t>(max_vertices, T.vertex_count);
        max_tris = std::max(max_tris, T.tris.size());
    }
    tris_.resize(total);
    bounds_.resize(total);
    const size_t threads = size_t(omp_get_max_threads());
    if (positions_.size() < threads * max_vertices) {
        positions_.resize(threads * max_vertices);
        vertex_normals_.resize(threads * max_vertices);
    }
    if (face_normals_.size() < threads * max_tris) face_normals_.resize(threads * max_tris);
    const int64_t nt = int64_t(targets_.size());
    // The grids allocate inside the parallel loop (their sizes are known only
    // there); an exception must not leave an OpenMP region (std::terminate),
    // so the first one is kept and thrown after it ("out of memory" with the
    // scene's name, not an abort).
    std::exception_ptr failure;
    auto grid = [&](Target& T) {
        try {
            buildGrid(T, T.band(search));
        } catch (...) {
#pragma omp critical(contact_search_failure)
            if (!failure) failure = std::current_exception();
        }
    };
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t tix = 0; tix < nt; ++tix) {
        const uint32_t ti = uint32_t(tix);
        Target& T = targets_[ti];
        glm::vec3* positions = positions_.data() + size_t(omp_get_thread_num()) * max_vertices;
        glm::vec3* vertex_normals = vertex_normals_.data() + size_t(omp_get_thread_num()) * max_vertices;
        glm::vec3* face_normals = face_normals_.data() + size_t(omp_get_thread_num()) * max_tris;
        if (T.desc.kind == TargetDesc::Kind::Body) {
            const Body& b = w.bodies[size_t(T.desc.index)];
            if (T.capsule()) {
                const glm::vec3 a = b.capsule_now_a, c = b.capsule_now_b;
                T.lo = glm::min(a, c) - (b.capsule_radius + boneBand(search));
                T.hi = glm::max(a, c) + (b.capsule_radius + boneBand(search));
                grid(T);  // empty
                continue;
            }
            for (uint32_t v = 0; v < T.vertex_count; ++v)
                positions[v] = glm::vec3(b.now * glm::vec4(b.vertices[v], 1.0f));
        } else {
            const auto& p = w.particles.p;
            for (uint32_t v = 0; v < T.vertex_count; ++v) positions[v] = p[T.first_particle + v];
        }
        // Face normals and angle-weighted vertex pseudo-normals.
        std::fill(vertex_normals, vertex_normals + T.vertex_count, glm::vec3(0.0f));
        glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
        for (uint32_t k = 0; k < T.tris.size(); ++k) {
            const glm::uvec3 t = T.tris[k];
            glm::vec3 a = positions[t.x], b = positions[t.y], c = positions[t.z];
            glm::vec3 n = safeNormalize(glm::cross(b - a, c - a));
            face_normals[k] = n;
            const float ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
            vertex_normals[t.x] += angleAt(a, b, c, ab, ca) * n;
            vertex_normals[t.y] += angleAt(b, c, a, bc, ab) * n;
            vertex_normals[t.z] += angleAt(c, a, b, ca, bc) * n;
            lo = glm::min(lo, glm::min(glm::min(a, b), c));
            hi = glm::max(hi, glm::max(glm::max(a, b), c));
        }
        T.lo = lo - T.band(search);
        T.hi = hi + T.band(search);
        // Each vertex's pseudo-normal normalised once, not at each corner.
        for (uint32_t v = 0; v < T.vertex_count; ++v) vertex_normals[v] = safeNormalize(vertex_normals[v]);
        for (uint32_t k = 0; k < T.tris.size(); ++k) {
            const glm::uvec3 t = T.tris[k];
            Tri& tri = tris_[T.tri_offset + k];
            tri.a = positions[t.x];
            tri.b = positions[t.y];
            tri.c = positions[t.z];
            tri.normals.face = face_normals[k];
            for (int e = 0; e < 3; ++e) {
                tri.normals.vertex[e] = vertex_normals[t[e]];
                tri.normals.edge[e] = safeNormalize(face_normals[k] + face_normals[T.neighbour[k][e]]);
            }
            tri.target = ti;
            tri.v = t;
            const glm::vec3 centre = (tri.a + tri.b + tri.c) / 3.0f;
            const float r2 = std::max({glm::dot(tri.a - centre, tri.a - centre), glm::dot(tri.b - centre, tri.b - centre),
                                       glm::dot(tri.c - centre, tri.c - centre)});
            bounds_[T.tri_offset + k] = {centre, std::sqrt(r2), tri.normals.face, glm::dot(tri.normals.face, tri.a)};
        }
        grid(T);
    }
    if (failure) std::rethrow_exception(failure);
}

uint32_t ContactSearch::Grid::bucketOf(glm::vec3 p) const {
    const glm::ivec3 c = cellOf(p, inv_cell);
    return uint32_t(hashCell(c.x, c.y, c.z)) & mask;
}

void ContactSearch::buildGrid(Target& T, float search) {
    Grid& g = T.grid;
    const size_t n = T.tris.size();
    if (n == 0) {  // a capsule: found exactly, no grid
        g.inv_cell = 0.0f;
        g.mask = 0;
        g.largest = 0;
        g.start.assign(2, 0);
        return;
    }
    const Tri* tris = &tris_[T.tri_offset];
    double edge_sum = 0.0;
    for (size_t k = 0; k < n; ++k) edge_sum += glm::length(tris[k].b - tris[k].a);
    // Twice the mean edge: larger cells mean fewer entries per triangle and
    // more per bucket (T5, one thread: 1.5 / 2 / 2.5 / 3 edges gave a search
    // of 8.8 / 8.4 / 8.6 / 9.0 ms per frame).
    float cell = std::max(search, 2.0f * float(edge_sum / double(n)));
    // Bound the (triangle, cell) entries to O(triangles): a triangle far larger
    // than the mean (a huge bone mesh) would cover a vast number of cells, so
    // the cell grows until the total fits. Sane scenes never reach the bound
    // (results unchanged); positions blown up to ±inf or NaN end with one cell
    // for everything (every triangle a candidate; memory still bounded).
    // Each triangle's cell range is computed once here and reused below.
    const double max_entries = 64.0 * double(n) + 4096.0;
    g.cells.resize(2 * n);
    float inv_cell = 0.0f;
    for (;;) {
        inv_cell = 1.0f / cell;
        double total = 0.0;  // a sum of whole numbers below 2^53: exact
        for (size_t k = 0; k < n; ++k) {
            const Tri& t = tris[k];
            const glm::ivec3 c0 = cellOf(glm::min(glm::min(t.a, t.b), t.c) - search, inv_cell);
            const glm::ivec3 c1 = cellOf(glm::max(glm::max(t.a, t.b), t.c) + search, inv_cell);
            g.cells[2 * k] = c0;
            g.cells[2 * k + 1] = c1;
            total += std::min((double(c1.x) - c0.x + 1.0) * (double(c1.y) - c0.y + 1.0) * (double(c1.z) - c0.z + 1.0),
                              max_entries + 1.0);
        }
        if (total <= max_entries) break;
        if (!(cell > 0.0f) || !std::isfinite(cell * 2.0f)) {
            inv_cell = 0.0f;
            std::fill(g.cells.begin(), g.cells.end(), glm::ivec3(0));
            break;
        }
        cell *= 2.0f;
    }
    g.inv_cell = inv_cell;
    uint32_t buckets = 16;
    while (buckets < n * 4) buckets <<= 1;
    g.mask = buckets - 1;
    // A counting sort: each bucket's size, its end (a running sum), then the
    // entries placed from the back, last triangle first, which leaves every
    // start where its bucket begins and each bucket in triangle order.
    g.start.assign(size_t(buckets) + 1, 0);
    g.bucket_of_entry.clear();
    for (size_t k = 0; k < n; ++k) {
        const glm::ivec3 c0 = g.cells[2 * k], c1 = g.cells[2 * k + 1];
        for (int z = c0.z; z <= c1.z; ++z)
            for (int y = c0.y; y <= c1.y; ++y)
                for (int x = c0.x; x <= c1.x; ++x) {
                    const uint32_t b = uint32_t(hashCell(x, y, z)) & g.mask;
                    g.bucket_of_entry.push_back(b);
                    ++g.start[b];
                }
    }
    uint32_t at = 0, largest = 0;
    for (uint32_t b = 0; b < buckets; ++b) {
        largest = std::max(largest, g.start[b]);
        at += g.start[b];
        g.start[b] = at;
    }
    g.start[buckets] = at;
    g.largest = largest;
    g.entries.resize(at);
    uint32_t e = at;
    for (size_t k = n; k-- > 0;) {
        const glm::ivec3 c0 = g.cells[2 * k], c1 = g.cells[2 * k + 1];
        const uint32_t count = uint32_t(size_t(c1.x - c0.x + 1) * size_t(c1.y - c0.y + 1) * size_t(c1.z - c0.z + 1));
        e -= count;
        for (uint32_t j = count; j-- > 0;) g.entries[--g.start[g.bucket_of_entry[e + j]]] = T.tri_offset + uint32_t(k);
    }
}

template <typename F>
void ContactSearch::forCandidates(glm::vec3 p, uint32_t target, float search, F&& f) const {
    const Grid& g = targets_[target].grid;
    const uint32_t b = g.bucketOf(p);
    for (uint32_t e = g.start[b]; e < g.start[b + 1]; ++e) {
        const uint32_t k = g.entries[e];
        const TriBound& tb = bounds_[k];
        const float reach = search + tb.radius;
        const glm::vec3 d = p - tb.centre;
        if (glm::dot(d, d) > reach * reach) continue;
        f(tris_[k]);
    }
}

// Offers target t's closest point c (on tris_[tri], or a capsule) to a
// particle's choice. Only points within the search band count: every
// triangle that close is in the particle's bucket, so the closest of them is
// the true closest point; farther ones may be hash collisions from anywhere.
// A capsule's closest point is exact at any depth and distance, so a vertex
// deeper inside than the band (a fast bone sweeping over it within one
// substep) still gets pushed out, and capsules are offered from the wider
// bone band. When more targets are near than there are slots, bones win over
// muscles, then the deepest.
void ContactSearch::offer(Choice& ch, uint32_t t, const ClosestPoint& c, uint32_t tri, float search,
                          float bone_band) const {
    if (!c.valid) return;
    const Target& T = targets_[t];
    if (c.distance > search && !(T.capsule() && c.signed_distance < bone_band) &&
        !(T.boneMesh() && c.signed_distance < 0.0f && c.distance <= bone_band))
        return;
    for (int k = 0; k < kSlots; ++k)
        if (ch.point[k].valid && ch.target[k] == t) {
            if (c.distance < ch.point[k].distance) ch.point[k] = c, ch.tri[k] = tri;
            return;
        }
    int slot = -1;
    for (int k = 0; k < kSlots && slot < 0; ++k)
        if (!ch.point[k].valid) slot = k;
    if (slot < 0) {
        // Evict the least urgent: a bone held beyond its band (refresh keeps
        // it, above) before tissue, tissue before a bone within its band,
        // then the shallowest.
        const float band = boneBand(search);
        auto rank = [&](uint32_t target, float sd) {
            const bool muscle = targets_[target].desc.kind == TargetDesc::Kind::Muscle;
            return std::make_pair(muscle ? 1 : sd < band ? 0 : 2, sd);
        };
        slot = 0;
        for (int k = 1; k < kSlots; ++k)
            if (rank(ch.target[k], ch.point[k].signed_distance) > rank(ch.target[slot], ch.point[slot].signed_distance))
                slot = k;
        if (rank(t, c.signed_distance) >= rank(ch.target[slot], ch.point[slot].signed_distance)) return;
    }
    ch.point[slot] = c;
    ch.target[slot] = t;
    ch.tri[slot] = tri;
    ch.anchor[slot] = Anchor{};
}

// A vertex deeper inside another muscle than `muscle_depth` is left alone:
// muscles are thin, and the closest point of a deep vertex may lie on the far
// side, so pushing it "out" would push it through.
void ContactSearch::keep(World& w, size_t i, const Choice& ch, float search, float bone_band, float muscle_depth,
                         bool anchors) {
    Slot* s = &slots_[i * kSlots];
    for (int k = 0; k < kSlots; ++k) {
        s[k].valid = 0;
        if (!ch.point[k].valid) continue;
        const Target& T = targets_[ch.target[k]];
        const bool tissue = T.desc.kind == TargetDesc::Kind::Muscle;
        const bool capsule = T.capsule();
        if (!(ch.point[k].signed_distance < (capsule ? bone_band : search))) continue;
        if (tissue && ch.point[k].signed_distance < -muscle_depth) continue;
        const Anchor a = capsule ? Anchor{}
                         : ch.tri[k] == ~0u ? ch.anchor[k]
                         : anchors          ? anchorOf(w, tris_[ch.tri[k]], ch.point[k].point, ch.point[k].normal)
                                            : Anchor{};
        s[k] = {ch.point[k].point, ch.point[k].normal, 1, ch.target[k], a};
    }
}

// The closest point of each of the particle's triangle targets near p,
// offered once per target (in target order). For each target, the bucket's
// candidates that can lie within `search` (bounding sphere and plane) are
// gathered with a lower bound of their distance (from the disc in the
// triangle's plane that holds it); the candidate of smallest lower bound is
// evaluated exactly first, then every other one whose lower bound does not
// exceed the best distance found so far. The
// point is the closest of all the target's candidates, ties to the lowest
// triangle index (the same point as evaluating them all in triangle order),
// at a fraction of the exact evaluations in packed scenes, where a vertex
// sees dozens of its neighbour's triangles within the band.
void ContactSearch::gatherTriangles(glm::vec3 p, const std::vector<uint32_t>& targets, float search, float bone_band,
                                    Choice& ch, Candidate* cand) const {
    for (uint32_t target : targets) {
        if (!inside(p, targets_[target].lo, targets_[target].hi)) continue;
        const float band = targets_[target].band(search);
        size_t count = 0;
        const Grid& g = targets_[target].grid;
        const uint32_t b = g.bucketOf(p);
        // Pass 1, without branches (about a third of a bucket passes, so a
        // branch per test would be mispredicted half the time): every entry
        // is written, and the count moves on only for those that pass —
        // within search of the bounding sphere (a hash collision from a far
        // cell does not), and within search of the triangle's plane (a lower
        // bound too: offer would refuse anything beyond the band).
        for (uint32_t e = g.start[b]; e < g.start[b + 1]; ++e) {
            const uint32_t k = g.entries[e];
            const TriBound& tb = bounds_[k];
            const float reach = band + tb.radius;
            const glm::vec3 d = p - tb.centre;
            const float d2 = glm::dot(d, d);
            const float plane = std::fabs(glm::dot(p, tb.normal) - tb.offset);
            const bool pass = (d2 <= reach * reach) & (plane <= band + 1e-6f);
            cand[count] = {k, d2, plane};
            count += size_t(pass);
        }
        if (count == 0) continue;
        // Pass 2: the lower bound of each survivor. The triangle lies in its
        // plane within the disc of the bounding radius around its centroid:
        // p is at least as far as from that disc (plane distance and in-plane
        // distance past the rim).
        for (size_t c = 0; c < count; ++c) {
            const float d2 = cand[c].lower, plane = cand[c].plane;
            const float rim = std::max(0.0f, std::sqrt(std::max(0.0f, d2 - plane * plane)) - bounds_[cand[c].k].radius);
            cand[c].lower = std::sqrt(plane * plane + rim * rim);
        }
        // The distance alone while choosing (closestOnTriangle's point and
        // length, so the same comparisons); the normal for the chosen one.
        float best_distance = std::numeric_limits<float>::infinity();
        uint32_t best_tri = ~0u;
        auto evaluate = [&](uint32_t k) {
            const Tri& t = tris_[k];
            if (!(glm::dot(t.normals.face, t.normals.face) > 0.0f)) return;  // degenerate: no closest point
            TriFeature feature;
            const float distance = glm::length(p - closestPointOnTriangle(p, t.a, t.b, t.c, feature));
            if (best_tri == ~0u || distance < best_distance || (distance == best_distance && k < best_tri))
                best_distance = distance, best_tri = k;
        };
        size_t first = 0;
        for (size_t c = 1; c < count; ++c)
            if (cand[c].lower < cand[first].lower) first = c;
        evaluate(cand[first].k);
        for (size_t c = 0; c < count; ++c) {
            // 1 µm: the rounding of the bounds (a candidate skipped here is
            // strictly farther than the best point).
            if (c == first || (best_tri != ~0u && cand[c].lower > best_distance + 1e-6f)) continue;
            evaluate(cand[c].k);
        }
        if (best_tri == ~0u) continue;
        const Tri& t = tris_[best_tri];
        offer(ch, target, closestOnTriangle(p, t.a, t.b, t.c, &t.normals), best_tri, search, bone_band);
    }
}

void ContactSearch::findContacts(World& w, float search, float muscle_depth, bool anchors) {
    search_ = search;
    buildTargets(w, search);
    // Per-thread candidate scratch, as large as the largest bucket (grows
    // only when a bucket outgrows every earlier one; gatherTriangles reuses
    // it from the start for each target).
    uint32_t largest = 1;
    for (const Target& T : targets_) largest = std::max(largest, T.grid.largest);
    scratch_stride_ = largest;
    if (scratch_.size() < size_t(omp_get_max_threads()) * largest) scratch_.resize(size_t(omp_get_max_threads()) * largest);
    const auto& X = w.particles.p;
    const int64_t n = int64_t(w.particles.size());
    const float bone_band = boneBand(search);
    // Dynamic chunks: a packed muscle's vertices cost several times a free
    // one's, so equal halves of the particle range are not equal work (each
    // particle writes only its own slots: the same result in any order).
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < n; ++i) {
        Slot* s = &slots_[size_t(i) * kSlots];
        for (int k = 0; k < kSlots; ++k) s[k].valid = 0;
        if (w.particles.w[size_t(i)] == 0.0f) continue;
        const uint32_t mi = w.particles.muscle[size_t(i)];
        const Muscle& m = w.muscles[mi];
        if (uint32_t(i) >= m.first + m.surface_count) continue;  // branch points are inside
        const auto& list = muscle_targets_[mi];
        const glm::vec3 p = X[size_t(i)];
        bool near = false;
        for (uint32_t t : list) near = near || inside(p, targets_[t].lo, targets_[t].hi);
        if (!near) continue;
        // Closest point per nearby target; keep the kSlots deepest targets.
        Choice ch;
        if (!tris_.empty())
            gatherTriangles(p, muscle_mesh_targets_[mi], search, bone_band, ch,
                            &scratch_[size_t(omp_get_thread_num()) * scratch_stride_]);
        for (uint32_t t : list) {
            const Target& T = targets_[t];
            if (!T.capsule()) continue;
            const Body& b = w.bodies[size_t(T.desc.index)];
            if (!(b.capsule_radius > 0.0f)) continue;
            offer(ch, t, closestOnBodyCapsule(p, b), ~0u, search, bone_band);
        }
        keep(w, size_t(i), ch, search, bone_band, muscle_depth, anchors);
    }
    compact(w);
}

// Compaction in particle order: the same list for any thread count. Muscle
// targets first, bones last: in a Gauss-Seidel sweep the last projection of
// a vertex wins, and a vertex squeezed between a bone and a neighbour must
// end outside the bone (hard) rather than outside the neighbour (compliant
// tissue).
void ContactSearch::compact(World& w) {
    const int64_t n = int64_t(w.particles.size());
    // Each particle's count in parallel, the offsets in one sequential pass,
    // the copy in parallel: the list of the sequential loop it replaced.
    first_contact_.resize(size_t(n) + 1);
    first_run_.resize(size_t(n) + 1);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        uint32_t count = 0;
        for (int k = 0; k < kSlots; ++k) count += uint32_t(slots_[size_t(i) * kSlots + size_t(k)].valid != 0);
        first_contact_[size_t(i) + 1] = count;
    }
    first_contact_[0] = first_run_[0] = 0;
    for (size_t i = 0; i < size_t(n); ++i) {
        first_run_[i + 1] = first_run_[i] + uint32_t(first_contact_[i + 1] > 0);
        first_contact_[i + 1] += first_contact_[i];
    }
    w.contacts.resize(first_contact_[size_t(n)]);
    w.contact_runs.resize(size_t(first_run_[size_t(n)]) + 1);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        uint32_t at = first_contact_[size_t(i)];
        if (at == first_contact_[size_t(i) + 1]) continue;
        w.contact_runs[first_run_[size_t(i)]] = at;
        for (int bone_pass = 0; bone_pass < 2; ++bone_pass)
            for (int k = 0; k < kSlots; ++k) {
                const Slot& s = slots_[size_t(i) * kSlots + size_t(k)];
                if (!s.valid) continue;
                const TargetDesc& d = targets_[s.target].desc;
                const bool tissue = d.kind == TargetDesc::Kind::Muscle;
                if (tissue == (bone_pass == 1)) continue;
                w.contacts[at++] = {uint32_t(i), s.q, s.n, tissue ? 1u + uint32_t(d.index) : 0u,
                                    targets_[s.target].capsule() ? d.index : -1};
            }
    }
    w.contact_runs.back() = uint32_t(w.contacts.size());
    w.contact_lambda.assign(w.contacts.size(), 0.0f);
}

void ContactSearch::updateSliding(World& w, float reach, bool anchors) {
    const auto& X = w.particles.p;
    const int64_t n = int64_t(w.sliding.size());
    sliding_anchors_.resize(w.sliding.size());
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < n; ++k) {
        SlidingConnection& s = w.sliding[size_t(k)];
        const int ti = targetIndex(s.target);
        if (ti < 0) continue;
        const Target& T = targets_[size_t(ti)];
        glm::vec3 p = X[s.particle];
        ClosestPoint best;
        const Tri* best_tri = nullptr;
        if (T.capsule()) {
            best = closestOnBodyCapsule(p, w.bodies[size_t(T.desc.index)]);
        } else {
            auto consider = [&](const Tri& t, float within) {
                ClosestPoint c = closestOnTriangle(p, t.a, t.b, t.c, &t.normals);
                if (c.valid && c.distance <= within && (!best.valid || c.distance < best.distance)) best = c, best_tri = &t;
            };
            forCandidates(p, uint32_t(ti), search_, [&](const Tri& t) { consider(t, search_); });
            // The grid holds every triangle within the band of p, so what it
            // found is the closest; beyond the band, all of the target's
            // triangles are read (in triangle order, as the grid would).
            if (!best.valid && reach > search_)
                for (uint32_t k = T.tri_offset; k < T.tri_offset + uint32_t(T.tris.size()); ++k) consider(tris_[k], reach);
        }
        if (best.valid) {
            s.q = best.point;
            s.n = best.normal;
        }
        // Without a triangle in reach (or for a capsule) the plane stays put
        // until the next search.
        sliding_anchors_[size_t(k)] = best_tri && anchors ? anchorOf(w, *best_tri, s.q, s.n) : Anchor{};
    }
}

ContactSearch::Anchor ContactSearch::anchorOf(const World& w, const Tri& t, glm::vec3 q, glm::vec3 n) const {
    Anchor a;
    const TargetDesc& d = targets_[t.target].desc;
    a.bary = barycentric(q, t.a, t.b, t.c);
    if (d.kind == TargetDesc::Kind::Muscle) {
        glm::mat3 f;
        if (!triangleFrame(t.a, t.b, t.c, f)) return Anchor{};
        a.kind = Anchor::MuscleTriangle;
        a.v = t.v + glm::uvec3(targets_[t.target].first_particle);
        a.n_local = glm::transpose(f) * n;
    } else {
        const glm::mat4& M = w.bodies[size_t(d.index)].now;
        a.kind = Anchor::BoneMesh;
        a.body = d.index;
        a.v = t.v;
        a.n_local = safeNormalize(glm::transpose(glm::mat3(M)) * n);
    }
    return a;
}

void ContactSearch::placeAnchor(const World& w, const Anchor& a, glm::vec3& q, glm::vec3& n) const {
    if (a.kind == Anchor::MuscleTriangle) {
        const auto& p = w.particles.p;
        const glm::vec3 A = p[a.v.x], B = p[a.v.y], C = p[a.v.z];
        glm::mat3 f;
        if (!triangleFrame(A, B, C, f)) return;  // degenerate now: keep the last plane
        q = a.bary.x * A + a.bary.y * B + a.bary.z * C;
        n = f * a.n_local;
    } else if (a.kind == Anchor::BoneMesh) {
        const Body& b = w.bodies[size_t(a.body)];
        const glm::vec3 local = a.bary.x * b.vertices[a.v.x] + a.bary.y * b.vertices[a.v.y] + a.bary.z * b.vertices[a.v.z];
        q = glm::vec3(b.now * glm::vec4(local, 1.0f));
        n = safeNormalize(body_normal_[size_t(a.body)] * a.n_local);
    }
}

void ContactSearch::refresh(World& w) {
    body_normal_.resize(w.bodies.size());
    for (size_t b = 0; b < w.bodies.size(); ++b) body_normal_[b] = glm::inverse(glm::transpose(glm::mat3(w.bodies[b].now)));
    // Contacts: the planes found on triangles move with them; the bone
    // capsules are offered again from the vertex's current position (a bone
    // swinging past within the frame is found at once, as at every search).
    const auto& X = w.particles.p;
    const int64_t n = int64_t(w.particles.size());
    const float bone_band = boneBand(search_);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        if (w.particles.w[size_t(i)] == 0.0f) continue;
        const uint32_t mi = w.particles.muscle[size_t(i)];
        const Muscle& m = w.muscles[mi];
        if (uint32_t(i) >= m.first + m.surface_count) continue;
        const glm::vec3 p = X[size_t(i)];
        Choice ch;
        const Slot* s = &slots_[size_t(i) * kSlots];
        int kept = 0;
        for (int k = 0; k < kSlots; ++k) {
            if (!s[k].valid || targets_[s[k].target].capsule()) continue;
            glm::vec3 q = s[k].q, nn = s[k].n;
            placeAnchor(w, s[k].anchor, q, nn);
            ClosestPoint c;
            c.valid = true;
            c.point = q;
            c.normal = nn;
            c.distance = glm::length(p - q);
            c.signed_distance = glm::dot(p - q, nn);
            ch.point[kept] = c;
            ch.target[kept] = s[k].target;
            ch.tri[kept] = ~0u;
            ch.anchor[kept] = s[k].anchor;
            ++kept;
        }
        constexpr float kAny = std::numeric_limits<float>::infinity();
        for (uint32_t t : muscle_targets_[mi]) {
            const Target& T = targets_[t];
            if (!T.capsule()) continue;
            const Body& b = w.bodies[size_t(T.desc.index)];
            if (!(b.capsule_radius > 0.0f)) continue;
            // A capsule the vertex held stays at any distance, as a kept
            // plane does: the solver may pull a vertex flung away from its
            // bone by the prediction back through it within the substep
            // (T7's vastus medialis at the knee while running: 3.2 cm off
            // the femur before the solve, 1.2 cm inside it after).
            bool held = false;
            for (int k = 0; k < kSlots; ++k) held = held || (s[k].valid && s[k].target == t);
            offer(ch, t, closestOnBodyCapsule(p, b), ~0u, search_, held ? kAny : bone_band);
        }
        // A kept triangle plane stays whatever its distance now: it was
        // accepted by the search, and its constraint acts only while violated.
        // (Its slots carry their anchors already: `anchors` only matters for
        // slots on a triangle found now, and refresh finds none.) Capsules
        // were offered within the bone band or held above.
        keep(w, size_t(i), ch, kAny, kAny, kAny, true);
    }
    compact(w);
    const int64_t ns = int64_t(w.sliding.size());
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < ns; ++k) {
        SlidingConnection& s = w.sliding[size_t(k)];
        const Anchor& a = sliding_anchors_[size_t(k)];
        if (a.kind != Anchor::Exact) {
            placeAnchor(w, a, s.q, s.n);
            continue;
        }
        const int ti = targetIndex(s.target);
        if (ti < 0 || !targets_[size_t(ti)].capsule()) continue;
        const ClosestPoint c = closestOnBodyCapsule(w.particles.p[s.particle], w.bodies[size_t(targets_[size_t(ti)].desc.index)]);
        if (c.valid) s.q = c.point, s.n = c.normal;
    }
}

}  // namespace sim

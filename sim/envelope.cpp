#include "sim/envelope.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "sim/skew_ray_grid.h"
#include "sim/world.h"

namespace sim {

namespace {

constexpr uint32_t kNoTriangle = ~0u;
// A walk that has not settled after this many steps stops where it is: a
// vertex moves a few triangles between two substeps, and a bound keeps a
// pathological mesh from costing more than a fixed amount per vertex.
constexpr int kWalkSteps = 64;
// Farther from the envelope's bounds than this many grid cells, a closest
// point is searched over every triangle rather than shell by shell.
constexpr float kNearCells = 8.0f;
// The diagnostics and the binding search exactly this many grid shells (a
// mean edge wide each) around a vertex whose walk ends within kNearSkin of
// the skin; deeper in, the walk's answer stands (its side is not in doubt).
constexpr int kExactShells = 3;
constexpr float kNearSkin = 0.01f;
// Only vertices within this depth under the skin at rest are bound to it.
constexpr float kBindDepth = 0.02f;
// A vertex farther than this from its plane on the skin is not held by it
// (docs/model.md §3.8).
constexpr float kReach = 0.1f;

glm::vec3 faceNormal(const std::vector<glm::vec3>& V, glm::uvec3 t) {
    const glm::vec3 n = glm::cross(V[t.y] - V[t.x], V[t.z] - V[t.x]);
    const float l = glm::length(n);
    return l > 0.0f ? n / l : glm::vec3(0.0f);
}

// The angle of triangle t at its corner c (0, 1, 2).
float cornerAngle(const std::vector<glm::vec3>& V, glm::uvec3 t, int c) {
    const glm::vec3 o = V[t[c]];
    const glm::vec3 a = V[t[(c + 1) % 3]] - o, b = V[t[(c + 2) % 3]] - o;
    const float la = glm::length(a), lb = glm::length(b);
    if (!(la > 0.0f) || !(lb > 0.0f)) return 0.0f;
    return std::acos(std::clamp(glm::dot(a, b) / (la * lb), -1.0f, 1.0f));
}

// Angle-weighted pseudo-normal of envelope vertex v (Bærentzen & Aanæs), its
// ring of triangles in CSR order: the sign of (p − v)·N tells inside from
// outside a closed mesh when v is the closest point.
glm::vec3 vertexPseudoNormal(const Envelope& e, const std::vector<glm::vec3>& V, uint32_t v) {
    glm::vec3 s(0.0f);
    for (uint32_t k = e.ring_begin[v]; k < e.ring_begin[v + 1]; ++k) {
        const glm::uvec3 t = e.triangles[e.ring[k]];
        const int c = t.x == v ? 0 : t.y == v ? 1 : 2;
        s += cornerAngle(V, t, c) * faceNormal(V, t);
    }
    return s;
}

// The squared distance from p to triangle t of the envelope in positions V,
// and the feature its closest point lies on: what the searches compare
// (the normal and the sign are worked out once, for the winner).
float distance2To(const Envelope& e, const std::vector<glm::vec3>& V, uint32_t t, glm::vec3 p, TriFeature& f) {
    const glm::uvec3 tri = e.triangles[t];
    const glm::vec3 d = p - closestPointOnTriangle(p, V[tri.x], V[tri.y], V[tri.z], f);
    return glm::dot(d, d);
}

}  // namespace

bool Envelope::holds(uint32_t muscle, uint32_t t) const {
    if (muscle == kAnyMuscle || body_words == 0) return true;
    const uint64_t* own = &muscle_bodies[size_t(muscle) * body_words];
    for (int c = 0; c < 3; ++c) {
        const int32_t b = vertex_body[triangles[t][c]];
        if (b < 0 || (own[uint32_t(b) >> 6] >> (uint32_t(b) & 63) & 1u)) return true;
    }
    return false;
}

EnvelopeGrid::EnvelopeGrid(const Envelope& e, const std::vector<glm::vec3>& V) : e_(e), V_(V) {
    if (!e.active()) return;
    lo_ = glm::vec3(std::numeric_limits<float>::max());
    glm::vec3& hi = hi_;
    hi = glm::vec3(-std::numeric_limits<float>::max());
    double edge_sum = 0.0;
    float longest = 0.0f;
    for (const glm::uvec3& t : e.triangles) {
        for (int c = 0; c < 3; ++c) {
            lo_ = glm::min(lo_, V[t[c]]);
            hi = glm::max(hi, V[t[c]]);
            longest = std::max(longest, glm::length(V[t[(c + 1) % 3]] - V[t[c]]));
        }
        edge_sum += glm::length(V[t.y] - V[t.x]);
    }
    // The mean edge, but no triangle spans more than about eight cells a
    // side (a file's one huge triangle would otherwise be listed in
    // millions of cells).
    cell_ = std::max({1e-4f, float(edge_sum / double(e.triangles.size())), longest / 8.0f});
    // A cell count per axis that keeps the keys apart (the bounds of a
    // finite pose, checked at build and when posed).
    const glm::vec3 extent = (hi - lo_) / cell_;
    const float largest = std::max({extent.x, extent.y, extent.z});
    if (!(largest < 1.0e6f)) cell_ *= (largest / 1.0e6f) + 1.0f;
    rings_ = int(std::ceil(glm::length(hi - lo_) / cell_)) + 2;
    spheres_.resize(e.triangles.size());
    for (uint32_t k = 0; k < e.triangles.size(); ++k) {
        const glm::uvec3 t = e.triangles[k];
        const glm::vec3 c = (V[t.x] + V[t.y] + V[t.z]) / 3.0f;
        const float r = std::sqrt(std::max({glm::dot(V[t.x] - c, V[t.x] - c), glm::dot(V[t.y] - c, V[t.y] - c),
                                            glm::dot(V[t.z] - c, V[t.z] - c)}));
        spheres_[k] = glm::vec4(c, r);
    }
    std::vector<std::pair<uint64_t, uint32_t>> entries;
    for (uint32_t k = 0; k < e.triangles.size(); ++k) {
        const glm::uvec3 t = e.triangles[k];
        const glm::ivec3 a = cellOf(glm::min(glm::min(V[t.x], V[t.y]), V[t.z]));
        const glm::ivec3 b = cellOf(glm::max(glm::max(V[t.x], V[t.y]), V[t.z]));
        for (int x = a.x; x <= b.x; ++x)
            for (int y = a.y; y <= b.y; ++y)
                for (int z = a.z; z <= b.z; ++z) entries.emplace_back(key({x, y, z}), k);
    }
    std::sort(entries.begin(), entries.end());
    tris_.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        if (i == 0 || entries[i].first != entries[i - 1].first) {
            keys_.push_back(entries[i].first);
            begin_.push_back(uint32_t(tris_.size()));
        }
        tris_.push_back(entries[i].second);
    }
    begin_.push_back(uint32_t(tris_.size()));
    uint64_t slots = 1;
    while (slots < 2 * keys_.size()) slots <<= 1;
    slot_mask_ = slots - 1;
    slots_.assign(size_t(slots), 0);
    for (uint32_t c = 0; c < keys_.size(); ++c) {
        uint64_t s = (keys_[c] * 0x9E3779B97F4A7C15ull >> 20) & slot_mask_;
        while (slots_[size_t(s)] != 0) s = (s + 1) & slot_mask_;
        slots_[size_t(s)] = c + 1;
    }
}

const uint32_t* EnvelopeGrid::cell(uint64_t k, uint32_t& count) const {
    for (uint64_t s = (k * 0x9E3779B97F4A7C15ull >> 20) & slot_mask_;; s = (s + 1) & slot_mask_) {
        const uint32_t c = slots_[size_t(s)];
        if (c == 0) return nullptr;
        if (keys_[c - 1] == k) {
            count = begin_[c] - begin_[c - 1];
            return tris_.data() + begin_[c - 1];
        }
    }
}

glm::ivec3 EnvelopeGrid::cellOf(glm::vec3 p) const { return glm::ivec3(glm::floor((p - lo_) / cell_)); }

uint64_t EnvelopeGrid::key(glm::ivec3 c) {
    return (uint64_t(uint32_t(c.x) & 0x1fffff) << 42) | (uint64_t(uint32_t(c.y) & 0x1fffff) << 21) |
           uint64_t(uint32_t(c.z) & 0x1fffff);
}

bool EnvelopeGrid::far(glm::vec3 p, float& distance) const {
    distance = glm::length(glm::max(glm::max(lo_ - p, p - hi_), glm::vec3(0.0f)));
    return !(distance / cell_ <= kNearCells);
}

uint32_t EnvelopeGrid::closest(glm::vec3 p, ClosestPoint& out, uint32_t muscle) const {
    bool proven = false;
    return closestWithin(p, -1, out, proven, muscle);
}

uint32_t EnvelopeGrid::closestWithin(glm::vec3 p, int shells, ClosestPoint& out, bool& proven, uint32_t muscle) const {
    proven = false;
    uint32_t best = kNoTriangle;
    if (keys_.empty() || !std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return best;
    float best_d2 = 0.0f;
    auto consider = [&](uint32_t k) {
        if (!e_.holds(muscle, k)) return;
        // Its bounding sphere farther than the best: it cannot be closer
        // (the margin keeps a rounding from skipping an equal one).
        if (best != kNoTriangle) {
            const float lower = glm::length(glm::vec3(spheres_[k]) - p) - spheres_[k].w;
            if (lower > 0.0f && lower * lower > best_d2 * 1.0001f + 1e-12f) return;
        }
        TriFeature f;
        const float d2 = distance2To(e_, V_, k, p, f);
        if (best == kNoTriangle || d2 < best_d2 || (d2 == best_d2 && k < best)) {
            best = k;
            best_d2 = d2;
        }
    };
    auto finish = [&](bool settled) {
        proven = settled;
        TriFeature f;
        out = envelopeClosestOn(e_, V_, best, p, f);
        return best;
    };
    // Shell r holds the cells at Chebyshev distance r from p's cell. Every
    // triangle is listed in each cell its bounds touch, so one not met in
    // shells 0..r lies beyond them: farther than `inner` (p's distance to
    // its own cell's walls) + r·cell. Once the best is that near, no later
    // shell can hold a closer one. Ties go to the lowest triangle index.
    const glm::ivec3 c = cellOf(p);
    const glm::vec3 in_cell = (p - lo_) / cell_ - glm::vec3(c);
    const float inner = cell_ * std::max(0.0f, std::min({in_cell.x, in_cell.y, in_cell.z, 1.0f - in_cell.x,
                                                         1.0f - in_cell.y, 1.0f - in_cell.z}));
    float box_distance = 0.0f;
    // Far from the envelope (a vertex flung away): every triangle, below.
    int last = far(p, box_distance) ? -1 : int(box_distance / cell_) + int(kNearCells) + 1;
    if (shells >= 0) last = std::min(last, shells);
    // Shells up to kNearCells past the bounds' reach; a point that finds
    // nothing so near (deep in a gap of the mesh) reads every triangle.
    for (int r = 0; r <= last; ++r) {
        for (int dx = -r; dx <= r; ++dx)
            for (int dy = -r; dy <= r; ++dy)
                for (int dz = -r; dz <= r; ++dz) {
                    if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
                    uint32_t count = 0;
                    const uint32_t* tris = cell(key(c + glm::ivec3(dx, dy, dz)), count);
                    for (uint32_t n = 0; n < count && tris; ++n) consider(tris[n]);
                }
        const float reach = inner + float(r) * cell_;
        if (best != kNoTriangle && best_d2 <= reach * reach) return finish(true);
    }
    if (shells >= 0) return best == kNoTriangle ? best : finish(false);
    for (uint32_t k = 0; k < e_.triangles.size(); ++k) consider(k);
    return best == kNoTriangle ? best : finish(true);
}

ClosestPoint envelopeClosestOn(const Envelope& e, const std::vector<glm::vec3>& V, uint32_t t, glm::vec3 p,
                               TriFeature& feature) {
    ClosestPoint r;
    const glm::uvec3 tri = e.triangles[t];
    const glm::vec3 n = faceNormal(V, tri);
    r.point = closestPointOnTriangle(p, V[tri.x], V[tri.y], V[tri.z], feature);
    const glm::vec3 d = p - r.point;
    r.distance = glm::length(d);
    r.valid = true;
    if (feature == TriFeature::Face || !(r.distance > 1e-9f)) {
        r.normal = n;
        r.signed_distance = glm::dot(d, n);
        return r;
    }
    // On an edge: the two faces' normals; on a vertex: its pseudo-normal.
    glm::vec3 pseudo = n;
    switch (feature) {
        case TriFeature::EdgeAB:
        case TriFeature::EdgeBC:
        case TriFeature::EdgeCA: {
            const int edge = feature == TriFeature::EdgeAB ? 0 : feature == TriFeature::EdgeBC ? 1 : 2;
            const uint32_t u = e.across[t][edge];
            if (u != kNoTriangle) pseudo += faceNormal(V, e.triangles[u]);
            break;
        }
        case TriFeature::VertexA: pseudo = vertexPseudoNormal(e, V, tri.x); break;
        case TriFeature::VertexB: pseudo = vertexPseudoNormal(e, V, tri.y); break;
        case TriFeature::VertexC: pseudo = vertexPseudoNormal(e, V, tri.z); break;
        case TriFeature::Face: break;
    }
    const float s = glm::dot(d, pseudo) < 0.0f ? -1.0f : 1.0f;
    r.normal = s * d / r.distance;
    r.signed_distance = s * r.distance;
    return r;
}

uint32_t envelopeWalk(const Envelope& e, const std::vector<glm::vec3>& V, uint32_t t, glm::vec3 p, ClosestPoint& out,
                      uint32_t muscle) {
    TriFeature f;
    float d2 = distance2To(e, V, t, p, f);
    for (int step = 0; step < kWalkSteps && f != TriFeature::Face; ++step) {
        // The triangles that may hold a closer point: across the edge, or
        // around the vertex, the closest point lies on. The walk moves only
        // to a strictly closer one (lowest index among equals).
        uint32_t best = kNoTriangle;
        float best_d2 = d2;
        TriFeature best_f = f;
        auto consider = [&](uint32_t u) {
            if (u == kNoTriangle || u == t || !e.holds(muscle, u)) return;
            TriFeature fu;
            const float du = distance2To(e, V, u, p, fu);
            if (du < best_d2 || (du == best_d2 && best != kNoTriangle && u < best)) {
                best = u;
                best_d2 = du;
                best_f = fu;
            }
        };
        const glm::uvec3 tri = e.triangles[t];
        switch (f) {
            case TriFeature::EdgeAB: consider(e.across[t][0]); break;
            case TriFeature::EdgeBC: consider(e.across[t][1]); break;
            case TriFeature::EdgeCA: consider(e.across[t][2]); break;
            default: {
                const uint32_t v = f == TriFeature::VertexA ? tri.x : f == TriFeature::VertexB ? tri.y : tri.z;
                for (uint32_t k = e.ring_begin[v]; k < e.ring_begin[v + 1]; ++k) consider(e.ring[k]);
            }
        }
        if (best == kNoTriangle) break;
        t = best;
        d2 = best_d2;
        f = best_f;
    }
    out = envelopeClosestOn(e, V, t, p, f);
    return t;
}

std::string buildEnvelopeGeometry(const EnvelopeDesc& desc, Envelope& e) {
    e = Envelope{};
    if (desc.empty()) return {};
    const size_t nv = desc.vertices.size();
    for (const glm::vec3& v : desc.vertices)
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return "envelope '" + desc.name + "': a vertex is not finite";
    for (const glm::uvec3& t : desc.triangles)
        if (t.x >= nv || t.y >= nv || t.z >= nv) return "envelope '" + desc.name + "': a triangle's index is past its vertices";
    if (!(desc.thickness >= 0.0f && desc.thickness <= 0.1f)) return "envelope '" + desc.name + "': thickness must be in [0, 0.1] m";
    e.name = desc.name;
    e.thickness = desc.thickness;
    if (!(desc.stiffness_scale >= 1e-6f && desc.stiffness_scale <= 1e6f))
        return "envelope '" + desc.name + "': stiffness_scale must be in [1e-6, 1e6]";
    e.stiffness_scale = desc.stiffness_scale;
    e.rest = desc.vertices;
    e.prev = e.curr = e.now = e.rest;
    e.triangles = desc.triangles;
    const size_t nt = e.triangles.size();

    // Vertex → triangles, in triangle order.
    e.ring_begin.assign(nv + 1, 0);
    for (const glm::uvec3& t : e.triangles)
        for (int c = 0; c < 3; ++c) ++e.ring_begin[t[c] + 1];
    for (size_t v = 0; v < nv; ++v) e.ring_begin[v + 1] += e.ring_begin[v];
    e.ring.resize(e.ring_begin[nv]);
    {
        std::vector<uint32_t> cur(e.ring_begin.begin(), e.ring_begin.end() - 1);
        for (uint32_t k = 0; k < nt; ++k)
            for (int c = 0; c < 3; ++c) e.ring[cur[e.triangles[k][c]]++] = k;
    }
    // Across each edge: the other triangle holding the same two vertices
    // (the lowest-indexed one where a non-manifold edge has several).
    e.across.assign(nt, glm::uvec3(kNoTriangle));
    for (uint32_t k = 0; k < nt; ++k)
        for (int c = 0; c < 3; ++c) {
            const uint32_t a = e.triangles[k][c], b = e.triangles[k][(c + 1) % 3];
            for (uint32_t r = e.ring_begin[a]; r < e.ring_begin[a + 1]; ++r) {
                const uint32_t u = e.ring[r];
                if (u == k) continue;
                const glm::uvec3 tu = e.triangles[u];
                if (tu.x == b || tu.y == b || tu.z == b) {
                    e.across[k][c] = u;
                    break;
                }
            }
        }
    return {};
}

std::string buildEnvelope(const EnvelopeDesc& desc, World& w) {
    Envelope& e = w.envelope;
    if (auto err = buildEnvelopeGeometry(desc, e); !err.empty() || !e.active()) return err;
    // Bind each free surface vertex to its closest triangle in the bind pose
    // (exact, through a grid of the triangles).
    const size_t np = w.particles.size();
    e.tri.assign(np, -1);
    e.margin.assign(np, 0.0f);
    e.q.assign(np, glm::vec3(0.0f));
    e.n.assign(np, glm::vec3(0.0f));
    e.lambda.assign(np, 0.0f);
    const EnvelopeGrid grid(e, e.rest);
    e.capsule_begin.assign(1, 0);
    for (const Muscle& m : w.muscles) {
        for (const TargetDesc& t : m.contact_targets)
            if (t.kind == TargetDesc::Kind::Body && w.bodies[size_t(t.index)].triangles.empty() &&
                w.bodies[size_t(t.index)].capsule_radius > 0.0f)
                e.capsules.push_back(uint32_t(t.index));
        e.capsule_begin.push_back(uint32_t(e.capsules.size()));
    }
    // Each muscle's own bones (Envelope::holds): where the skin says which
    // body carries each vertex.
    if (desc.vertex_body.size() == desc.vertices.size() &&
        std::any_of(desc.vertex_body.begin(), desc.vertex_body.end(), [](int32_t b) { return b >= 0; })) {
        const size_t nb = w.bodies.size();
        e.vertex_body.resize(desc.vertex_body.size());
        for (size_t v = 0; v < desc.vertex_body.size(); ++v)
            e.vertex_body[v] = desc.vertex_body[v] >= 0 && size_t(desc.vertex_body[v]) < nb ? desc.vertex_body[v] : -1;
        e.body_words = uint32_t((nb + 63) / 64);
        e.muscle_bodies.assign(w.muscles.size() * e.body_words, 0);
        auto own = [&](size_t mi, size_t b) { e.muscle_bodies[mi * e.body_words + b / 64] |= uint64_t(1) << (b % 64); };
        std::vector<uint8_t> any(w.muscles.size(), 0);
        for (const Attachment& a : w.attachments) {
            own(w.particles.muscle[a.particle], a.body);
            any[w.particles.muscle[a.particle]] = 1;
        }
        for (size_t mi = 0; mi < w.muscles.size(); ++mi) {
            for (const auto* list : {&w.muscles[mi].contact_targets, &w.muscles[mi].sliding_targets})
                for (const TargetDesc& t : *list)
                    if (t.kind == TargetDesc::Kind::Body && t.index >= 0 && size_t(t.index) < nb) own(mi, size_t(t.index)), any[mi] = 1;
            // A muscle tied to no bone: every triangle may hold it.
            if (!any[mi]) std::fill_n(e.muscle_bodies.begin() + std::ptrdiff_t(mi * e.body_words), e.body_words, ~uint64_t(0));
        }
    }
    const float thickness = e.thickness;
    for (const Muscle& m : w.muscles)
        for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
            if (w.particles.w[i] == 0.0f) continue;
            // Exact near the skin; deeper in, the walk from the closest
            // triangle of the nearby cells (its side is not in doubt).
            const glm::vec3 p = w.particles.rest[i];
            const uint32_t mi = w.particles.muscle[i];
            ClosestPoint c;
            bool proven = false;
            uint32_t t = grid.closestWithin(p, 1, c, proven, mi);
            if (t == kNoTriangle) t = grid.closest(p, c, mi);
            if (t == kNoTriangle) continue;
            if (!proven) {
                t = envelopeWalk(e, e.rest, t, p, c, mi);
                ClosestPoint exact;
                if (c.signed_distance > -kNearSkin) {
                    const uint32_t u = grid.closestWithin(p, kExactShells, exact, proven, mi);
                    if (u != kNoTriangle && proven) t = u, c = exact;
                }
            }
            // Deep vertices are held in by the muscles over them; binding
            // them would only let a walk that strays across a crease (the
            // crotch, an armpit) pull them to the wrong side.
            if (c.signed_distance < -kBindDepth) continue;
            // Nor are vertices outside the skin at rest: where skin pieces
            // cross (an arm's skin through the trunk's), the surface
            // nearest to such a vertex is another limb's, which carries it
            // off when the limb swings.
            if (c.signed_distance > 0.0f) continue;
            e.tri[i] = int32_t(t);
            // Held `thickness` inside, or as deep as it lies at rest when
            // that is less.
            e.margin[i] = std::min(-c.signed_distance, thickness);  // ≥ 0: inside at rest
            e.q[i] = c.point;
            e.n[i] = c.normal;
        }
    return {};
}

uint32_t locateOnEnvelope(const Envelope& e, const std::vector<glm::vec3>& V, const EnvelopeGrid& grid, int32_t bound,
                          glm::vec3 p, ClosestPoint& c) {
    // A bound vertex's walk first: deep inside, its answer stands (its side
    // is not in doubt so far in). Near the skin or outside it, and for every
    // unbound vertex, the exact closest point (a walk may rest on a fold).
    uint32_t t = kNoTriangle;
    if (bound >= 0) t = envelopeWalk(e, V, uint32_t(bound), p, c);
    if (bound < 0 || c.signed_distance > -kNearSkin) {
        bool proven = false;
        t = grid.closestWithin(p, kExactShells, c, proven);
        // Nothing proven within the shells: deep in, or far out.
        if (t == kNoTriangle || (!proven && c.signed_distance > -kNearSkin)) t = grid.closest(p, c);
    }
    return t;
}

EnvelopeOutside measureOutside(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::vec3>& V,
                               bool attached, std::vector<float>* per_vertex) {
    EnvelopeOutside r;
    r.muscle_deepest.assign(w.muscles.size(), 0.0f);
    if (per_vertex) per_vertex->assign(X.size(), 0.0f);
    const Envelope& e = w.envelope;
    if (!e.active() || V.size() != e.rest.size()) return r;
    const EnvelopeGrid grid(e, V);
    // Built at the first vertex that lies outside its closest triangle (in
    // most frames none does, and the measure runs every frame).
    SkewRayGrid rays;
    bool rays_built = false;
    for (size_t mi = 0; mi < w.muscles.size(); ++mi) {
        const Muscle& m = w.muscles[mi];
        for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
            if (w.particles.w[i] == 0.0f && !attached) continue;
            // Far beyond the envelope's bounds (a vertex flung away), the
            // distance to the bounds stands for it: a lower bound, cheap.
            float out = 0.0f;
            if (!grid.far(X[i], out)) {
                ClosestPoint c;
                locateOnEnvelope(e, V, grid, e.tri[i], X[i], c);
                out = c.signed_distance;
                // Outside its closest triangle, but inside another piece
                // of the skin: where linear-blend skinning folds the skin
                // through itself (the crease of a flexed elbow, the forearm's
                // skin through the upper arm's), the closest triangle's side
                // says nothing; the winding number tells (covered: not out).
                if (out > 0.0f) {
                    if (!rays_built) rays.build(V, e.triangles, 0, uint32_t(e.triangles.size())), rays_built = true;
                    if (rays.winding(V, e.triangles, X[i]) >= 1) out = 0.0f;
                }
            }
            ++r.vertices;
            if (per_vertex && out > 0.0f) (*per_vertex)[i] = out;
            if (out > 0.001f) ++r.vertices_past_1mm;
            if (out > 0.002f) ++r.vertices_past_2mm;
            if (out > r.muscle_deepest[mi]) r.muscle_deepest[mi] = out;
            if (out > r.deepest) {
                r.deepest = out;
                r.particle = int(i);
                r.muscle = int(mi);
            }
        }
    }
    return r;
}

void placeEnvelope(World& w, float frame_fraction, float contact_radius) {
    Envelope& e = w.envelope;
    if (!e.active()) return;
    const int64_t nv = int64_t(e.now.size());
    const float t = std::clamp(frame_fraction, 0.0f, 1.0f);
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int64_t v = 0; v < nv; ++v)
            e.now[size_t(v)] = t >= 1.0f ? e.curr[size_t(v)] : e.prev[size_t(v)] + t * (e.curr[size_t(v)] - e.prev[size_t(v)]);
        const auto& p = w.particles.p;
        const int64_t np = int64_t(e.tri.size());
#pragma omp for schedule(static)
        for (int64_t i = 0; i < np; ++i) {
            if (e.tri[size_t(i)] < 0) continue;
            ClosestPoint c;
            const uint32_t mi = w.particles.muscle[size_t(i)];
            e.tri[size_t(i)] = int32_t(envelopeWalk(e, e.now, uint32_t(e.tri[size_t(i)]), p[size_t(i)], c, mi));
            // A vertex farther than kReach from the skin has left its
            // place (or its walk rests on a fold across the body): no plane
            // this substep (n = 0: project::fascia skips it).
            bool hold = c.distance <= kReach;
            // Where the skin has folded onto a bone (the crease of a flexed
            // elbow, where linear-blend skinning collapses it), the place it
            // asks for lies inside the bone: the bone wins, the envelope
            // lets go for the substep. (Asking less depth instead, by how
            // far the bone is in the way, measured worse on T5: bone
            // penetration 5.3 mm against 0; docs/lab/fascia-envelope.md.)
            const glm::vec3 wanted = c.point - e.margin[size_t(i)] * c.normal;
            for (uint32_t k = e.capsule_begin[mi]; hold && k < e.capsule_begin[mi + 1]; ++k) {
                const Body& b = w.bodies[e.capsules[k]];
                hold = b.capsuleAxisFartherThan(wanted, b.capsule_radius + contact_radius);
            }
            e.q[size_t(i)] = c.point;
            e.n[size_t(i)] = hold ? c.normal : glm::vec3(0.0f);
        }
    }
}

}  // namespace sim

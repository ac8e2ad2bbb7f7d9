#include "engine/anatomy/muscle_packing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <glm/geometric.hpp>

#include "engine/anatomy/loft_untangle.h"
#include "sim/geometry.h"

namespace engine {
namespace {

constexpr float kMinAxis = 0.0007f;  // m: floor of a station's semi-axes (poles are points)
constexpr float kMinAxial = 0.002f;  // m: floor of the length an along-axis offset is measured in
constexpr uint8_t kOutside = 255;    // cap raster: beyond the muscle's reach
constexpr float kQuant = 100.0f;     // cap raster: stored value = depth · kQuant (≤ 1 inside)
constexpr float kSeedDepth = 0.15f;  // flood seeds: the inner 15 % of the reach around the axis

float capsuleDistance(glm::vec3 p, const PackingCapsule& c) { return sim::closestOnCapsule(p, c.a, c.b, c.radius).signed_distance; }

// Whether segment pq passes through the capsule: the closest distance
// between the segment and the capsule's axis is below its radius
// (Ericson, Real-Time Collision Detection 5.1.9).
bool segmentHitsCapsule(glm::vec3 p, glm::vec3 q, const PackingCapsule& c) {
    const glm::vec3 d1 = q - p, d2 = c.b - c.a, r = p - c.a;
    const float a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
    float s = 0.0f, t = 0.0f;
    if (a <= 1e-12f) {
        t = e > 1e-12f ? std::clamp(f / e, 0.0f, 1.0f) : 0.0f;
    } else {
        const float cc = glm::dot(d1, r);
        if (e <= 1e-12f) {
            s = std::clamp(-cc / a, 0.0f, 1.0f);
        } else {
            const float b = glm::dot(d1, d2), den = a * e - b * b;
            s = den > 1e-12f ? std::clamp((b * f - cc * e) / den, 0.0f, 1.0f) : 0.0f;
            t = (b * s + f) / e;
            if (t < 0.0f) {
                t = 0.0f;
                s = std::clamp(-cc / a, 0.0f, 1.0f);
            } else if (t > 1.0f) {
                t = 1.0f;
                s = std::clamp((b - cc) / a, 0.0f, 1.0f);
            }
        }
    }
    const glm::vec3 x = p + s * d1, y = c.a + t * d2;
    return glm::dot(x - y, x - y) < c.radius * c.radius;
}

struct Grid {
    glm::vec3 lo{0.0f};
    float h = 0.001f;
    glm::ivec3 n{0};
    size_t size() const { return size_t(n.x) * size_t(n.y) * size_t(n.z); }
    size_t at(glm::ivec3 c) const { return (size_t(c.z) * size_t(n.y) + size_t(c.y)) * size_t(n.x) + size_t(c.x); }
    glm::vec3 centre(glm::ivec3 c) const { return lo + h * (glm::vec3(c) + 0.5f); }
    glm::ivec3 cell(glm::vec3 p) const { return glm::ivec3(glm::floor((p - lo) / h)); }
    bool inside(glm::ivec3 c) const { return c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x < n.x && c.y < n.y && c.z < n.z; }
};

// One muscle during packing.
struct Member {
    size_t muscle = 0;
    std::vector<glm::vec3> nominal;                 // loft vertices, rings moved with their centres
    std::vector<std::vector<AxisStation>> chains;   // centres moved out of bones / into the fascia
    glm::ivec3 lo{0}, n{0};                         // its cap raster's box, in grid cells
    std::vector<uint8_t> cap;                       // depth in its reach · kQuant, kOutside beyond
    double quota = 0.0;                             // voxels it may take
    double speed = 1.0;                             // layers per round (≤ 1)
    double progress = 0.0;
    size_t count = 0;
    std::vector<glm::vec3> centres;                 // ring centres (stations with a ring)

    // A cell is visible when the line from the nearest ring centre to it
    // misses every bone: the mesh's rings reach it along their rays.
    bool sees(glm::vec3 p, const std::vector<PackingCapsule>& bones) const {
        float best = 1e30f;
        glm::vec3 c(0.0f);
        for (const glm::vec3& x : centres) {
            const float d = glm::dot(p - x, p - x);
            if (d < best) {
                best = d;
                c = x;
            }
        }
        for (const PackingCapsule& b : bones)
            if (segmentHitsCapsule(c, p, b)) return false;
        return true;
    }
    std::vector<uint32_t> frontier;

    uint8_t capAt(glm::ivec3 c) const {
        const glm::ivec3 l = c - lo;
        if (l.x < 0 || l.y < 0 || l.z < 0 || l.x >= n.x || l.y >= n.y || l.z >= n.z) return kOutside;
        return cap[(size_t(l.z) * size_t(n.y) + size_t(l.y)) * size_t(n.x) + size_t(l.x)];
    }
};

// How far a station's ring may reach, in units of its lofted radius.
float reachAt(const AxisStation& s, float reach) { return 1.0f + (reach - 1.0f) * s.belly * s.belly; }

// Elliptic depth of p in the reach of one axis segment (≤ 1 inside). Past the
// segment's ends the offset along the axis counts against the loft's own
// thickness, so a muscle never claims space beyond its ends.
float segmentDepth(const AxisStation& s0, const AxisStation& s1, glm::vec3 p, float reach) {
    const glm::vec3 d = s1.c - s0.c;
    const float dd = glm::dot(d, d);
    const float t = dd > 0.0f ? std::clamp(glm::dot(p - s0.c, d) / dd, 0.0f, 1.0f) : 0.0f;
    const glm::vec3 q = s0.c + t * d, r = p - q;
    const glm::vec3 e1 = s0.e1 + t * (s1.e1 - s0.e1), e2 = s0.e2 + t * (s1.e2 - s0.e2);
    const float g0 = reachAt(s0, reach), g1 = reachAt(s1, reach);
    const float a = std::max(kMinAxis, (1.0f - t) * s0.a * g0 + t * s1.a * g1);
    const float b = std::max(kMinAxis, (1.0f - t) * s0.b * g0 + t * s1.b * g1);
    const float x = glm::dot(r, e1), y = glm::dot(r, e2);
    const float z2 = std::max(0.0f, glm::dot(r, r) - x * x - y * y);
    const float m = std::max(kMinAxial, std::min((1.0f - t) * std::min(s0.a, s0.b) + t * std::min(s1.a, s1.b), 0.01f));
    return std::sqrt(x * x / (a * a) + y * y / (b * b) + z2 / (m * m));
}

// Moves ring centres outside the fascia inward (along its gradient) and
// centres inside a bone outward (along the capsule's normal); rings move with
// their centres, poles stay where they are attached.
void placeCentres(Member& w, const MeshData& m, bool in_fascia, const std::vector<PackingCapsule>& bones,
                  const PackingOptions& opt) {
    std::vector<std::vector<glm::vec3>> shift(w.chains.size());
    for (size_t c = 0; c < w.chains.size(); ++c) {
        shift[c].assign(w.chains[c].size(), glm::vec3(0.0f));
        for (size_t k = 0; k < w.chains[c].size(); ++k) {
            AxisStation& s = w.chains[c][k];
            if (s.b <= 0.0f) continue;
            const glm::vec3 before = s.c;
            if (in_fascia && opt.fascia) {
                const float margin = std::min(s.b, opt.fascia_margin);
                for (int it = 0; it < 4; ++it) {
                    auto fd = [&](glm::vec3 p) { return opt.fascia(p); };
                    const float f = fd(s.c);
                    if (f <= -margin) break;
                    const float e = 0.0005f;
                    glm::vec3 g(fd(s.c + glm::vec3(e, 0, 0)) - fd(s.c - glm::vec3(e, 0, 0)),
                                fd(s.c + glm::vec3(0, e, 0)) - fd(s.c - glm::vec3(0, e, 0)),
                                fd(s.c + glm::vec3(0, 0, e)) - fd(s.c - glm::vec3(0, 0, e)));
                    if (glm::length(g) < 1e-9f) break;
                    s.c -= (f + margin) * glm::normalize(g);
                }
            }
            for (const PackingCapsule& cap : bones) {
                const float d = capsuleDistance(s.c, cap), want = opt.bone_gap + 0.0015f;
                if (d >= want) continue;
                const glm::vec3 ab = cap.b - cap.a;
                const float t = std::clamp(glm::dot(s.c - cap.a, ab) / std::max(1e-12f, glm::dot(ab, ab)), 0.0f, 1.0f);
                glm::vec3 nrm = s.c - (cap.a + t * ab);
                nrm = glm::length(nrm) > 1e-6f ? glm::normalize(nrm) : s.e1;
                s.c += (want - d) * nrm;
            }
            shift[c][k] = s.c - before;
        }
    }
    for (size_t v = 0; v < w.nominal.size(); ++v) {
        const glm::ivec2 st = m.vertex_station[v];
        if (st.x >= 0) w.nominal[v] += shift[size_t(st.x)][size_t(st.y)];
    }
}

// The member's reach rasterised on the grid (min over its axis segments).
void rasterReach(Member& w, const Grid& g, float reach) {
    glm::vec3 blo(1e9f), bhi(-1e9f);
    for (const auto& ch : w.chains)
        for (const AxisStation& s : ch) {
            const float r = std::max({s.a, s.b, kMinAxial}) * reachAt(s, reach) + 2.0f * g.h;
            blo = glm::min(blo, s.c - glm::vec3(r));
            bhi = glm::max(bhi, s.c + glm::vec3(r));
        }
    w.lo = glm::clamp(g.cell(blo), glm::ivec3(0), g.n - 1);
    const glm::ivec3 hi = glm::clamp(g.cell(bhi), glm::ivec3(0), g.n - 1);
    w.n = hi - w.lo + 1;
    w.cap.assign(size_t(w.n.x) * size_t(w.n.y) * size_t(w.n.z), kOutside);
    for (const auto& ch : w.chains)
        for (size_t k = 0; k + 1 < ch.size(); ++k) {
            const AxisStation &s0 = ch[k], &s1 = ch[k + 1];
            const float r = std::max({s0.a * reachAt(s0, reach), s0.b * reachAt(s0, reach), s1.a * reachAt(s1, reach),
                                      s1.b * reachAt(s1, reach), kMinAxial}) +
                            g.h;
            const glm::ivec3 a = glm::clamp(g.cell(glm::min(s0.c, s1.c) - glm::vec3(r)), w.lo, w.lo + w.n - 1);
            const glm::ivec3 b = glm::clamp(g.cell(glm::max(s0.c, s1.c) + glm::vec3(r)), w.lo, w.lo + w.n - 1);
            for (int z = a.z; z <= b.z; ++z)
                for (int y = a.y; y <= b.y; ++y)
                    for (int x = a.x; x <= b.x; ++x) {
                        const float d = segmentDepth(s0, s1, g.centre({x, y, z}), reach);
                        if (d > 2.5f) continue;
                        const glm::ivec3 l = glm::ivec3(x, y, z) - w.lo;
                        uint8_t& q = w.cap[(size_t(l.z) * size_t(w.n.y) + size_t(l.y)) * size_t(w.n.x) + size_t(l.x)];
                        q = std::min(q, uint8_t(std::lround(d * kQuant)));
                    }
        }
}

// The region every member of a group grows into (labels: member index, −1
// free). Bones (with their gap) are never taken; a member bounded by the
// fascia takes only cells inside it.
struct Flood {
    Grid g;
    std::vector<uint8_t> bone;
    std::vector<uint8_t> fascia;  // 0 not yet known, 1 inside, 2 outside
    std::vector<int16_t> label;

    bool insideFascia(size_t i, glm::ivec3 c, const PackingOptions& opt) {
        if (!fascia[i]) fascia[i] = opt.fascia(g.centre(c)) <= 0.0f ? 1 : 2;
        return fascia[i] == 1;
    }
};

void flood(Flood& f, std::vector<Member>& ms, const std::vector<PackingMuscle>& muscles, const PackingOptions& opt,
           const std::vector<PackingCapsule>& bones) {
    const Grid& g = f.g;
    f.label.assign(g.size(), -1);
    std::vector<uint8_t> best(g.size(), kOutside);
    const uint8_t seed = uint8_t(kSeedDepth * kQuant);
    for (size_t k = 0; k < ms.size(); ++k) {
        Member& w = ms[k];
        for (int z = 0; z < w.n.z; ++z)
            for (int y = 0; y < w.n.y; ++y)
                for (int x = 0; x < w.n.x; ++x) {
                    const uint8_t q = w.cap[(size_t(z) * size_t(w.n.y) + size_t(y)) * size_t(w.n.x) + size_t(x)];
                    if (q > seed) continue;
                    const glm::ivec3 c = w.lo + glm::ivec3(x, y, z);
                    const size_t i = g.at(c);
                    if (f.bone[i] || q >= best[i]) continue;
                    if (muscles[w.muscle].in_fascia && opt.fascia && !f.insideFascia(i, c, opt)) continue;
                    best[i] = q;
                    f.label[i] = int16_t(k);
                }
    }
    for (Member& w : ms) {
        w.count = 0;
        w.frontier.clear();
        w.progress = 0.0;
    }
    for (size_t i = 0; i < g.size(); ++i)
        if (f.label[i] >= 0) {
            Member& w = ms[size_t(f.label[i])];
            ++w.count;
            w.frontier.push_back(uint32_t(i));
        }
    // Face neighbours on even layers, face + edge neighbours on odd ones: the
    // fronts grow as octagons rather than diamonds or cubes.
    std::vector<glm::ivec3> face, edge;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int k = std::abs(dx) + std::abs(dy) + std::abs(dz);
                if (k == 1) face.push_back({dx, dy, dz});
                if (k == 1 || k == 2) edge.push_back({dx, dy, dz});
            }
    std::vector<int> layer(ms.size(), 0);
    std::vector<uint32_t> next;
    for (int round = 0;; ++round) {
        bool any = false;
        for (size_t o = 0; o < ms.size(); ++o) {
            const size_t k = round % 2 ? ms.size() - 1 - o : o;  // alternate who goes first
            Member& w = ms[k];
            const bool bounded = muscles[w.muscle].in_fascia && bool(opt.fascia);
            w.progress += w.speed;
            while (w.progress >= 1.0 && !w.frontier.empty() && double(w.count) < w.quota) {
                w.progress -= 1.0;
                const auto& nb = layer[k]++ % 2 ? edge : face;
                next.clear();
                for (uint32_t i : w.frontier) {
                    const glm::ivec3 c(int(i % uint32_t(g.n.x)), int((i / uint32_t(g.n.x)) % uint32_t(g.n.y)),
                                       int(i / (uint32_t(g.n.x) * uint32_t(g.n.y))));
                    for (const glm::ivec3& d : nb) {
                        const glm::ivec3 u = c + d;
                        if (!g.inside(u)) continue;
                        const size_t j = g.at(u);
                        if (f.label[j] != -1 || f.bone[j] || w.capAt(u) > uint8_t(kQuant)) continue;
                        if (bounded && !f.insideFascia(j, u, opt)) continue;
                        if (!w.sees(g.centre(u), bones)) continue;
                        f.label[j] = int16_t(k);
                        next.push_back(uint32_t(j));
                        if (double(++w.count) >= w.quota) break;
                    }
                    if (double(w.count) >= w.quota) break;
                }
                w.frontier.swap(next);
                any = true;
            }
            if (w.frontier.empty() || double(w.count) >= w.quota) w.progress = 0.0;
        }
        if (!any) {
            bool pending = false;
            for (const Member& w : ms) pending = pending || (!w.frontier.empty() && double(w.count) < w.quota);
            if (!pending) break;
        }
    }
}

// The member's vertices: each ring vertex on the ray from its ring's centre,
// at the edge of the member's region (half a gap short of a neighbour's),
// then the radial lengths smoothed over the mesh's edges.
void shape(const Flood& f, const Member& w, int16_t k, const MeshData& mesh, float reach, float gap,
           std::vector<glm::vec3>& out) {
    const Grid& g = f.g;
    out = w.nominal;
    const size_t n = out.size();
    std::vector<float> raw(n, -1.0f);
    std::vector<glm::vec3> dirs(n, glm::vec3(0.0f)), centres(n, glm::vec3(0.0f));
    const float step = g.h / 3.0f;
    for (size_t v = 0; v < n; ++v) {
        const glm::ivec2 st = mesh.vertex_station[v];
        if (st.x < 0) continue;
        const AxisStation& s = w.chains[size_t(st.x)][size_t(st.y)];
        const glm::vec3 radial = w.nominal[v] - s.c;
        const float len0 = glm::length(radial);
        if (len0 < 1e-7f) continue;  // a pole
        const glm::vec3 dir = radial / len0;
        const float len = len0 * reachAt(s, reach);
        // Walk out from the centre: through any cells not ours at the start
        // (a tendon end at its bone), then through ours to the first cell
        // that is not.
        float r = std::min(len, 0.001f);
        bool entered = false;
        float prev = 0.0f;
        for (float t = 0.0f; t <= len; t += step) {
            const glm::ivec3 c = g.cell(s.c + t * dir);
            const int16_t l = g.inside(c) ? f.label[g.at(c)] : int16_t(-1);
            if (l == k) {
                entered = true;
                r = t;
            } else if (entered) {
                const float edge = 0.5f * (prev + t);
                r = edge - (l >= 0 ? 0.5f * gap : 0.0f);
                break;
            }
            prev = t;
        }
        raw[v] = std::clamp(r, std::min(len, 0.0008f), len);
        dirs[v] = dir;
        centres[v] = s.c;
    }
    for (size_t v = 0; v < n; ++v)
        if (raw[v] >= 0.0f) out[v] = centres[v] + raw[v] * dirs[v];
}

// The rays' interpolation between rings can carry a surface across a
// neighbour's: every vertex found inside another muscle of the group moves
// back along its ray to just outside it. In a fixed order, each muscle seeing
// the others as already corrected, so the result is deterministic.
void resolveOverlaps(const std::vector<Member>& ms, const std::vector<PackingMuscle>& muscles,
                     std::vector<std::vector<glm::vec3>>& shaped) {
    struct Box {
        glm::vec3 lo{1e9f}, hi{-1e9f};
        bool has(glm::vec3 p) const { return glm::all(glm::greaterThanEqual(p, lo)) && glm::all(glm::lessThanEqual(p, hi)); }
    };
    std::vector<Box> boxes(ms.size());
    for (size_t k = 0; k < ms.size(); ++k)
        for (const glm::vec3& v : shaped[k]) {
            boxes[k].lo = glm::min(boxes[k].lo, v);
            boxes[k].hi = glm::max(boxes[k].hi, v);
        }
    for (size_t k = 0; k < ms.size(); ++k) {
        const MeshData& m = *muscles[ms[k].muscle].mesh;
        if (muscles[ms[k].muscle].fixed) continue;  // its shape is its own; the others move out of it
        auto clear = [&](glm::vec3 p) {
            for (size_t o = 0; o < ms.size(); ++o)
                if (o != k && boxes[o].has(p) && sim::insideByCrossings(p, shaped[o], muscles[ms[o].muscle].mesh->triangles))
                    return false;
            return true;
        };
        // The way out of the first other muscle that holds p: away from that
        // muscle's nearest ring centre (`fallback` when it has none), in
        // 0.5 mm steps up to `limit`, to the first clear point and 0.4 mm
        // beyond. Zero when p is in none or no step within `limit` is clear.
        auto stepAway = [&](glm::vec3 p, glm::vec3 fallback, float limit) {
            for (size_t o = 0; o < ms.size(); ++o) {
                if (o == k || !boxes[o].has(p) || !sim::insideByCrossings(p, shaped[o], muscles[ms[o].muscle].mesh->triangles))
                    continue;
                glm::vec3 q = ms[o].centres.empty() ? fallback : ms[o].centres.front();
                for (const glm::vec3& x : ms[o].centres)
                    if (glm::dot(x - p, x - p) < glm::dot(q - p, q - p)) q = x;
                glm::vec3 away = p - q;
                away = glm::length(away) > 1e-6f ? glm::normalize(away) : glm::vec3(0, 0, 1);
                for (float t = 0.0005f; t <= limit; t += 0.0005f)
                    if (clear(p + t * away)) return (t + 0.0004f) * away;
                break;
            }
            return glm::vec3(0.0f);
        };
        // A ring whose centre lies inside another muscle (a tendon end on
        // another's attachment, as the forearm flexors share the medial
        // epicondyle) steps away from that muscle's nearest ring centre
        // until its centre is clear, the whole ring with it: moved vertex by
        // vertex, the ring's order around its centre was lost and the tendon
        // end cut through itself. Where that takes more than 8 mm (or for a
        // pole), its vertices still step away one by one (below).
        std::vector<std::vector<glm::vec3>> centre(ms[k].chains.size());
        std::vector<std::vector<glm::vec3>> offset(ms[k].chains.size());
        for (size_t ch = 0; ch < ms[k].chains.size(); ++ch) {
            centre[ch].resize(ms[k].chains[ch].size());
            offset[ch].assign(ms[k].chains[ch].size(), glm::vec3(0.0f));
            for (size_t j = 0; j < ms[k].chains[ch].size(); ++j) {
                const AxisStation& st = ms[k].chains[ch][j];
                const glm::vec3 c = st.c;
                centre[ch][j] = c;
                // A pole stays on its attachment; a ring moves at most 8 mm
                // (further, its tendon end would leave the limb).
                if (st.b <= kMinAxis || clear(c)) continue;
                offset[ch][j] = stepAway(c, c, 0.008f);
                centre[ch][j] = c + offset[ch][j];
            }
        }
        for (size_t v = 0; v < shaped[k].size(); ++v) {
            const glm::ivec2 st = m.vertex_station[v];
            if (st.x < 0) continue;
            shaped[k][v] += offset[size_t(st.x)][size_t(st.y)];
        }
        // Then each vertex still inside another muscle moves back along its
        // ray toward its ring's centre until it is clear.
        for (size_t v = 0; v < shaped[k].size(); ++v) {
            const glm::ivec2 st = m.vertex_station[v];
            if (st.x < 0) continue;
            const glm::vec3 c = centre[size_t(st.x)][size_t(st.y)];
            const glm::vec3 p = shaped[k][v];
            if (clear(p)) continue;
            const float r = glm::length(p - c);
            if (r <= 1e-6f || !clear(c)) {
                // A pole, or no clear place for its ring within 8 mm: this
                // vertex alone steps away from the muscle it is in (≤ 3 cm).
                shaped[k][v] = p + stepAway(p, c, 0.03f);
                continue;
            }
            const glm::vec3 dir = (p - c) / r;
            float lo = 0.0f, hi = r;  // lo: clear, hi: inside
            for (int it = 0; it < 8; ++it) {
                const float mid = 0.5f * (lo + hi);
                if (clear(c + mid * dir))
                    lo = mid;
                else
                    hi = mid;
            }
            shaped[k][v] = c + std::max(0.0006f, lo - 0.0004f) * dir;
        }
        // The muscles after it test against where its vertices are now.
        for (const glm::vec3& v : shaped[k]) {
            boxes[k].lo = glm::min(boxes[k].lo, v);
            boxes[k].hi = glm::max(boxes[k].hi, v);
        }
    }
}

double volumeOf(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles) {
    double v = 0.0;
    for (const glm::uvec3& t : triangles) {
        const glm::dvec3 a = vertices[t.x], b = vertices[t.y], c = vertices[t.z];
        v += glm::dot(a, glm::cross(b, c)) / 6.0;
    }
    return v;
}

// The centres of a loft's stations that carry a ring (poles excluded).
std::vector<glm::vec3> ringCentres(const std::vector<std::vector<AxisStation>>& chains) {
    std::vector<glm::vec3> out;
    for (const auto& ch : chains)
        for (const AxisStation& s : ch)
            if (s.b > 0.0f) out.push_back(s.c);
    return out;
}

// Packs one group and appends its members (with their final ring centres) to `all`.
void packGroup(std::vector<PackingMuscle>& muscles, const std::vector<size_t>& members,
               const std::vector<PackingCapsule>& bones, const PackingOptions& opt, std::vector<Member>& all) {
    std::vector<Member> ms(members.size());
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (size_t k = 0; k < members.size(); ++k) {
        Member& w = ms[k];
        w.muscle = members[k];
        const MeshData& m = *muscles[w.muscle].mesh;
        w.nominal = m.vertices;
        w.chains = m.chains;
        placeCentres(w, m, muscles[w.muscle].in_fascia, bones, opt);
        for (const auto& ch : w.chains)
            for (const AxisStation& s : ch) {
                const float r = std::max({s.a, s.b, kMinAxial}) * reachAt(s, opt.reach);
                lo = glm::min(lo, s.c - glm::vec3(r));
                hi = glm::max(hi, s.c + glm::vec3(r));
            }
    }
    for (Member& w : ms) w.centres = ringCentres(w.chains);
    std::vector<PackingCapsule> near_bones;
    for (const PackingCapsule& b : bones) {
        const glm::vec3 blo = glm::min(b.a, b.b) - glm::vec3(b.radius), bhi = glm::max(b.a, b.b) + glm::vec3(b.radius);
        if (glm::all(glm::lessThanEqual(blo, hi)) && glm::all(glm::lessThanEqual(lo, bhi))) near_bones.push_back(b);
    }
    Flood f;
    const glm::vec3 ext = hi - lo;
    f.g.h = std::max(opt.voxel, std::cbrt(ext.x * ext.y * ext.z / float(opt.max_voxels)));
    f.g.lo = lo - glm::vec3(2.0f * f.g.h);
    f.g.n = glm::ivec3(glm::ceil((ext + 4.0f * f.g.h) / f.g.h));
    const Grid& g = f.g;
    const float gap = std::max(opt.muscle_gap, g.h);
    f.bone.assign(g.size(), 0);
    for (const PackingCapsule& b : bones) {
        const float r = b.radius + opt.bone_gap + g.h;
        const glm::ivec3 a = glm::clamp(g.cell(glm::min(b.a, b.b) - glm::vec3(r)), glm::ivec3(0), g.n - 1);
        const glm::ivec3 c = glm::clamp(g.cell(glm::max(b.a, b.b) + glm::vec3(r)), glm::ivec3(0), g.n - 1);
        for (int z = a.z; z <= c.z; ++z)
            for (int y = a.y; y <= c.y; ++y)
                for (int x = a.x; x <= c.x; ++x)
                    if (capsuleDistance(g.centre({x, y, z}), b) < opt.bone_gap) f.bone[g.at({x, y, z})] = 1;
    }
    f.fascia.assign(g.size(), 0);
    double biggest = 0.0;
    std::vector<double> target(ms.size());
    for (size_t k = 0; k < ms.size(); ++k) {
        Member& w = ms[k];
        rasterReach(w, g, opt.reach);
        target[k] = muscles[w.muscle].target_volume > 0.0 ? muscles[w.muscle].target_volume
                                                            : volumeOf(w.nominal, muscles[w.muscle].mesh->triangles);
        double len = 0.0;
        for (const auto& ch : w.chains)
            for (size_t s = 0; s + 1 < ch.size(); ++s) len += glm::length(ch[s + 1].c - ch[s].c);
        // Fronts advance at a speed that grows with the muscle's typical
        // radius (volume over length), so a big muscle claims more ground.
        w.speed = std::sqrt(target[k] / std::max(1e-4, len));
        biggest = std::max(biggest, w.speed);
        w.quota = 1.1 * target[k] / double(g.h * g.h * g.h);
    }
    for (Member& w : ms) w.speed /= biggest;
    std::vector<std::vector<glm::vec3>> shaped(ms.size());
    for (int pass = 0; pass < opt.passes; ++pass) {
        flood(f, ms, muscles, opt, near_bones);
        for (size_t k = 0; k < ms.size(); ++k) {
            const MeshData& m = *muscles[ms[k].muscle].mesh;
            shape(f, ms[k], int16_t(k), m, opt.reach, gap, shaped[k]);
            // Two heads share no space (the volume below counts overlap twice).
            separateHeads(shaped[k], m);
            const double v = volumeOf(shaped[k], m.triangles);
            // The mesh holds less than its cells (half a gap, the rings'
            // chords): ask for more cells by the ratio still missing.
            if (v > 0.0) ms[k].quota *= std::clamp(std::pow(target[k] / v, 0.9), 0.6, 1.8);
        }
    }
    for (size_t k = 0; k < ms.size(); ++k) {
        muscles[ms[k].muscle].mesh->vertices = shaped[k];
        all.push_back(std::move(ms[k]));
    }
}

}  // namespace

double meshVolume(const MeshData& m) { return volumeOf(m.vertices, m.triangles); }

PackingResult packMuscles(std::vector<PackingMuscle>& muscles, const std::vector<PackingCapsule>& bones,
                          const PackingOptions& opt) {
    PackingResult res;
    res.volume.assign(muscles.size(), 0.0);
    std::vector<int> groups;
    for (const PackingMuscle& m : muscles)
        if (std::find(groups.begin(), groups.end(), m.group) == groups.end()) groups.push_back(m.group);
    std::sort(groups.begin(), groups.end());
    std::vector<Member> all;
    for (int grp : groups) {
        std::vector<size_t> members;
        for (size_t i = 0; i < muscles.size(); ++i)
            if (muscles[i].group == grp && !muscles[i].fixed) members.push_back(i);
        if (!members.empty()) packGroup(muscles, members, bones, opt, all);
    }
    for (size_t i = 0; i < muscles.size(); ++i) {
        if (!muscles[i].fixed) continue;
        Member w;
        w.muscle = i;
        w.chains = muscles[i].mesh->chains;
        w.centres = ringCentres(w.chains);
        all.push_back(std::move(w));
    }
    // Across groups too (an arm's biceps under the pectoralis, the two
    // adductors at the pubis); twice, since a vertex pushed clear of one
    // muscle may land in another.
    std::vector<std::vector<glm::vec3>> shaped;
    for (const Member& w : all) shaped.push_back(muscles[w.muscle].mesh->vertices);
    for (int pass = 0; pass < 2; ++pass) resolveOverlaps(all, muscles, shaped);
    for (size_t k = 0; k < all.size(); ++k) {
        MeshData& m = *muscles[all[k].muscle].mesh;
        m.vertices = shaped[k];
        res.volume[all[k].muscle] = volumeOf(m.vertices, m.triangles);
    }
    return res;
}

}  // namespace engine

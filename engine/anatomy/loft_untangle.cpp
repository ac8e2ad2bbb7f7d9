#include "engine/anatomy/loft_untangle.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

#include "engine/mesh/mesh_quality.h"
#include "sim/geometry.h"
#include "sim/mesh_topology.h"

namespace engine {
namespace {

constexpr float kWithdrawGap = 0.0005f;  // m: a ring moved out of a neighbour stops this far beyond it
constexpr float kMinRadius = 0.0007f;    // m: as packing's floor of a ring's semi-axes
constexpr float kSweepCell = 0.005f;     // m: grid of the neighbours' vertices for the sweep test
constexpr double kUntanglePi = 3.14159265358979323846;

// Solid angle of triangle abc seen from x (Van Oosterom & Strackee 1983).
double solidAngle(const glm::dvec3& x, const glm::dvec3& a0, const glm::dvec3& b0, const glm::dvec3& c0) {
    const glm::dvec3 a = a0 - x, b = b0 - x, c = c0 - x;
    const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
    const double num = glm::dot(a, glm::cross(b, c));
    const double den = la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb;
    return 2.0 * std::atan2(num, den);
}

using Station = std::pair<int, int>;  // (chain, station) of MeshData::vertex_station

// Each station's vertices, in index order (a pole: its one vertex).
std::map<Station, std::vector<uint32_t>> stationRings(const MeshData& m) {
    std::map<Station, std::vector<uint32_t>> rings;
    for (size_t v = 0; v < m.vertex_station.size(); ++v)
        if (m.vertex_station[v].x >= 0) rings[{m.vertex_station[v].x, m.vertex_station[v].y}].push_back(uint32_t(v));
    return rings;
}

glm::dvec3 centroid(const std::vector<uint32_t>& ring, const std::vector<glm::vec3>& vertices) {
    glm::dvec3 sum(0.0);
    for (uint32_t v : ring) sum += glm::dvec3(vertices[v]);
    return sum / double(ring.size());
}

// Each vertex's triangles.
std::vector<std::vector<uint32_t>> triangleFans(const MeshData& m) {
    std::vector<std::vector<uint32_t>> fan(m.vertices.size());
    for (size_t t = 0; t < m.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) fan[m.triangles[t][k]].push_back(uint32_t(t));
    return fan;
}

// The centroids of the rings (poles left out) as the vertices are now.
std::map<Station, glm::dvec3> ringCentroids(const std::map<Station, std::vector<uint32_t>>& rings,
                                            const std::vector<glm::vec3>& vertices) {
    std::map<Station, glm::dvec3> out;
    for (const auto& [station, ring] : rings)
        if (ring.size() >= 3) out[station] = centroid(ring, vertices);
    return out;
}

// The bounds of a mesh's vertices (lo, hi).
std::pair<glm::vec3, glm::vec3> boundsOf(const std::vector<glm::vec3>& vertices) {
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (const glm::vec3& p : vertices) lo = glm::min(lo, p), hi = glm::max(hi, p);
    return {lo, hi};
}

// The meshes of `from` (m itself left out) whose bounds meet m's: the only
// ones that can block a move of m or lie in it.
Obstacles meetingBounds(const MeshData& m, const Obstacles& from) {
    const auto [lo, hi] = boundsOf(m.vertices);
    Obstacles out;
    for (const MeshData* o : from.muscles) {
        if (o == &m) continue;
        const auto [olo, ohi] = boundsOf(o->vertices);
        if (glm::all(glm::lessThanEqual(olo, hi)) && glm::all(glm::lessThanEqual(lo, ohi))) out.muscles.push_back(o);
    }
    return out;
}

// p inside `m` (a point outside m's bounds [lo, hi] is not tested).
bool insideOf(glm::vec3 p, const MeshData& m, glm::vec3 lo, glm::vec3 hi) {
    if (glm::any(glm::lessThan(p, lo)) || glm::any(glm::greaterThan(p, hi))) return false;
    return sim::insideByCrossings(p, m.vertices, m.triangles);
}

// The point of m's surface nearest p, and its distance (every triangle).
std::pair<glm::vec3, float> nearestOn(const MeshData& m, glm::vec3 p) {
    std::pair<glm::vec3, float> best{p, 1e30f};
    for (const glm::uvec3& t : m.triangles) {
        sim::TriFeature f;
        const glm::vec3 c = sim::closestPointOnTriangle(p, m.vertices[t.x], m.vertices[t.y], m.vertices[t.z], f);
        const float d = glm::length(c - p);
        if (d < best.second) best = {c, d};
    }
    return best;
}

}  // namespace

void separateHeads(std::vector<glm::vec3>& vertices, const MeshData& m, float gap) {
    if (m.chains.size() != 3 || m.vertex_station.size() != vertices.size()) return;
    // Current centres of the heads' rings (packing moved them).
    const std::map<Station, glm::dvec3> centres = ringCentroids(stationRings(m), vertices);
    auto centre = [&](int c, int k) {
        auto it = centres.find({c, k});
        return it != centres.end() ? it->second : glm::dvec3(m.chains[size_t(c)][size_t(k)].c);
    };
    // Where the heads blend into the merge loop (u > 0.55, muscle_loft.cpp)
    // they meet on the merge plane: the belly's first ring's centre and width
    // axis, head A on its + side.
    auto first = centres.find({0, 0});
    if (first == centres.end()) return;
    const glm::dvec3 merge = first->second;
    const glm::dvec3 merge_n_a = glm::normalize(glm::dvec3(m.chains[0][0].e2));
    // The crotch (the one vertex on no ring) is on the seam: on the plane.
    for (size_t v = 0; v < vertices.size(); ++v)
        if (m.vertex_station[v].x < 0) {
            const glm::dvec3 p(vertices[v]);
            vertices[v] = glm::vec3(p - glm::dot(p - merge, merge_n_a) * merge_n_a);
        }
    for (size_t v = 0; v < vertices.size(); ++v) {
        const glm::ivec2 st = m.vertex_station[v];
        if (st.x < 1 || !centres.count({st.x, st.y})) continue;
        const int other = 3 - st.x;
        glm::dvec3 nrm, mid;
        if (double(st.y) / double(m.chains[size_t(st.x)].size()) > 0.55) {
            nrm = st.x == 1 ? merge_n_a : -merge_n_a;
            mid = merge;
        } else {
            // The other head's nearest ring centre; the plane halfway between.
            const glm::dvec3 own = centre(st.x, st.y);
            glm::dvec3 best(0.0);
            double bd = 1e30;
            for (int k = 0; k < int(m.chains[size_t(other)].size()); ++k) {
                if (!centres.count({other, k})) continue;
                const glm::dvec3 oc = centre(other, k);
                const double d = glm::length(oc - own);
                if (d < bd) bd = d, best = oc;
            }
            if (bd >= 1e29 || bd < 1e-9) continue;
            nrm = (own - best) / bd;
            mid = 0.5 * (own + best);
        }
        glm::dvec3 p(vertices[v]);
        const double s = glm::dot(p - mid, nrm);
        if (s < gap) p += (gap - s) * nrm;
        vertices[v] = glm::vec3(p);
    }
}

bool Obstacles::blocks(glm::vec3 p) const {
    for (const MeshData* o : muscles)
        if (sim::insideByCrossings(p, o->vertices, o->triangles)) return true;
    return false;
}

size_t untangleLoft(MeshData& m, const Obstacles& around, const Obstacles& swept, int max_rounds, float step) {
    if (m.vertex_station.size() != m.vertices.size()) return crossingPairs(m.vertices, m.triangles).size();
    // Only the neighbours whose bounds meet this mesh's can block a move.
    const auto [lo, hi] = boundsOf(m.vertices);
    const Obstacles near = meetingBounds(m, around);
    // The neighbours' vertices near this mesh: a move may not sweep this
    // mesh's surface over one of them (the winding number of a point changes
    // only through the moving vertex's fan, so this holds while the mesh
    // still crosses itself, when "inside" means nothing).
    std::map<std::tuple<int, int, int>, std::vector<glm::vec3>> points;
    auto cellOf = [](glm::vec3 p) {
        return std::make_tuple(int(std::floor(p.x / kSweepCell)), int(std::floor(p.y / kSweepCell)), int(std::floor(p.z / kSweepCell)));
    };
    for (const MeshData* o : swept.muscles) {
        if (o == &m) continue;
        for (const glm::vec3& p : o->vertices)
            if (glm::all(glm::greaterThanEqual(p, lo - glm::vec3(0.01f))) && glm::all(glm::lessThanEqual(p, hi + glm::vec3(0.01f))))
                points[cellOf(p)].push_back(p);
    }
    const std::vector<std::vector<uint32_t>> fan = triangleFans(m);
    auto sweepsOver = [&](size_t v, glm::vec3 q) {
        if (points.empty()) return false;
        const glm::vec3 p = m.vertices[v];
        glm::vec3 blo = glm::min(p, q), bhi = glm::max(p, q);
        for (uint32_t t : fan[v])
            for (int k = 0; k < 3; ++k) blo = glm::min(blo, m.vertices[m.triangles[t][k]]), bhi = glm::max(bhi, m.vertices[m.triangles[t][k]]);
        const auto [x0, y0, z0] = cellOf(blo);
        const auto [x1, y1, z1] = cellOf(bhi);
        for (int x = x0; x <= x1; ++x)
            for (int y = y0; y <= y1; ++y)
                for (int z = z0; z <= z1; ++z) {
                    auto it = points.find({x, y, z});
                    if (it == points.end()) continue;
                    for (const glm::vec3& pt : it->second) {
                        double before = 0.0, after = 0.0;
                        for (uint32_t t : fan[v]) {
                            glm::dvec3 c[3];
                            for (int k = 0; k < 3; ++k) c[k] = m.vertices[m.triangles[t][k]];
                            before += solidAngle(pt, c[0], c[1], c[2]);
                            for (int k = 0; k < 3; ++k)
                                if (m.triangles[t][k] == v) c[k] = q;
                            after += solidAngle(pt, c[0], c[1], c[2]);
                        }
                        if (std::fabs(after - before) > 2.0 * kUntanglePi) return true;  // winding changed by 1
                    }
                }
        return false;
    };
    const std::map<Station, std::vector<uint32_t>> rings = stationRings(m);
    std::vector<glm::dvec3> mean(m.vertices.size());
    std::vector<int> count(m.vertices.size());
    for (int round = 0;; ++round) {
        const auto pairs = crossingPairs(m.vertices, m.triangles);
        if (pairs.empty() || round == max_rounds) return pairs.size();
        // Centroids of the rings as they are now (packing moved the centres).
        const std::map<Station, glm::dvec3> centres = ringCentroids(rings, m.vertices);
        std::fill(mean.begin(), mean.end(), glm::dvec3(0.0));
        std::fill(count.begin(), count.end(), 0);
        for (const glm::uvec3& t : m.triangles)
            for (int k = 0; k < 3; ++k) {
                mean[t[k]] += glm::dvec3(m.vertices[t[(k + 1) % 3]]);
                ++count[t[k]];
            }
        // The corners of the crossing triangles and their neighbours, so a
        // fold is smoothed out, not pinched.
        std::vector<char> corner(m.vertices.size(), 0);
        for (const auto& [a, b] : pairs)
            for (uint32_t t : {a, b})
                for (int k = 0; k < 3; ++k) corner[m.triangles[t][k]] = 1;
        std::vector<char> moves = corner;
        for (const glm::uvec3& t : m.triangles)
            if (corner[t.x] || corner[t.y] || corner[t.z]) moves[t.x] = moves[t.y] = moves[t.z] = 1;
        for (size_t v = 0; v < m.vertices.size(); ++v) {
            const glm::ivec2 st = m.vertex_station[v];
            if (!moves[v] || st.x < 0) continue;
            auto ring_centre = centres.find({st.x, st.y});
            if (ring_centre == centres.end()) continue;  // a pole: attached, stays
            const glm::vec3 p = m.vertices[v];
            // Towards the mean of its neighbours; where that enters a
            // neighbour or sweeps over one's vertex, towards its ring's
            // centre instead (inside what the muscle held).
            const glm::vec3 smooth = p + step * (glm::vec3(mean[v] / double(count[v])) - p);
            if ((!near.blocks(smooth) || near.blocks(p)) && !sweepsOver(v, smooth)) {
                m.vertices[v] = smooth;
                continue;
            }
            // Never onto the centre: a ring pulled to a point would weld.
            const glm::vec3 c(ring_centre->second);
            const glm::vec3 inward = p + step * (c - p);
            if (glm::length(p - c) > kMinRadius && !sweepsOver(v, inward)) m.vertices[v] = inward;
        }
    }
}

size_t withdrawFrom(MeshData& m, const Obstacles& around) {
    if (m.vertex_station.size() != m.vertices.size()) return 0;
    const std::map<Station, std::vector<uint32_t>> rings = stationRings(m);
    std::vector<std::pair<glm::vec3, glm::vec3>> bounds;
    for (const MeshData* o : around.muscles) bounds.push_back(boundsOf(o->vertices));
    size_t moved = 0;
    std::map<Station, glm::vec3> shifts;
    for (const auto& [station, ring] : rings) {
        if (ring.size() < 3) continue;  // a pole: attached, stays
        // The ring moves whole (its shape kept, so it folds with nothing),
        // out of each neighbour it is in by its deepest vertex's depth
        // along that vertex's nearest face's normal, a gap beyond.
        for (size_t o = 0; o < around.muscles.size(); ++o) {
            const MeshData* other = around.muscles[o];
            if (other == &m) continue;
            Obstacles one;
            one.muscles = {other};
            glm::vec3 shift(0.0f);
            float deepest = 0.0f;
            for (uint32_t v : ring) {
                const glm::vec3 p = m.vertices[v];
                if (glm::any(glm::lessThan(p, bounds[o].first)) || glm::any(glm::greaterThan(p, bounds[o].second)) || !one.blocks(p))
                    continue;
                float bd = 1e30f;
                glm::vec3 normal(0.0f);
                for (const glm::uvec3& t : other->triangles) {
                    const glm::vec3 ta = other->vertices[t.x], tb = other->vertices[t.y], tc = other->vertices[t.z];
                    sim::TriFeature feat;
                    const float d = glm::length(sim::closestPointOnTriangle(p, ta, tb, tc, feat) - p);
                    const glm::vec3 n = glm::cross(tb - ta, tc - ta);
                    if (d < bd && glm::length(n) > 1e-12f) bd = d, normal = glm::normalize(n);
                }
                if (bd < 1e29f && bd > deepest) deepest = bd, shift = (bd + kWithdrawGap) * normal;
            }
            if (deepest <= 0.0f) continue;
            // The rings beside it follow part of the way, so the tube bends
            // instead of kinking (a ring moved alone twisted its strips).
            for (int dk = -2; dk <= 2; ++dk) {
                const glm::vec3 part = shift * (dk == 0 ? 1.0f : std::abs(dk) == 1 ? 0.5f : 0.25f);
                glm::vec3& want = shifts[{station.first, station.second + dk}];
                if (glm::length(part) > glm::length(want)) want = part;
            }
            ++moved;
        }
    }
    for (const auto& [station, shift] : shifts) {
        auto it = rings.find(station);
        if (it == rings.end() || it->second.size() < 3) continue;
        for (uint32_t v : it->second) m.vertices[v] += shift;
    }
    return moved;
}

float deepestInside(const MeshData& a, const MeshData& b) {
    const auto [lo, hi] = boundsOf(b.vertices);
    float deepest = 0.0f;
    for (const glm::vec3& p : a.vertices)
        if (insideOf(p, b, lo, hi)) deepest = std::max(deepest, nearestOn(b, p).second);
    return deepest;
}

size_t stepOutOf(MeshData& o, const MeshData& m, float gap) {
    const auto [lo, hi] = boundsOf(m.vertices);
    size_t moved = 0;
    for (glm::vec3& p : o.vertices) {
        if (!insideOf(p, m, lo, hi)) continue;
        const auto [nearest, d] = nearestOn(m, p);
        if (d <= 0.0f || d > 1e29f) continue;
        p = nearest + gap * (nearest - p) / d;  // out through the nearest face
        ++moved;
    }
    return moved;
}

bool untangleIfClear(MeshData& m, const Obstacles& around, const Obstacles& swept, float bar,
                     const std::vector<MeshData*>& yielding) {
    if (crossingPairs(m.vertices, m.triangles).empty()) return false;
    const Obstacles clean = meetingBounds(m, around);  // m's vertices can be tested inside these
    const Obstacles every = meetingBounds(m, swept);   // their vertices can be tested inside m once m is clean
    auto inClean = [&] {
        float d = 0.0f;
        for (const MeshData* o : clean.muscles) d = std::max(d, deepestInside(m, *o));
        return d;
    };
    // Where it lay before (its own vertices in each clean neighbour: a
    // neighbour's vertices inside it are not known while it crosses itself).
    const float was = inClean();
    const std::vector<glm::vec3> kept = m.vertices;
    const double volume = sim::signedVolume(m.vertices, m.triangles);
    // Smoothing a fold takes some volume (T7: up to 14 %), never a seventh.
    constexpr double kKeptVolume = 0.85;
    auto attempt = [&](const Obstacles& guard, const Obstacles& sweep) {
        size_t left = untangleLoft(m, guard, sweep);
        // A vertex the smoothing could not take outward steps towards its
        // ring's centre, which can carry it into a neighbour: those rings
        // move out whole (withdrawFrom) and the mesh is smoothed again.
        for (int pass = 0; pass < 6 && left == 0 && inClean() > bar; ++pass) {
            withdrawFrom(m, clean);
            left = untangleLoft(m, guard, sweep);
        }
        if (left != 0 || inClean() > std::max(bar, was) || sim::signedVolume(m.vertices, m.triangles) < kKeptVolume * volume)
            return false;
        // The fold hid what a neighbour had in it (a smoothing that sweeps
        // over no vertex finds only what was inside the fold's tangle): a
        // clean neighbour that may yield steps out through the smoothed
        // surface where it lies deeper than the bar, if it stays clean and
        // goes no deeper into its own neighbours than it lay.
        std::vector<std::pair<MeshData*, std::vector<glm::vec3>>> moved;
        bool clear = true;
        for (const MeshData* o : every.muscles) {
            if (o == &m || deepestInside(*o, m) <= bar) continue;
            auto it = std::find(yielding.begin(), yielding.end(), o);
            if (it == yielding.end()) {
                clear = false;
                break;
            }
            MeshData& y = **it;
            const Obstacles beside = meetingBounds(y, around);
            auto deepestBeside = [&] {
                float d = 0.0f;
                for (const MeshData* b : beside.muscles)
                    if (b != &y && b != &m) d = std::max(d, deepestInside(y, *b));
                return d;
            };
            const float y_was = deepestBeside();
            moved.emplace_back(&y, y.vertices);
            stepOutOf(y, m, kWithdrawGap);
            if (!crossingPairs(y.vertices, y.triangles).empty() || deepestBeside() > std::max(bar, y_was) ||
                deepestInside(y, m) > bar) {
                clear = false;
                break;
            }
        }
        if (!clear)
            for (auto& [y, vertices] : moved) y->vertices = std::move(vertices);
        return clear;
    };
    // First guarded move by move; where the guards stall the smoothing, free
    // (the result is judged the same way: what it then lies in or holds).
    if (attempt(around, swept)) return true;
    m.vertices = kept;
    if (attempt(Obstacles{}, Obstacles{})) return true;
    m.vertices = kept;
    return false;
}

size_t liftFlatTriangles(MeshData& m, float min_angle_deg) {
    auto& x = m.vertices;
    const double min_rad = double(min_angle_deg) * kUntanglePi / 180.0;
    auto angleAt = [&](uint32_t a, uint32_t b, uint32_t c) {  // at a, in triangle (a, b, c)
        const glm::dvec3 u = glm::dvec3(x[b]) - glm::dvec3(x[a]), v = glm::dvec3(x[c]) - glm::dvec3(x[a]);
        const double lu = glm::length(u), lv = glm::length(v);
        if (lu <= 0.0 || lv <= 0.0) return 0.0;
        return std::acos(std::clamp(glm::dot(u, v) / (lu * lv), -1.0, 1.0));
    };
    const std::vector<std::vector<uint32_t>> fan = triangleFans(m);
    size_t moved = 0;
    for (size_t t = 0; t < m.triangles.size(); ++t) {
        const glm::uvec3 tri = m.triangles[t];
        double ang[3], smallest = 10.0;
        int big = 0;
        for (int k = 0; k < 3; ++k) {
            ang[k] = angleAt(tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
            smallest = std::min(smallest, ang[k]);
            if (ang[k] > ang[big]) big = k;
        }
        if (smallest >= min_rad || ang[big] < 170.0 * kUntanglePi / 180.0) continue;
        const uint32_t v = tri[big];
        // The fan's normal without the flat triangle (its own is undefined).
        glm::dvec3 n(0.0);
        for (uint32_t f : fan[v]) {
            if (f == t) continue;
            const glm::uvec3& g = m.triangles[f];
            n += glm::cross(glm::dvec3(x[g.y]) - glm::dvec3(x[g.x]), glm::dvec3(x[g.z]) - glm::dvec3(x[g.x]));
        }
        if (glm::length(n) <= 0.0) continue;
        n = glm::normalize(n);
        // The lift that makes the angle at the far end of the longer edge
        // from v the bound, twice over.
        const double reach = std::max(glm::length(glm::dvec3(x[tri[(big + 1) % 3]]) - glm::dvec3(x[v])),
                                      glm::length(glm::dvec3(x[tri[(big + 2) % 3]]) - glm::dvec3(x[v])));
        const double lift = std::min(0.0005, 2.0 * std::tan(min_rad) * reach);
        const size_t before = crossingPairs(x, m.triangles).size();
        const glm::vec3 was = x[v];
        x[v] = glm::vec3(glm::dvec3(was) + lift * n);
        if (crossingPairs(x, m.triangles).size() > before) {
            x[v] = was;
            continue;
        }
        ++moved;
    }
    return moved;
}

size_t widenNeedles(MeshData& m, float min_angle_deg, int max_rounds) {
    auto& x = m.vertices;
    auto smallestAngle = [&](const glm::uvec3& t) { return triangleMinAngle(x[t.x], x[t.y], x[t.z]); };
    const std::vector<std::vector<uint32_t>> fan = triangleFans(m);
    auto fanSmallest = [&](uint32_t v) {
        double s = 180.0;
        for (uint32_t f : fan[v]) s = std::min(s, smallestAngle(m.triangles[f]));
        return s;
    };
    size_t pairs = crossingPairs(x, m.triangles).size();
    size_t moved = 0;
    for (int round = 0; round < max_rounds; ++round) {
        size_t this_round = 0;
        for (size_t t = 0; t < m.triangles.size(); ++t) {
            const glm::uvec3 tri = m.triangles[t];
            if (smallestAngle(tri) >= min_angle_deg) continue;
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = tri[k];
                if (m.vertex_station.size() == x.size() && m.vertex_station[v].x < 0) continue;  // a pole: attached
                // Half way to the mean of its ring-1 neighbours (a needle's
                // two near vertices part along the surface), kept only where
                // its fan's thinnest angle grows and nothing new crosses.
                glm::dvec3 mean(0.0);
                int count = 0;
                for (uint32_t f : fan[v])
                    for (int j = 0; j < 3; ++j)
                        if (m.triangles[f][j] != v) mean += glm::dvec3(x[m.triangles[f][j]]), ++count;
                if (count == 0) continue;
                const double before_angle = fanSmallest(v);
                const glm::vec3 was = x[v];
                x[v] = glm::vec3(glm::dvec3(was) + 0.5 * (mean / double(count) - glm::dvec3(was)));
                bool keep = fanSmallest(v) > before_angle;
                size_t now_pairs = pairs;
                if (keep) now_pairs = crossingPairs(x, m.triangles).size(), keep = now_pairs <= pairs;
                if (!keep) {
                    x[v] = was;
                    continue;
                }
                pairs = now_pairs;  // the count as it stands, not recounted before each move
                ++this_round;
                if (smallestAngle(tri) >= min_angle_deg) break;
            }
        }
        moved += this_round;
        if (this_round == 0) break;
    }
    return moved;
}

}  // namespace engine

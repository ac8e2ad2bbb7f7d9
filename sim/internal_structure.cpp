#include "sim/internal_structure.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <queue>
#include <sstream>
#include <tuple>

#include <glm/geometric.hpp>

#include "sim/mesh_topology.h"

namespace sim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Components smaller than this, beside a bigger one on the same level, are
// noise of the discrete u field (a lone vertex on a ridge), not a real head.
constexpr size_t kMinComponentVertices = 3;

glm::vec3 safeNormalize(glm::vec3 v, glm::vec3 fallback) {
    const float len = glm::length(v);
    return len > 1e-20f ? v / len : fallback;
}

// Small union-find over local indices.
struct UnionFind {
    std::vector<uint32_t> parent;
    void reset(size_t n) {
        parent.resize(n);
        std::iota(parent.begin(), parent.end(), 0u);
    }
    uint32_t find(uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void unite(uint32_t a, uint32_t b) {
        a = find(a);
        b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);  // smallest root: order-independent
    }
};

// Multi-source Dijkstra over the edge graph, edge weight = rest length. Ties
// in the queue break on the vertex index, so the result never depends on
// container internals.
std::vector<double> geodesicDistance(const Adjacency& adj, const std::vector<glm::vec3>& v,
                                     const std::vector<uint32_t>& sources) {
    std::vector<double> d(v.size(), kInf);
    using Item = std::pair<double, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (uint32_t s : sources) {
        if (d[s] != 0.0) queue.push({0.0, s});
        d[s] = 0.0;
    }
    while (!queue.empty()) {
        const auto [dist, a] = queue.top();
        queue.pop();
        if (dist > d[a]) continue;
        for (uint32_t k = adj.offset[a]; k < adj.offset[a + 1]; ++k) {
            const uint32_t b = adj.index[k];
            const double nd = dist + glm::length(glm::dvec3(v[a]) - glm::dvec3(v[b]));
            if (nd < d[b]) {
                d[b] = nd;
                queue.push({nd, b});
            }
        }
    }
    return d;
}

std::string validateRoots(const std::vector<std::vector<uint32_t>>& sets, const char* kind, size_t n,
                          std::vector<uint32_t>& flat) {
    if (sets.empty()) return std::string("no ") + kind + " root set given";
    for (size_t s = 0; s < sets.size(); ++s) {
        if (sets[s].empty()) return std::string(kind) + " root set " + std::to_string(s) + " is empty";
        for (uint32_t i : sets[s]) {
            if (i >= n) {
                std::ostringstream msg;
                msg << kind << " root set " << s << " names vertex " << i << " but the mesh has " << n
                    << " vertices";
                return msg.str();
            }
            flat.push_back(i);
        }
    }
    std::sort(flat.begin(), flat.end());
    flat.erase(std::unique(flat.begin(), flat.end()), flat.end());
    return {};
}

// Connected components of each u-level band, computed on the piecewise-linear
// surface rather than on the vertex graph: a band about one edge wide often
// has no edge between two of its vertices even though the band itself is an
// unbroken ring through the triangles. The band's part of a triangle is
// convex (a slab cut of a triangle), so two triangles' parts meet exactly
// when their shared edge's u-range overlaps the band.
// Components are numbered by level, then by their lowest vertex index.
//
// Each component also gets the centroid of its part of the iso-contour
// u = (level + ½)/K. With bands about one ring wide, jitter puts part of a
// ring's vertices in the next band, and a vertex centroid is then pulled off
// the axis; the contour is a whole closed loop whatever the vertices do.
struct Bands {
    std::vector<uint32_t> vertex_comp;
    std::vector<int> comp_level;
    std::vector<glm::dvec3> contour_sum;  // Σ segment length · segment midpoint
    std::vector<double> contour_len;
};

Bands bandComponents(const std::vector<glm::vec3>& verts, const std::vector<glm::uvec3>& tris,
                     const std::vector<float>& u, const std::vector<int>& level, int K) {
    const size_t n = level.size();
    Bands out;
    std::vector<int>& comp_level = out.comp_level;
    // Triangle neighbours across edges, via sorted half-edges.
    struct Half {
        uint32_t lo, hi, tri;
        bool operator<(const Half& o) const { return std::tie(lo, hi, tri) < std::tie(o.lo, o.hi, o.tri); }
    };
    std::vector<Half> half;
    half.reserve(tris.size() * 3);
    for (uint32_t t = 0; t < tris.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = tris[t][k], b = tris[t][(k + 1) % 3];
            half.push_back({std::min(a, b), std::max(a, b), t});
        }
    std::sort(half.begin(), half.end());

    std::vector<std::vector<uint32_t>> tris_of_level(static_cast<size_t>(K));
    std::vector<uint32_t> some_tri(n, UINT32_MAX);
    for (uint32_t t = 0; t < tris.size(); ++t) {
        int lo = K, hi = -1;
        for (int k = 0; k < 3; ++k) {
            lo = std::min(lo, level[tris[t][k]]);
            hi = std::max(hi, level[tris[t][k]]);
            if (some_tri[tris[t][k]] == UINT32_MAX) some_tri[tris[t][k]] = t;
        }
        for (int l = lo; l <= hi; ++l) tris_of_level[static_cast<size_t>(l)].push_back(t);
    }
    // Edges (runs of half-edges with the same end points) by the levels they span.
    std::vector<uint32_t> group_start;
    std::vector<std::vector<uint32_t>> groups_of_level(static_cast<size_t>(K));
    for (size_t i = 0; i < half.size();) {
        size_t j = i;
        while (j < half.size() && half[j].lo == half[i].lo && half[j].hi == half[i].hi) ++j;
        const int la = level[half[i].lo], lb = level[half[i].hi];
        for (int l = std::min(la, lb); l <= std::max(la, lb); ++l)
            groups_of_level[static_cast<size_t>(l)].push_back(static_cast<uint32_t>(group_start.size()));
        group_start.push_back(static_cast<uint32_t>(i));
        i = j;
    }
    group_start.push_back(static_cast<uint32_t>(half.size()));
    std::vector<std::vector<uint32_t>> verts_of_level(static_cast<size_t>(K));
    for (uint32_t i = 0; i < n; ++i) verts_of_level[static_cast<size_t>(level[i])].push_back(i);

    std::vector<uint32_t> local(tris.size(), 0);
    std::vector<uint32_t>& comp = out.vertex_comp;
    comp.assign(n, UINT32_MAX);
    UnionFind uf;
    for (int l = 0; l < K; ++l) {
        const auto& tl = tris_of_level[static_cast<size_t>(l)];
        uf.reset(tl.size());
        for (uint32_t k = 0; k < tl.size(); ++k) local[tl[k]] = k;
        for (uint32_t g : groups_of_level[static_cast<size_t>(l)])
            for (uint32_t k = group_start[g] + 1; k < group_start[g + 1]; ++k)
                uf.unite(local[half[group_start[g]].tri], local[half[k].tri]);
        // Number the components met by this level's vertices, lowest vertex first.
        std::vector<uint32_t> id_of_root(tl.size(), UINT32_MAX);
        for (uint32_t v : verts_of_level[static_cast<size_t>(l)]) {
            if (some_tri[v] == UINT32_MAX) continue;  // isolated vertex: rejected earlier
            const uint32_t root = uf.find(local[some_tri[v]]);
            if (id_of_root[root] == UINT32_MAX) {
                id_of_root[root] = static_cast<uint32_t>(comp_level.size());
                comp_level.push_back(l);
            }
            comp[v] = id_of_root[root];
        }
        out.contour_sum.resize(comp_level.size(), glm::dvec3(0));
        out.contour_len.resize(comp_level.size(), 0.0);
        const double mid = (static_cast<double>(l) + 0.5) / static_cast<double>(K);
        for (uint32_t t : tl) {
            const uint32_t c = id_of_root[uf.find(local[t])];
            if (c == UINT32_MAX) continue;  // a band piece without vertices has no branch point
            glm::dvec3 cross[2];
            int found = 0;
            for (int k = 0; k < 3 && found < 2; ++k) {
                const uint32_t a = tris[t][k], b = tris[t][(k + 1) % 3];
                const double ua = u[a], ub = u[b];
                if ((ua >= mid) == (ub >= mid)) continue;
                const double f = (mid - ua) / (ub - ua);
                cross[found++] = glm::dvec3(verts[a]) + f * (glm::dvec3(verts[b]) - glm::dvec3(verts[a]));
            }
            if (found < 2) continue;
            const double len = glm::length(cross[1] - cross[0]);
            out.contour_sum[c] += len * 0.5 * (cross[0] + cross[1]);
            out.contour_len[c] += len;
        }
    }
    return out;
}

using Link = std::pair<uint32_t, uint32_t>;  // (lower, upper) branch points

// Triangles index real vertices, the root sets are valid and disjoint; fills
// the sorted, de-duplicated root vertices.
std::string validateInput(size_t n, const std::vector<glm::uvec3>& triangles,
                          const std::vector<std::vector<uint32_t>>& origin_sets,
                          const std::vector<std::vector<uint32_t>>& insertion_sets, std::vector<uint32_t>& origins,
                          std::vector<uint32_t>& insertions) {
    if (n == 0 || triangles.empty()) return "internal structure: the mesh is empty";
    for (size_t t = 0; t < triangles.size(); ++t)
        for (int k = 0; k < 3; ++k)
            if (triangles[t][k] >= n)
                return "internal structure: triangle " + std::to_string(t) + " uses vertex " +
                       std::to_string(triangles[t][k]) + " out of range";

    if (std::string e = validateRoots(origin_sets, "origin", n, origins); !e.empty()) return "internal structure: " + e;
    if (std::string e = validateRoots(insertion_sets, "insertion", n, insertions); !e.empty())
        return "internal structure: " + e;
    std::vector<uint32_t> both;
    std::set_intersection(origins.begin(), origins.end(), insertions.begin(), insertions.end(),
                          std::back_inserter(both));
    if (!both.empty())
        return "internal structure: vertex " + std::to_string(both[0]) +
               " is in both an origin and an insertion root set";
    return {};
}

// u = d_origin / (d_origin + d_insertion) per vertex; an error if a vertex
// cannot reach either root set.
std::string scalarField(const std::vector<double>& d_o, const std::vector<double>& d_i, std::vector<float>& u) {
    const size_t n = d_o.size();
    for (uint32_t v = 0; v < n; ++v) {
        if (d_o[v] == kInf || d_i[v] == kInf)
            return "internal structure: vertex " + std::to_string(v) + " cannot reach " +
                   (d_o[v] == kInf ? "an origin" : "an insertion") +
                   " root over the mesh edges (is the mesh disconnected?)";
    }
    u.resize(n);
    for (size_t v = 0; v < n; ++v) u[v] = static_cast<float>(d_o[v] / (d_o[v] + d_i[v]));
    return {};
}

double meanEdgeLength(const std::vector<glm::vec3>& vertices, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
    double mean_edge = 0.0;
    for (const auto& [a, b] : edges) mean_edge += glm::length(glm::dvec3(vertices[a]) - glm::dvec3(vertices[b]));
    mean_edge /= static_cast<double>(edges.size());
    return mean_edge;
}

// About one level band per mean edge along the shortest geodesic origin →
// insertion, and never fewer than 4.
int levelCount(const std::vector<double>& d_o, const std::vector<uint32_t>& insertions, double mean_edge) {
    double length = kInf;  // shortest geodesic origin → insertion
    for (uint32_t i : insertions) length = std::min(length, d_o[i]);
    return std::max(4, static_cast<int>(std::lround(length / std::max(mean_edge, 1e-12))));
}

// Fold tiny side components into the neighbour component nearest in level.
void foldTinyComponents(Bands& bands, const Adjacency& adj, int K) {
    std::vector<uint32_t>& comp = bands.vertex_comp;
    std::vector<int>& comp_level = bands.comp_level;
    const size_t n = comp.size();
    const size_t C = comp_level.size();
    std::vector<size_t> size(C, 0);
    for (uint32_t c : comp) ++size[c];
    std::vector<size_t> level_max(static_cast<size_t>(K), 0);
    for (size_t c = 0; c < C; ++c)
        level_max[static_cast<size_t>(comp_level[c])] = std::max(level_max[static_cast<size_t>(comp_level[c])], size[c]);
    std::vector<uint32_t> target(C);
    std::iota(target.begin(), target.end(), 0u);
    std::vector<int> best_gap(C, std::numeric_limits<int>::max());
    for (uint32_t v = 0; v < n; ++v) {
        const uint32_t c = comp[v];
        if (size[c] >= kMinComponentVertices || size[c] == level_max[static_cast<size_t>(comp_level[c])]) continue;
        for (uint32_t k = adj.offset[v]; k < adj.offset[v + 1]; ++k) {
            const uint32_t c2 = comp[adj.index[k]];
            if (c2 == c || size[c2] < kMinComponentVertices) continue;
            const int gap = std::abs(comp_level[c2] - comp_level[c]);
            if (gap < best_gap[c] || (gap == best_gap[c] && c2 < target[c])) {
                best_gap[c] = gap;
                target[c] = c2;
            }
        }
    }
    // Renumber the surviving components densely, keeping their order.
    std::vector<uint32_t> dense(C, UINT32_MAX);
    std::vector<int> kept_level;
    size_t kept = 0;
    for (size_t c = 0; c < C; ++c)
        if (target[c] == c) {
            dense[c] = static_cast<uint32_t>(kept_level.size());
            kept_level.push_back(comp_level[c]);
            bands.contour_sum[kept] = bands.contour_sum[c];
            bands.contour_len[kept] = bands.contour_len[c];
            ++kept;
        }
    for (uint32_t& c : comp) c = dense[target[c]];
    comp_level = std::move(kept_level);
}

// Contour centroid where the band has a contour of some length, else
// the vertex centroid (a band whose vertices all sit on one side of
// its mid value).
std::vector<glm::vec3> branchPositions(const std::vector<glm::vec3>& vertices, const Bands& bands, double mean_edge) {
    const std::vector<uint32_t>& comp = bands.vertex_comp;
    const size_t n = comp.size();
    const size_t C = bands.comp_level.size();
    std::vector<glm::dvec3> sum(C, glm::dvec3(0));
    std::vector<double> count(C, 0.0);
    for (size_t v = 0; v < n; ++v) {
        sum[comp[v]] += glm::dvec3(vertices[v]);
        count[comp[v]] += 1.0;
    }
    std::vector<glm::vec3> positions(C);
    for (size_t c = 0; c < C; ++c)
        positions[c] = bands.contour_len[c] > 1e-9 * mean_edge
                           ? glm::vec3(bands.contour_sum[c] / bands.contour_len[c])
                           : glm::vec3(sum[c] / count[c]);
    return positions;
}

// For each level, the next level above it that has a component (-1 if none).
std::vector<int> nextUsedLevel(const std::vector<int>& comp_level, int K) {
    std::vector<int> next_level(static_cast<size_t>(K), -1);
    std::vector<char> used(static_cast<size_t>(K), 0);
    for (int l : comp_level) used[static_cast<size_t>(l)] = 1;
    int next = -1;
    for (int l = K - 1; l >= 0; --l) {
        next_level[static_cast<size_t>(l)] = next;
        if (used[static_cast<size_t>(l)]) next = l;
    }
    return next_level;
}

// Pairs of components on different levels joined by a mesh edge, sorted and unique.
std::vector<Link> touchingComponents(const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                                     const std::vector<uint32_t>& comp, const std::vector<int>& comp_level) {
    std::vector<Link> touching;  // (lower, upper) component pairs
    for (const auto& [a, b] : edges) {
        uint32_t ca = comp[a], cb = comp[b];
        if (ca == cb || comp_level[ca] == comp_level[cb]) continue;
        if (comp_level[ca] > comp_level[cb]) std::swap(ca, cb);
        touching.emplace_back(ca, cb);
    }
    std::sort(touching.begin(), touching.end());
    touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
    return touching;
}

// Link components of consecutive non-empty levels that touch through a
// mesh edge; components left without a link upwards (or downwards) are
// linked to the nearest level they do touch.
std::vector<Link> linkAlongLevels(const std::vector<Link>& touching, const std::vector<int>& comp_level, int K) {
    const size_t C = comp_level.size();
    const std::vector<int> next_level = nextUsedLevel(comp_level, K);
    std::vector<Link> links;
    std::vector<int> nearest_up(C, std::numeric_limits<int>::max()), nearest_down(C, -1);
    for (const auto& [lo, hi] : touching) {
        if (comp_level[hi] == next_level[static_cast<size_t>(comp_level[lo])]) links.emplace_back(lo, hi);
        nearest_up[lo] = std::min(nearest_up[lo], comp_level[hi]);
        nearest_down[hi] = std::max(nearest_down[hi], comp_level[lo]);
    }
    std::vector<char> has_up(C, 0), has_down(C, 0);
    for (const auto& [lo, hi] : links) has_up[lo] = has_down[hi] = 1;
    for (const auto& [lo, hi] : touching) {
        if ((!has_up[lo] && comp_level[hi] == nearest_up[lo]) || (!has_down[hi] && comp_level[lo] == nearest_down[hi]))
            links.emplace_back(lo, hi);
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
}

bool isConnected(const std::vector<Link>& links, size_t C) {
    UnionFind uf;
    uf.reset(C);
    for (const auto& [a, b] : links) uf.unite(a, b);
    for (uint32_t c = 0; c < C; ++c)
        if (uf.find(c) != 0) return false;
    return true;
}

// The medulla as neighbour lists: each branch point's links down and up.
struct Chain {
    std::vector<std::vector<uint32_t>> lower, upper;
};

Chain chainOf(const std::vector<Link>& links, size_t C) {
    Chain chain{std::vector<std::vector<uint32_t>>(C), std::vector<std::vector<uint32_t>>(C)};
    for (const auto& [lo, hi] : links) {
        chain.upper[lo].push_back(hi);
        chain.lower[hi].push_back(lo);
    }
    return chain;
}

// Unit direction from the origin roots' centroid to the insertion roots'
// centroid: the tangent of last resort.
glm::vec3 overallDirection(const std::vector<glm::vec3>& vertices, const std::vector<uint32_t>& origins,
                           const std::vector<uint32_t>& insertions) {
    glm::dvec3 oc(0), ic(0);
    for (uint32_t i : origins) oc += glm::dvec3(vertices[i]);
    for (uint32_t i : insertions) ic += glm::dvec3(vertices[i]);
    return safeNormalize(
        glm::vec3(ic / static_cast<double>(insertions.size()) - oc / static_cast<double>(origins.size())), {1, 0, 0});
}

// Differences along the chain over up to kStencil hops each way, so that
// centroid noise on irregular meshes (and at the tips, where levels are
// close together) averages out. Each hop distance contributes one unit
// direction to the mean of its frontier, so at a merge (split) the two
// incoming (outgoing) chains count equally.
constexpr int kStencil = 3;

glm::vec3 frontierDirections(const std::vector<glm::vec3>& bp, uint32_t c,
                             const std::vector<std::vector<uint32_t>>& next, float sign) {
    glm::vec3 sum(0);
    int count = 0;
    std::vector<uint32_t> frontier{c}, following;
    for (int hop = 0; hop < kStencil; ++hop) {
        following.clear();
        for (uint32_t f : frontier) following.insert(following.end(), next[f].begin(), next[f].end());
        std::sort(following.begin(), following.end());
        following.erase(std::unique(following.begin(), following.end()), following.end());
        if (following.empty()) break;
        glm::vec3 mean(0);
        for (uint32_t f : following) mean += bp[f];
        mean /= static_cast<float>(following.size());
        sum += safeNormalize(sign * (mean - bp[c]), glm::vec3(0));
        ++count;
        frontier.swap(following);
    }
    return count > 0 ? sum / static_cast<float>(count) : glm::vec3(0);
}

std::vector<glm::vec3> branchTangents(const std::vector<glm::vec3>& bp, const Chain& chain, glm::vec3 overall) {
    const size_t C = bp.size();
    std::vector<glm::vec3> tangent(C);
    for (uint32_t c = 0; c < C; ++c)
        tangent[c] = safeNormalize(frontierDirections(bp, c, chain.lower, -1.0f) +
                                       frontierDirections(bp, c, chain.upper, 1.0f),
                                   overall);
    // One light smoothing pass along the chain.
    std::vector<glm::vec3> smooth(C);
    for (size_t c = 0; c < C; ++c) {
        glm::vec3 s = 2.0f * tangent[c];
        for (uint32_t l : chain.lower[c]) s += tangent[l] / static_cast<float>(chain.lower[c].size());
        for (uint32_t u : chain.upper[c]) s += tangent[u] / static_cast<float>(chain.upper[c].size());
        smooth[c] = safeNormalize(s, tangent[c]);
    }
    return smooth;
}

// A vertex takes its branch point's tangent, blended towards the next
// branch point up or down by its position inside the level band so the
// field has no steps between levels. (The pure surface gradient of u is
// wrong near rounded tips, where meridians run almost across the axis.)
std::vector<glm::vec3> vertexFibres(const InternalStructure& structure, const Chain& chain) {
    const std::vector<float>& u = structure.u;
    const std::vector<uint32_t>& comp = structure.vertex_branch;
    const std::vector<int>& comp_level = structure.branch_level;
    const std::vector<glm::vec3>& tangent = structure.branch_tangent;
    const int K = structure.levels;
    const size_t n = u.size();
    std::vector<glm::vec3> fibre(n);
    for (size_t v = 0; v < n; ++v) {
        const uint32_t c = comp[v];
        const float s = std::clamp(u[v] * static_cast<float>(K) - (static_cast<float>(comp_level[c]) + 0.5f), -0.5f, 0.5f);
        const auto& nb = s >= 0.0f ? chain.upper[c] : chain.lower[c];
        glm::vec3 f = tangent[c];
        if (!nb.empty()) {
            glm::vec3 t_nb(0);
            for (uint32_t b : nb) t_nb += tangent[b];
            t_nb = safeNormalize(t_nb, tangent[c]);
            f = safeNormalize((1.0f - std::abs(s)) * tangent[c] + std::abs(s) * t_nb, tangent[c]);
        }
        fibre[v] = f;
    }
    return fibre;
}

}  // namespace

std::string buildInternalStructure(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles,
                                   const std::vector<std::vector<uint32_t>>& origin_sets,
                                   const std::vector<std::vector<uint32_t>>& insertion_sets, InternalStructure& out) {
    out = {};
    const size_t n = vertices.size();
    std::vector<uint32_t> origins, insertions;
    if (std::string e = validateInput(n, triangles, origin_sets, insertion_sets, origins, insertions); !e.empty())
        return e;

    // --- 1. the scalar field u ------------------------------------------------
    const auto edges = uniqueEdges(triangles);
    const Adjacency adj = vertexAdjacency(n, edges);
    const std::vector<double> d_o = geodesicDistance(adj, vertices, origins);
    const std::vector<double> d_i = geodesicDistance(adj, vertices, insertions);
    if (std::string e = scalarField(d_o, d_i, out.u); !e.empty()) return e;

    // --- 2. levels and their components (branch points) -----------------------
    const double mean_edge = meanEdgeLength(vertices, edges);
    const int K = levelCount(d_o, insertions, mean_edge);
    out.levels = K;
    std::vector<int> level(n);
    for (size_t v = 0; v < n; ++v) level[v] = std::min(K - 1, static_cast<int>(out.u[v] * static_cast<float>(K)));

    Bands bands = bandComponents(vertices, triangles, out.u, level, K);
    foldTinyComponents(bands, adj, K);
    const std::vector<uint32_t>& comp = bands.vertex_comp;
    const std::vector<int>& comp_level = bands.comp_level;
    const size_t C = comp_level.size();
    out.vertex_branch = comp;
    out.branch_level = comp_level;
    out.vertex_level.resize(n);
    for (size_t v = 0; v < n; ++v) out.vertex_level[v] = comp_level[comp[v]];
    out.branch_positions = branchPositions(vertices, bands, mean_edge);

    // --- 3. the medulla ------------------------------------------------------
    const std::vector<Link> touching = touchingComponents(edges, comp, comp_level);
    std::vector<Link> links = linkAlongLevels(touching, comp_level, K);
    if (!isConnected(links, C)) {
        // Unusual u fields (bumps, ridges) can skip levels; every touching pair
        // is still a valid neighbour relation along the muscle.
        links = touching;
        if (!isConnected(links, C)) return "internal structure: the medulla came out disconnected";
    }
    out.medulla = links;

    // --- 4. tangents and fibres -----------------------------------------------
    const Chain chain = chainOf(links, C);
    const glm::vec3 overall = overallDirection(vertices, origins, insertions);
    out.branch_tangent = branchTangents(out.branch_positions, chain, overall);
    out.vertex_fiber = vertexFibres(out, chain);
    return {};
}

}  // namespace sim

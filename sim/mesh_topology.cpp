#include "sim/mesh_topology.h"

#include <algorithm>
#include <tuple>
#include <cmath>
#include <sstream>

#include <glm/geometric.hpp>

namespace sim {

std::vector<std::pair<uint32_t, uint32_t>> uniqueEdges(const std::vector<glm::uvec3>& tris) {
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    edges.reserve(tris.size() * 3);
    for (const glm::uvec3& t : tris) {
        for (int k = 0; k < 3; ++k) {
            uint32_t a = t[k], b = t[(k + 1) % 3];
            if (a == b) continue;  // a degenerate triangle has no edge there
            edges.emplace_back(std::min(a, b), std::max(a, b));
        }
    }
    // Sorting (not a hash set) keeps the order independent of the platform.
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    return edges;
}

Adjacency vertexAdjacency(size_t vertex_count, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
    Adjacency adj;
    adj.offset.assign(vertex_count + 1, 0);
    for (const auto& [a, b] : edges) {
        ++adj.offset[a + 1];
        ++adj.offset[b + 1];
    }
    for (size_t i = 0; i < vertex_count; ++i) adj.offset[i + 1] += adj.offset[i];
    adj.index.resize(adj.offset[vertex_count]);
    std::vector<uint32_t> fill(adj.offset.begin(), adj.offset.end() - 1);
    for (const auto& [a, b] : edges) {
        adj.index[fill[a]++] = b;
        adj.index[fill[b]++] = a;
    }
    for (size_t i = 0; i < vertex_count; ++i)
        std::sort(adj.index.begin() + adj.offset[i], adj.index.begin() + adj.offset[i + 1]);
    return adj;
}

double signedVolume(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris) {
    // Divergence theorem: each triangle and the origin span a signed tetrahedron.
    double six_v = 0.0;
    for (const glm::uvec3& t : tris) {
        const glm::dvec3 a(v[t.x]), b(v[t.y]), c(v[t.z]);
        six_v += glm::dot(a, glm::cross(b, c));
    }
    return six_v / 6.0;
}

namespace {

std::string edgeName(uint32_t a, uint32_t b) {
    std::ostringstream s;
    s << "edge (" << a << "," << b << ")";
    return s.str();
}

// Directed half-edge keyed by its undirected edge, so that sorting groups the
// two uses of each edge next to each other.
struct HalfEdge {
    uint32_t lo, hi;
    bool forward;  // stored as lo → hi in its triangle
    uint32_t tri;
    bool operator<(const HalfEdge& o) const {
        return std::tie(lo, hi, forward, tri) < std::tie(o.lo, o.hi, o.forward, o.tri);
    }
};

// Union-find over small integers (path halving), for the fan and part checks.
struct Sets {
    std::vector<uint32_t> up;
    explicit Sets(size_t n) : up(n) {
        for (size_t i = 0; i < n; ++i) up[i] = uint32_t(i);
    }
    uint32_t find(uint32_t a) {
        while (up[a] != a) a = up[a] = up[up[a]];
        return a;
    }
    void join(uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a != b) up[std::max(a, b)] = std::min(a, b);
    }
};

// The corner of triangle t at vertex v (t's index 3t + k with tris[t][k] = v).
uint32_t cornerOf(const std::vector<glm::uvec3>& tris, uint32_t t, uint32_t v) {
    const uint32_t k = tris[t].x == v ? 0u : tris[t].y == v ? 1u : 2u;
    return 3u * t + k;
}

}  // namespace

std::string checkClosedManifold(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris) {
    if (v.empty() || tris.empty()) return "mesh is empty";
    const size_t n = v.size();
    for (size_t t = 0; t < tris.size(); ++t) {
        for (int k = 0; k < 3; ++k) {
            if (tris[t][k] >= n) {
                std::ostringstream s;
                s << "triangle " << t << " uses vertex " << tris[t][k] << " but the mesh has only " << n
                  << " vertices";
                return s.str();
            }
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(v[i].x) || !std::isfinite(v[i].y) || !std::isfinite(v[i].z)) {
            std::ostringstream s;
            s << "vertex " << i << " is not finite";
            return s.str();
        }
    }
    for (size_t t = 0; t < tris.size(); ++t) {
        const glm::uvec3 f = tris[t];
        const bool repeated = f.x == f.y || f.y == f.z || f.z == f.x;
        // Absolute threshold in m²: real muscle triangles are ≥ 1e-9 m², and a
        // zero-area one has no normal, which breaks contacts and volume gradients.
        const double area2 =
            repeated ? 0.0
                     : glm::length(glm::cross(glm::dvec3(v[f.y]) - glm::dvec3(v[f.x]),
                                              glm::dvec3(v[f.z]) - glm::dvec3(v[f.x])));
        if (repeated || area2 <= 1e-14) {
            std::ostringstream s;
            s << "triangle " << t << " (" << f.x << "," << f.y << "," << f.z << ") is degenerate";
            return s.str();
        }
    }

    std::vector<HalfEdge> half;
    half.reserve(tris.size() * 3);
    for (size_t t = 0; t < tris.size(); ++t) {
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = tris[t][k], b = tris[t][(k + 1) % 3];
            half.push_back({std::min(a, b), std::max(a, b), a < b, static_cast<uint32_t>(t)});
        }
    }
    std::sort(half.begin(), half.end());
    // Triangles joined across their edges (one closed part each set), and the
    // corners around each vertex joined across the edges they share (one fan
    // of triangles each set).
    Sets fans(tris.size() * 3);
    for (size_t i = 0; i < half.size();) {
        size_t j = i;
        while (j < half.size() && half[j].lo == half[i].lo && half[j].hi == half[i].hi) ++j;
        const size_t uses = j - i;
        const std::string name = edgeName(half[i].lo, half[i].hi);
        if (uses == 1) return name + " is used by only 1 triangle (the mesh is open: not a closed manifold)";
        if (uses > 2) return name + " is used by " + std::to_string(uses) + " triangles (not a manifold)";
        if (half[i].forward == half[i + 1].forward) {
            std::ostringstream s;
            s << name << " is used twice in the same direction by triangles " << half[i].tri << " and "
              << half[i + 1].tri << " (inconsistent winding: a flipped triangle)";
            return s.str();
        }
        const uint32_t t1 = half[i].tri, t2 = half[i + 1].tri;
        for (uint32_t v : {half[i].lo, half[i].hi}) fans.join(cornerOf(tris, t1, v), cornerOf(tris, t2, v));
        i = j;
    }
    // Every edge is shared by two triangles, yet a vertex may still join two
    // fans (two closed parts touching at a vertex, a bow-tie): not a 2-manifold.
    std::vector<uint32_t> fan_of(n, UINT32_MAX);
    for (uint32_t c = 0; c < uint32_t(tris.size() * 3); ++c) {
        const uint32_t v = tris[c / 3][c % 3], f = fans.find(c);
        if (fan_of[v] == UINT32_MAX) {
            fan_of[v] = f;
        } else if (fan_of[v] != f) {
            std::ostringstream s;
            s << "vertex " << v
              << " joins two separate fans of triangles (two parts touching at one vertex, a bow-tie: not a "
                 "manifold; a muscle must be one closed surface)";
            return s.str();
        }
    }

    const double vol = signedVolume(v, tris);
    if (!(vol > 0.0)) {
        std::ostringstream s;
        if (vol < 0.0)
            s << "the mesh is wound inwards: its signed volume is " << vol
              << " (must be positive); flip the winding so that triangles wind counter-clockwise seen from outside";
        else
            s << "signed volume is " << vol << " (must be positive: triangles must wind CCW seen from outside)";
        return s.str();
    }
    return {};
}

std::string checkOneClosedSurface(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris) {
    if (auto e = checkClosedManifold(v, tris); !e.empty()) return e;
    // Triangles joined across their shared edges: one set per closed part.
    Sets parts(tris.size());
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> half;
    half.reserve(tris.size() * 3);
    for (uint32_t t = 0; t < uint32_t(tris.size()); ++t)
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = tris[t][k], b = tris[t][(k + 1) % 3];
            half.emplace_back(std::min(a, b), std::max(a, b), t);
        }
    std::sort(half.begin(), half.end());
    for (size_t i = 0; i + 1 < half.size(); ++i)
        if (std::get<0>(half[i]) == std::get<0>(half[i + 1]) && std::get<1>(half[i]) == std::get<1>(half[i + 1]))
            parts.join(std::get<2>(half[i]), std::get<2>(half[i + 1]));
    size_t part_count = 0;
    for (uint32_t t = 0; t < uint32_t(tris.size()); ++t) part_count += parts.find(t) == t ? 1 : 0;
    if (part_count > 1) {
        std::ostringstream s;
        s << "the mesh has " << part_count
          << " separate closed parts (a muscle must be one closed surface: join them or make them separate muscles)";
        return s.str();
    }
    return {};
}

}  // namespace sim

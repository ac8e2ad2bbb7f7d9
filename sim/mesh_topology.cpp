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
        i = j;
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

}  // namespace sim

// Edge / adjacency helpers for closed triangle meshes, and the checks a muscle
// mesh must pass (closed, manifold, consistently wound, positive volume).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

namespace sim {

// Unique undirected edges (a < b), sorted, deterministic.
std::vector<std::pair<uint32_t, uint32_t>> uniqueEdges(const std::vector<glm::uvec3>& tris);

// CSR vertex adjacency (neighbours sorted ascending).
struct Adjacency {
    std::vector<uint32_t> offset;  // size n + 1
    std::vector<uint32_t> index;
    uint32_t degree(uint32_t v) const { return offset[v + 1] - offset[v]; }
};
Adjacency vertexAdjacency(size_t vertex_count, const std::vector<std::pair<uint32_t, uint32_t>>& edges);

// Signed volume of a closed mesh (positive for outward CCW winding).
double signedVolume(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris);

// Empty if the mesh is a closed 2-manifold (every edge shared by exactly two
// triangles, used once in each direction; the triangles around each vertex
// one fan, so no bow-tie vertex), indices in range, no degenerate triangles,
// and its volume is positive; otherwise a message naming the first problem
// found. Several closed parts pass (a bone may have several).
std::string checkClosedManifold(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris);
// A muscle's surface: checkClosedManifold, and one connected part.
std::string checkOneClosedSurface(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris);

}  // namespace sim

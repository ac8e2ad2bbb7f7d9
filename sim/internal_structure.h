// MSXPBD internal structure (docs/model.md §4): a scalar field u from origin to
// insertion, branch points at the centroids of each connected component of a
// u-level band (the medulla), spokes from every surface vertex to its branch
// point, and per-vertex fibre directions.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

namespace sim {

struct InternalStructure {
    int levels = 0;                                    // K
    std::vector<float> u;                              // per surface vertex, 0 at origins, 1 at insertions
    std::vector<int> vertex_level;                     // per surface vertex, in [0, K)
    std::vector<uint32_t> vertex_branch;               // spoke: surface vertex → branch point
    std::vector<glm::vec3> branch_positions;           // rest positions of branch points
    std::vector<int> branch_level;
    std::vector<glm::vec3> branch_tangent;             // unit medulla tangent (fibre of the branch point)
    std::vector<std::pair<uint32_t, uint32_t>> medulla;  // branch ↔ branch links (lower level first)
    std::vector<glm::vec3> vertex_fiber;               // unit fibre direction per surface vertex
};

// Builds the internal structure of a closed mesh from its root vertex sets
// (indices into `vertices`). Returns an error message (empty on success) for
// empty or out-of-range root sets, or roots unreachable over the mesh edges.
std::string buildInternalStructure(const std::vector<glm::vec3>& vertices,
                                   const std::vector<glm::uvec3>& triangles,
                                   const std::vector<std::vector<uint32_t>>& origin_sets,
                                   const std::vector<std::vector<uint32_t>>& insertion_sets,
                                   InternalStructure& out);

}  // namespace sim

// Triangle quality of a closed surface (docs/anatomy.md "Mesh quality"):
// the smallest angle of any triangle and the pairs of its triangles that cut
// through each other. `msxpbd measure` reports both per muscle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/ext/vector_double3.hpp>

namespace engine {

// Smallest interior angle of triangle abc (degrees; 0 where two corners meet).
double triangleMinAngle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c);

// Smallest interior angle over all triangles (degrees; 180 for no triangle).
float minTriangleAngle(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles);

// Pairs of triangles sharing no vertex whose interiors intersect (triangle
// indices, smaller first, sorted).
std::vector<std::pair<uint32_t, uint32_t>> crossingPairs(const std::vector<glm::vec3>& vertices,
                                                         const std::vector<glm::uvec3>& triangles);
size_t selfIntersections(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles);

}  // namespace engine

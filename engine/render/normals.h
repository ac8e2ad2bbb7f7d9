// Smooth per-vertex normals from current positions: area-weighted sum of the
// incident triangles' normals. Recomputed every frame because the muscles deform.
#pragma once

#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace engine::render {

// `normals` is resized to positions.size(); vertices on no triangle get (0,1,0).
void computeVertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                          std::vector<glm::vec3>& normals);

}  // namespace engine::render

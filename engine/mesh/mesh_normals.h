// Smooth per-vertex normals of a triangle mesh: the area-weighted sum of the
// incident triangles' normals. One rule for the exporters and the renderer
// (engine/render/normals.h forwards here).
#pragma once

#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace engine {

// `normals` is resized to positions.size(); vertices on no triangle get (0, 1, 0).
void vertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                   std::vector<glm::vec3>& normals);

}  // namespace engine

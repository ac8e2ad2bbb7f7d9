#include "engine/render/normals.h"

#include "engine/mesh/mesh_normals.h"

namespace engine::render {

// The exporters' rule (engine/mesh/mesh_normals.h), so a baked file and the
// viewer shade the same surface with the same normals.
void computeVertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                          std::vector<glm::vec3>& normals) {
    vertexNormals(positions, triangles, normals);
}

}  // namespace engine::render

#include "engine/mesh/mesh_normals.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace engine {

void vertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                   std::vector<glm::vec3>& normals) {
    normals.assign(positions.size(), glm::vec3(0.0f));
    const size_t n = positions.size();
    for (const glm::uvec3& t : triangles) {
        if (t.x >= n || t.y >= n || t.z >= n) continue;
        // The unnormalised cross product weights each face by its area.
        const glm::vec3 fn = glm::cross(positions[t.y] - positions[t.x], positions[t.z] - positions[t.x]);
        normals[t.x] += fn;
        normals[t.y] += fn;
        normals[t.z] += fn;
    }
    for (glm::vec3& v : normals) {
        const float l2 = glm::dot(v, v);
        v = l2 > 1e-30f ? v / std::sqrt(l2) : glm::vec3(0.0f, 1.0f, 0.0f);
    }
}

}  // namespace engine

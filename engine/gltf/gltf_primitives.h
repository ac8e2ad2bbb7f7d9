// Mesh primitives as geometry: positions, normals, triangles (strips and fans
// converted), skin influences, texture coordinates, morph targets and the
// material; whole meshes for muscles and bone bodies; vertex welding and the
// 10 µm position grid that names a welded vertex by its position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/glm.hpp>
#include <tiny_gltf.h>

#include "engine/gltf/gltf_accessors.h"

namespace engine::gltf_detail {

struct Geometry {
    std::vector<glm::vec3> positions, normals;
    std::vector<uint32_t> indices;
    std::vector<glm::uvec4> joints;   // `sets` per vertex
    std::vector<glm::vec4> weights;
    int sets = 0;
    std::vector<glm::vec2> uvs;       // base colour texture coordinates (render primitives only)
    std::vector<std::vector<glm::vec3>> targets;  // morph target position offsets (render primitives only)
    glm::vec3 color{0.85f, 0.82f, 0.75f};
    float alpha = 1.0f;   // baseColorFactor alpha (BLEND only; 1 otherwise)
    bool blend = false;   // alphaMode BLEND: drawn translucent
    bool cut = false;     // alphaMode MASK with alpha below alphaCutoff: nothing is drawn
    float alpha_cutoff = -1.0f;  // MASK with a texture: per texel
    int texture = -1;     // the file's texture index of baseColorTexture
    bool has_normals = true;
    bool drawn = false;   // a triangle primitive (points and lines are skipped)
};

// What readPrimitive reads beyond positions and triangles.
struct PrimitiveReads {
    bool skinned = false;
    bool render = false;  // texture coordinates and morph targets (drawn meshes only)
};

// One primitive: positions, normals, triangles (strips and fans converted),
// skin influences (every JOINTS_n/WEIGHTS_n set) and, for drawn meshes, the
// base colour texture coordinates and the morph targets. Points and lines
// come back with drawn = false and a warning.
Geometry readPrimitive(const tinygltf::Model& m, int mesh_index, size_t pi, PrimitiveReads reads,
                       const std::string& where, Budget& budget, std::vector<std::string>& warnings);

// Area-weighted vertex normals where the file gives none.
void computeMissingNormals(Geometry& g);

// Every triangle primitive of a mesh as one geometry (muscles and bone
// bodies): the first primitive with a material decides its colour.
Geometry readMesh(const tinygltf::Model& m, int mesh_index, bool skinned, const std::string& where, Budget& budget,
                  std::vector<std::string>& warnings);

// A vertex named by its position: the welded vertex within 10 µm of a point
// (a hashed grid of 10 µm cells, so a set costs O(points), not O(points ×
// vertices)).
class PositionIndex {
public:
    static constexpr float kTolerance = 1e-5f;  // m
    struct Match {
        bool found = false;
        uint32_t index = 0;
        float distance = std::numeric_limits<float>::infinity();
    };
    explicit PositionIndex(const std::vector<glm::vec3>& p);
    Match nearest(glm::vec3 q) const;

private:
    static glm::ivec3 cell(glm::vec3 x);
    static uint64_t key(glm::ivec3 c);
    const std::vector<glm::vec3>& p_;
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells_;
};

// Exact-position welding (exporters split vertices at UV / normal seams).
std::vector<uint32_t> weld(const std::vector<glm::vec3>& in, std::vector<glm::vec3>& out);

}  // namespace engine::gltf_detail

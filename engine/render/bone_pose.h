// Poses the non-muscle meshes on the CPU (rigid joint/body transforms or
// linear-blend skinning) into one world-space vertex array, so all bones draw
// with a single call. Bones are small next to the muscles; CPU posing keeps
// the shaders free of skinning paths.
#pragma once

#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/render/draw_frame.h"
#include "engine/render/draw_topology.h"

namespace engine::render {

// Concatenated indices of all bones (offset per mesh); depends only on topology.
std::vector<uint32_t> boneIndices(const std::vector<BoneMesh>& bones);
void poseBones(const std::vector<BoneMesh>& bones, const DrawFrame& frame, std::vector<glm::vec3>& positions,
               std::vector<glm::vec3>& colors);

}  // namespace engine::render

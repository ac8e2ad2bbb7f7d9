// Poses the non-muscle meshes on the CPU (rigid joint/body transforms or
// linear-blend skinning) into world-space vertex arrays: the opaque ones into
// one array, so all bones draw with a single call, and each translucent one
// (material alphaMode BLEND, docs/scene-format.md) on its own, since those
// draw after everything opaque (docs/architecture.md, "Renderer"). Bones are
// small next to the muscles; CPU posing keeps the shaders free of skinning
// paths.
#pragma once

#include <span>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "engine/render/draw_frame.h"
#include "engine/render/draw_topology.h"

namespace engine::render {

// Concatenated indices of the opaque bones (offset per mesh); depends only on topology.
std::vector<uint32_t> boneIndices(const std::vector<BoneMesh>& bones);
// The opaque bones, posed and concatenated in the order of boneIndices.
// `mats` is scratch for the skin matrices (kept by the caller: no allocation
// once it has grown).
void poseBones(const std::vector<BoneMesh>& bones, const DrawFrame& frame, std::vector<glm::vec3>& positions,
               std::vector<glm::vec3>& colors, std::vector<glm::mat4>& mats);
// One mesh, posed into `positions` (replaced).
void poseMesh(const BoneMesh& mesh, const DrawFrame& frame, std::vector<glm::vec3>& positions,
              std::vector<glm::mat4>& mats);

}  // namespace engine::render

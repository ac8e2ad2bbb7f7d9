// Fits the generated skin around the generated muscles in the rest pose: the
// outline (engine/anatomy/skin_outline.h) follows measured girths, the
// muscles their own measured volumes, and where a muscle reaches past the
// outline the skin is pushed out over it, so no muscle starts outside the
// skin and the fascia envelope (docs/model.md §3.8) starts from a body
// whose muscles all lie under it.
#pragma once

#include <vector>

#include <glm/vec3.hpp>

namespace engine {

// Moves skin vertices outward along their normals (with a smooth fall-off
// around each push, so the skin bulges rather than tents) until every point
// of `inside` lies at least `clearance` inside the closed skin mesh, or the
// iterations run out. Deterministic. Returns the largest remaining shortfall
// (m; 0 when every point is enclosed).
float fitSkinAround(std::vector<glm::vec3>& skin, const std::vector<glm::uvec3>& triangles,
                    const std::vector<glm::vec3>& inside, float clearance);

}  // namespace engine

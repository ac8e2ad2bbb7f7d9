// Node transforms and their bounds: a node's local transform as a joint's
// TRS, its rest world transform, and mesh vertices placed in the world
// (docs/scene-format.md, "Limits").
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <tiny_gltf.h>

#include "engine/scene/scene.h"

namespace engine::gltf_detail {

// A node's local transform, refused when it is not finite as floats, places
// anything beyond the coordinate bound, or is singular (docs/scene-format.md,
// "Limits").
glm::mat4 nodeLocal(const tinygltf::Node& n, const std::string& where, Joint& j);

// A node's rest world transform: finite, translation within the coordinate
// bound, 3×3 entries and determinant within the scale bounds.
void checkGlobal(const glm::mat4& g, const std::string& where);

// Mesh vertices placed by a rest world transform stay within the coordinate bound.
void checkWorld(const std::vector<glm::vec3>& local, const glm::mat4& G, const std::string& where);

}  // namespace engine::gltf_detail

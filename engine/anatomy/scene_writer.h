// A generated scene (generator_spec.h) as a glTF binary: the skeleton's joint
// nodes and skinned bone mesh, one node per muscle with its msxpbd extras
// (attachments, contacts, sliding, sensors; docs/scene-format.md), the skin,
// the animations sampled into LINEAR samplers, and the scene's solver
// settings. Deterministic: the same spec gives the same bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/anatomy/generator_spec.h"
#include "engine/anatomy/scene_generator.h"

namespace engine::generator {

std::vector<uint8_t> writeScene(const SceneSpec& sc, GeneratedScene& stats);

}  // namespace engine::generator

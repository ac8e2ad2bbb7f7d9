// The one entry point that turns a scene name into an engine::Scene: it sits
// above scene/ (the model), gltf/ (files) and the built-in scenes, so none of
// them has to know the others.
#pragma once

#include <string>

#include "engine/scene/scene.h"

namespace engine {

// "builtin:NAME" or a path to a .glb/.gltf file. Returns an error message
// naming the file and the problem (empty on success).
std::string loadScene(const std::string& spec, Scene& out);

}  // namespace engine

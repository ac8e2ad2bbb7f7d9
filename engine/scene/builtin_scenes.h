// Scenes made in code (docs/scene-format.md (the scenes)): "builtin:t1", "builtin:p1", "builtin:p2", ...
#pragma once

#include <string>
#include <vector>

#include "engine/scene/scene.h"

namespace engine {

std::vector<std::string> builtinSceneNames();
// Fills `out` with the named built-in scene; returns an error naming the valid
// names when `name` is unknown.
std::string makeBuiltinScene(const std::string& name, Scene& out);

}  // namespace engine

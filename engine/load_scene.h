// The one entry point that turns a scene name into an engine::Scene: it sits
// above scene/ (the model), gltf/ (files) and the built-in scenes, so none of
// them has to know the others.
#pragma once

#include <string>
#include <vector>

#include "engine/scene/scene.h"

namespace engine {

// What every --scene accepts: a .glb/.gltf path, "builtin:NAME", or the
// short name of a generated scene ("t5" for assets/scenes/t5-arm-flexion.glb).
// Returns an error message naming the file and the problem (empty on success).
std::string loadScene(const std::string& spec, Scene& out);

// The file a shorthand names: `spec` when it is a path that exists or not a
// shorthand at all (a name of a letter and digits, "t5", "p2"); else the
// generated scene "<spec>-*.glb" in the source tree's assets/scenes/, or
// empty when there is none.
std::string resolveSceneShorthand(const std::string& spec);

// The shorthands the source tree's assets/scenes/ offers, sorted ("p1", ..., "t7").
std::vector<std::string> sceneShorthands();

// One line for help texts and errors: what --scene takes.
std::string sceneChoices();

}  // namespace engine

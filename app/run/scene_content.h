// What a loaded scene holds beyond its muscles (`run --json` "content", and
// the line `run` prints for a scene without muscles): meshes, skins,
// animations, and the world-space box of every mesh posed (skinned, morphed)
// at a given time, so a user and a test can check skinning numerically.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/scene/scene.h"

namespace app {

// `animation` −1: the rest pose; `time`: the animation's time (as
// SceneDriver::animationTime gives it).
nlohmann::json sceneContent(const engine::Scene& scene, int animation, double time);
// One line: "3 meshes (2 skinned, ...), 1 skin (19 joints), 1 animation (walk 1.25 s)".
std::string describeContent(const nlohmann::json& content);

}  // namespace app

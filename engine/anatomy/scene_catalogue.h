// The catalogue of generated scenes: the lab scenes (T1, T2, P1–P3: an oval,
// a cube, anchors and planes) and the anatomy scenes (T3–T7, P4: arm and body
// from the body plan, packed, with their motions and solver settings), each
// by its id.
#pragma once

#include <string>

#include "engine/anatomy/generator_spec.h"

namespace engine::generator {

// The scene of id "t1" … "t7", "p1" … "p4" (an unknown id gives an empty scene).
SceneSpec buildSceneSpec(const std::string& id);

}  // namespace engine::generator

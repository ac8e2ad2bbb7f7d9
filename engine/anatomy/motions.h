// The generated scenes' motions (docs/scene-format.md "The scenes"): joint
// rotations as functions of time, sampled by the scene writer.
#pragma once

#include <string>

#include "engine/anatomy/generator_spec.h"

namespace engine::generator {

// The right elbow flexing to 130° and back over `period` seconds (T3–T5, P4).
void elbowFlexion(SceneSpec& sc, const std::string& name, double period);
// The right arm's boxing round: guard, jabs, crosses, hooks, uppercuts (T6, 10 s).
void fighting(SceneSpec& sc);
// Walk, speed up to a run and back to a walk, arms opposite the legs (T7, 8 s loop).
void walkRun(SceneSpec& sc);

}  // namespace engine::generator

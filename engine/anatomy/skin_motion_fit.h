// The skin's weights checked against the scene's own motions (docs/anatomy.md
// "Skin outline"): linear-blend skinning puts the skin over a joint partway
// between the two bones' motions, so a flexed elbow's olecranon or a
// raised shoulder's acromion comes out through it. Posing skin and bones at
// every other frame of each animation, wherever a bone point lies outside
// the posed skin, the skin vertices around it move their weights towards
// that bone, pass after pass, until none does (or the passes run out). The
// rest shape does not change, only what each vertex follows.
#pragma once

#include <vector>

#include "engine/anatomy/generator_spec.h"
#include "engine/anatomy/skin_fit.h"
#include "engine/anatomy/skin_outline.h"

namespace engine::generator {

// `bones`: the drawn bones' rest points and bones (indices into sc.bones,
// the skin's joint indices). Deterministic. Returns the farthest a bone
// point still lies outside the skin at a checked frame (m; 0 when none).
float fitSkinWeightsToMotion(const SceneSpec& sc, SkinMesh& skin, const std::vector<BonePoint>& bones);

}  // namespace engine::generator

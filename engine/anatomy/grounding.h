// Grounded motion (docs/anatomy.md "Motions", T7): a generated walk
// keeps a foot on the floor. The skeleton's rotations come from the motion
// (motions.h); the root's height at each sample is solved here so that the
// lowest drawn point (skin and bones, posed by linear-blend skinning as any
// glTF viewer poses them) lies on the floor plane: the stance foot touches
// it, the swing foot, higher by construction, clears it, and the heel and
// toes take turns as the foot rolls.
#pragma once

#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "engine/anatomy/generator_spec.h"

namespace engine::generator {

// A drawn vertex in the rest pose (bind space = world) with up to four bones
// (indices into SceneSpec::bones) and their weights.
struct DrawnPoint {
    glm::vec3 rest{0.0f};
    glm::uvec4 bones{0u};
    glm::vec4 weights{1.0f, 0.0f, 0.0f, 0.0f};
};

// The bones' world transforms at time t of an animation: rest rotations are
// identity, each channel's rotation about its bone's head, the root moved
// by `root_offset`. Maps a rest point p of bone i to G_i · (p − head_i).
std::vector<glm::mat4> boneGlobals(const SceneSpec& sc, const AnimSpec& a, double t, glm::vec3 root_offset);

// Where a drawn point lies at time t (linear-blend skinning).
glm::vec3 posedPoint(const SceneSpec& sc, const std::vector<glm::mat4>& globals, const DrawnPoint& p);

// For sample k (t = k / fps, k = 0 … duration·fps) of the animation, the
// root's vertical offset that puts the lowest of `drawn` on the plane y =
// floor_y.
std::vector<float> groundedRootHeights(const SceneSpec& sc, const AnimSpec& a, const std::vector<DrawnPoint>& drawn,
                                       float floor_y);

}  // namespace engine::generator

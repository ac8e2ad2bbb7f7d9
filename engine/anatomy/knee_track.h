// The kneecap's track (docs/anatomy.md "Bone shapes", "Motions"): the
// patella is a bone of its own, a child of the femur, that glides in the
// femur's groove as the knee bends instead of riding with the shin (which
// left it floating 2–3 cm in front of a bent knee).
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "engine/anatomy/generator_spec.h"

namespace engine::generator {

// Share of the knee's flexion the kneecap turns by about the condyles.
constexpr double kPatellaTurn = 0.7;
// Gap between the kneecap's back and the femur's surface (m): cartilage.
constexpr float kPatellaGap = 0.0015f;

// The kneecap's centre (world, rest frame of the femur) with the knee bent
// by `knee` radians (flexion, the tibia's rotation about +X): turned by
// kPatellaTurn·knee about the condyles' centre, its back kPatellaGap off the
// femur's surface along that direction (the femur's shape, bone_shapes.h).
glm::vec3 patellaCentre(const Bone& femur, double knee);

// Its rotation in the femur's frame: the same turn.
glm::quat patellaRotation(double knee);

}  // namespace engine::generator

// The kneecap's track (knee_track.h).
#include "engine/anatomy/knee_track.h"

#include "engine/anatomy/bone_shapes.h"

namespace engine::generator {

namespace {

// The condyles' centre, from the knee joint (the femur's tail): the arc the
// kneecap follows (bone_shapes.cpp: condyles and patellar surface).
const glm::vec3 kCondyleCentre(0.0f, 0.017f, -0.006f);
// The kneecap's direction from it with the knee straight: in front of the
// patellar surface, a little above the joint.
const glm::vec3 kRestDirection = glm::normalize(glm::vec3(0.0f, 0.35f, 1.0f));

}  // namespace

glm::quat patellaRotation(double knee) { return axisAngle({1, 0, 0}, kPatellaTurn * knee); }

glm::vec3 patellaCentre(const Bone& femur, double knee) {
    const std::function<float(glm::vec3)> field = boneField({femur.name, femur.head, femur.tail, femur.radius});
    const glm::vec3 c = femur.tail + kCondyleCentre;
    const glm::vec3 dir = patellaRotation(knee) * kRestDirection;
    // Step in from outside along dir to the femur's outermost surface (the
    // notch between the condyles is open behind the centre), then halve
    // the step onto it.
    float lo = 0.0f, hi = 0.08f;  // lo inside (or the centre), hi outside
    for (float s = hi; s > 0.0f; s -= 0.002f) {
        if (field(c + s * dir) <= 0.0f) {
            lo = s;
            break;
        }
        hi = s;
    }
    for (int k = 0; k < 20; ++k) {
        const float m = 0.5f * (lo + hi);
        (field(c + m * dir) > 0.0f ? hi : lo) = m;
    }
    return c + (hi + kPatellaGap + kPatellaHalfThickness) * dir;
}

}  // namespace engine::generator

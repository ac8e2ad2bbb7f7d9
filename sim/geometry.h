// Closest-point queries on triangles, capsules and contact targets (the
// geometric half of SPEC §4.5–4.6), as small pure functions.
#pragma once

#include <glm/vec3.hpp>

#include "sim/scene_desc.h"

namespace sim {

struct World;

struct ClosestPoint {
    bool valid = false;
    glm::vec3 point{0.0f};
    glm::vec3 normal{0.0f};        // outward normal of the target at `point`
    float distance = 0.0f;         // |p − point|
    float signed_distance = 0.0f;  // (p − point)·normal: negative inside the target
};

// Closest point on triangle abc to p (Ericson, Real-Time Collision Detection
// 5.1.5). `region` is 0 for the face interior, 1 for an edge, 2 for a vertex.
glm::vec3 closestPointOnTriangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c, int& region);

// Closest point on a triangle with an outward normal and signed distance:
// on the face interior the face normal; on an edge or vertex the direction to
// p, signed by the face normal (so points inside a closed mesh come out
// negative).
ClosestPoint closestOnTriangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c);

// Capsule around segment ab with radius r.
ClosestPoint closestOnCapsule(glm::vec3 p, glm::vec3 a, glm::vec3 b, float r);

// Brute-force closest point on a whole target (a body's collision shape in its
// current transform, or a muscle's surface). `rest`: use the bind pose
// (muscles) / the initial transform (bodies). Used at setup; the per-substep
// contact search uses a spatial hash.
ClosestPoint closestPointOnTarget(const World& w, const TargetDesc& t, glm::vec3 p, bool rest);

}  // namespace sim

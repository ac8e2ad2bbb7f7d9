// Poking a muscle (the viewer's Ctrl+drag, as MuJoCo's viewer lets users
// perturb bodies): a patch of the muscle around a grabbed particle is pulled
// toward a target point by a spring, once per substep after the solve, so
// the muscle's own constraints answer it in the next substep — a student
// feels the stiffness change with iterations. A poked run is not claimed to
// be deterministic (the target follows the mouse); the viewer marks it.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace sim {

struct World;

struct Poke {
    // The grabbed particle's patch: particles of its muscle within the
    // grab radius, each with its offset from the grabbed one at the grab
    // and a falloff weight (1 at the centre, 0 at the radius).
    std::vector<uint32_t> particles;
    std::vector<glm::vec3> offsets;
    std::vector<float> weights;
    glm::vec3 target{0.0f};   // where the grabbed particle is pulled
    float stiffness = 50.0f;  // N/m, on the patch as one body (XPBD compliance 1/k)
};

constexpr float kPokeRadius = 0.015f;  // m

// The patch around `particle` (its muscle's free particles within `radius`
// of it), with the target where the particle is now; empty when the
// particle is out of range or kinematic.
Poke grabPatch(const World& w, uint32_t particle, float radius = kPokeRadius);

// One XPBD step of the spring on the predicted positions (particles.p) over
// a substep of length dt: the patch, with the mass of all its particles,
// moves toward target + offset by k·dt²·W / (1 + k·dt²·W) of the way,
// each particle by its weight's share.
void applyPoke(World& w, const Poke& poke, float dt);

}  // namespace sim

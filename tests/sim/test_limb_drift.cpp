// Drift (sim/limb_drift.h, docs/model.md §8) as a tuner reads it: a muscle
// that peels away from its neighbour drifts by how far it went; one that
// slides along the neighbour does not.
#include <gtest/gtest.h>

#include "sim/simulation.h"
#include "tests/sim/box_muscle.h"

namespace {

// A: 4 × 3 × 3 cm, lying 1 mm off the +x face of B, a long box (8 cm in z)
// it can slide along.
sim::SceneDesc boxOnBox() {
    sim::SceneDesc s;
    s.name = "box on box";
    s.gravity_scale = 0.0f;
    s.muscles.push_back(sim_test::boxMuscle("a", {0.041f, 0.0f, 0.0f}, {0.02f, 0.015f, 0.015f}));
    s.muscles.push_back(sim_test::boxMuscle("b", {0.0f, 0.0f, 0.0f}, {0.02f, 0.02f, 0.04f}));
    return s;
}

// Moves muscle 0's particles by d.
void moveA(sim::Simulation& s, glm::vec3 d) {
    sim::World& w = s.mutableWorld();
    const sim::Muscle& a = w.muscles[0];
    for (uint32_t i = a.first; i < a.particleEnd(); ++i) w.particles.x[i] += d;
}

TEST(LimbDrift, NoneAtRest) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxOnBox()), "");
    const sim::DriftResult r = s.drift();
    EXPECT_GT(r.vertices, 0);
    EXPECT_EQ(r.deepest, 0.0f);
}

TEST(LimbDrift, AMusclePeelingOffItsNeighbourDriftsByHowFarItWent) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxOnBox()), "");
    moveA(s, {0.01f, 0.0f, 0.0f});
    const sim::DriftResult r = s.drift();
    // A's face toward B (and B's toward A) is now 11 mm off instead of 1.
    EXPECT_NEAR(r.deepest, 0.01f, 5e-4f);
    EXPECT_GT(r.p99, 0.009f);
    std::vector<float> per;
    s.driftPerVertex(per);
    const sim::Muscle& a = s.world().muscles[0];
    int facing = 0;
    for (uint32_t i = a.first; i < a.first + a.surface_count; ++i)
        if (s.world().particles.x[i].x < 0.0311f) {
            ++facing;
            EXPECT_NEAR(per[i], 0.01f, 5e-4f) << "vertex " << i;
        }
    EXPECT_GT(facing, 0);
}

TEST(LimbDrift, AMuscleSlidingAlongItsNeighbourDoesNotDrift) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxOnBox()), "");
    moveA(s, {0.0f, 0.0f, 0.01f});
    // A stays 1 mm off B's face wherever it went (B is longer). The strip of
    // B that A uncovered has lost its neighbour, and drifts.
    const sim::DriftResult r = s.drift();
    EXPECT_LT(r.muscle_max[0], 5e-4f);
    EXPECT_GT(r.muscle_max[1], 0.005f);
}

}  // namespace

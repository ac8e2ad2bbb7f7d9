// What a muscle does (issue #2): it shortens along its fibres when activated,
// keeps its volume (or swells with overpressure), relaxes back, hangs
// independently of the iteration count in XPBD, stays on its attachments, and
// gives the same bits twice.
#include <cmath>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "app/run/scene_driver.h"
#include "test_helpers.h"

namespace {

struct Shape {
    double length_ratio;  // length / rest length
    double volume_ratio;  // volume / rest volume
};

Shape shapeOf(const sim::Simulation& s, size_t m = 0) {
    auto st = s.muscleStats()[m];
    return {st.length / st.rest_length, st.volume / st.rest_volume};
}

// One solver thread: ctest runs two test processes on the two cores.
void loadWithParams(app::SceneDriver& d, const std::string& scene, sim::SolverParams p = {}) {
    if (p.threads == 0) p.threads = 1;
    ASSERT_EQ(d.load(scene), "");
    ASSERT_EQ(d.setParams(p), "");
}

void runFrames(app::SceneDriver& d, int frames) {
    for (int f = 0; f < frames; ++f) ASSERT_TRUE(d.step().ok) << "frame " << f;
}

TEST(MuscleBehaviour, ActivationShortensAndKeepsVolume) {
    app::SceneDriver d;
    loadWithParams(d, "builtin:t1");
    d.setActivationSource({app::ActivationSource::Kind::Constant, 0.5f});
    runFrames(d, 90);
    Shape s = shapeOf(d.sim());
    EXPECT_LE(s.length_ratio, 0.85) << "origin-insertion length should shorten by at least 15%";
    EXPECT_NEAR(s.volume_ratio, 1.0, 0.03) << "volume should stay within 3% without overpressure";
}

TEST(MuscleBehaviour, OverpressureSwellsTheActivatedMuscle) {
    app::SceneDriver d;
    loadWithParams(d, "builtin:t1");
    d.setActivationSource({app::ActivationSource::Kind::Constant, 0.5f});
    d.setOverpressure(0.3f);
    runFrames(d, 90);
    EXPECT_GE(shapeOf(d.sim()).volume_ratio, 1.08) << "κ = 0.3 at a = 0.5 should grow the volume by 8% or more";
}

TEST(MuscleBehaviour, RelaxingReturnsToRest) {
    app::SceneDriver d;
    loadWithParams(d, "builtin:t1");
    d.setActivationSource({app::ActivationSource::Kind::Constant, 0.5f});
    runFrames(d, 60);
    ASSERT_LT(shapeOf(d.sim()).length_ratio, 0.85);
    d.setActivationSource({app::ActivationSource::Kind::Constant, 0.0f});
    runFrames(d, 150);
    Shape s = shapeOf(d.sim());
    EXPECT_NEAR(s.length_ratio, 1.0, 0.02);
    EXPECT_NEAR(s.volume_ratio, 1.0, 0.02);
}

// Steady-state elongation of the study oval (builtin:hang) hanging from its
// top under gravity, at 10 substeps per frame.
double hangingElongation(sim::ConstraintMode mode, int iterations, float k) {
    sim::SolverParams p;
    p.mode = mode;
    p.iterations = iterations;
    p.substeps = 10;
    p.threads = 1;
    p.stiffness()[sim::Family::Fiber] = k;
    p.stiffness()[sim::Family::Structure] = k;
    app::SceneDriver d;
    EXPECT_EQ(d.load("builtin:hang"), "");
    EXPECT_EQ(d.setParams(p), "");
    for (int f = 0; f < 150; ++f) EXPECT_TRUE(d.step().ok);
    return shapeOf(d.sim()).length_ratio - 1.0;
}

TEST(MuscleBehaviour, XpbdElongationIsIndependentOfIterations) {
    const float k = 100.0f;  // N/m per edge: soft enough that gravity visibly stretches the muscle
    double e5 = hangingElongation(sim::ConstraintMode::Xpbd, 5, k);
    double e50 = hangingElongation(sim::ConstraintMode::Xpbd, 50, k);
    ASSERT_GT(e50, 0.01) << "the muscle should visibly stretch under its weight";
    EXPECT_LT(std::abs(e5 - e50) / e50, 0.10) << "XPBD: 5 it " << e5 << " vs 50 it " << e50;
}

TEST(MuscleBehaviour, PbdElongationDependsOnIterations) {
    // The original PBD: the same k applied at every iteration, so the
    // material gets stiffer with more iterations.
    const float k = 0.1f;
    double e5 = hangingElongation(sim::ConstraintMode::PbdRaw, 5, k);
    double e50 = hangingElongation(sim::ConstraintMode::PbdRaw, 50, k);
    ASSERT_GT(e5, 0.01);
    EXPECT_GT(std::abs(e5 - e50) / std::max(e5, e50), 0.30) << "PBD: 5 it " << e5 << " vs 50 it " << e50;
}

TEST(MuscleBehaviour, AttachmentsHoldExactlyAfterEveryStep) {
    for (const char* scene : {"builtin:t1", "builtin:p1", "builtin:p2", "builtin:hang"}) {
        app::SceneDriver d;
        loadWithParams(d, scene);
        d.setActivationSource({app::ActivationSource::Kind::Ramp, 1.0f});
        for (int f = 0; f < 60; ++f) {
            ASSERT_TRUE(d.step().ok);
            EXPECT_LT(d.sim().residuals().attachment, 1e-6f) << scene << " frame " << f;
        }
        EXPECT_GT(d.sim().world().attachments.size(), 0u);
    }
}

TEST(MuscleBehaviour, SameSceneTwiceGivesTheSameBits) {
    for (const char* scene : {"builtin:t1", "builtin:p2"}) {
        uint64_t h[2];
        for (int run = 0; run < 2; ++run) {
            app::SceneDriver d;
            loadWithParams(d, scene);
            d.setActivationSource({app::ActivationSource::Kind::Ramp, 1.0f});
            runFrames(d, 40);
            h[run] = d.sim().positionsHash();
        }
        EXPECT_EQ(h[0], h[1]) << scene;
    }
}

TEST(MuscleBehaviour, PlaneStopsTheSwollenMuscle) {
    app::SceneDriver d;
    loadWithParams(d, "builtin:p1");
    d.setOverpressure(1.0f);
    d.setActivationSource({app::ActivationSource::Kind::Constant, 0.6f});
    runFrames(d, 60);
    float lowest = 1e9f;
    for (const auto& x : d.sim().world().particles.x) lowest = std::min(lowest, x.y);
    EXPECT_GT(lowest, -1e-3f) << "no particle may sink through the plane";
}

TEST(MuscleBehaviour, NanGuardRestoresTheLastGoodState) {
    app::SceneDriver d;
    loadWithParams(d, "builtin:t1");
    runFrames(d, 5);
    uint64_t before = d.sim().positionsHash();
    // Poison one free particle's velocity: the step must be undone and reported.
    auto& P = d.sim().mutableWorld().particles;
    size_t victim = 0;
    while (P.w[victim] == 0.0f) ++victim;
    glm::vec3 saved = P.v[victim];
    P.v[victim] = glm::vec3(std::nanf(""), 0.0f, 0.0f);
    sim::StepReport r = d.step();
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.nan.fired);
    EXPECT_EQ(r.nan.muscle, "oval");
    EXPECT_NE(r.nan.message().find("NaN guard"), std::string::npos);
    P.v[victim] = saved;
    EXPECT_EQ(d.sim().positionsHash(), before) << "positions must be restored";
    EXPECT_TRUE(d.step().ok) << "the simulation goes on after the guard";
}

// After the guard undoes a step, the residual describes the restored state,
// not the contacts the undone step found (it read 9.8e8 m).
TEST(MuscleBehaviour, NanGuardResidualDescribesTheRestoredState) {
    app::SceneDriver d;
    loadWithParams(d, "builtin:p2");  // an oval and a cube in contact, over a plane
    runFrames(d, 10);
    const float before = d.sim().residuals().max();
    auto& P = d.sim().mutableWorld().particles;
    size_t victim = 0;
    while (P.w[victim] == 0.0f) ++victim;
    P.v[victim] = glm::vec3(1e30f, 0.0f, 0.0f);  // flung out: an exploding position
    EXPECT_FALSE(d.step().ok);
    EXPECT_LT(d.sim().residuals().max(), std::max(1e-3f, 2.0f * before));
}

}  // namespace

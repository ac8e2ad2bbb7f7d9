// The generated arm scenes simulated through the same driver as `run` and the
// viewer (issue #4): the flexing arm keeps every muscle on its bones, its
// flexors activate from the elbow sensor, and volumes stay within what each
// muscle's overpressure allows.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "app/run/scene_driver.h"
#include "test_helpers.h"

namespace {

using test::asset;

size_t muscleIndex(const sim::Simulation& s, const std::string& name) {
    const auto stats = s.muscleStats();
    for (size_t m = 0; m < stats.size(); ++m)
        if (stats[m].name == name) return m;
    ADD_FAILURE() << "no muscle " << name;
    return 0;
}

void load(app::SceneDriver& d, const std::string& scene, sim::SolverParams p = {}) {
    p.threads = 1;  // ctest runs two test processes on the two cores
    ASSERT_EQ(d.load(scene, p), "");  // the scene's substeps/carry, as `run` without --substeps / --carry
}

// T5, a full flexion and back (150 frames = 5 s; the elbow flexes 130° over
// the first 2 s): sensor-driven biceps activation rises with flexion, no
// attachment leaves its bone, no vertex enters a bone, the elbow flexors' volumes stay within their
// overpressure bound 1 + κ·a (κ = 0.2 here) with 2% slack, and every
// muscle's between 0.9 and 1.3 of rest. (The brachioradialis, pressed by the
// skin's folding crease, reaches 1.7% past its bound: docs/lab/fascia-envelope.md.)
TEST(ArmScenes, T5FlexionActivatesTheBicepsAndKeepsVolumes) {
    app::SceneDriver d;
    load(d, asset("t5-arm-flexion.glb"));
    sim::Simulation& s = d.sim();
    const size_t biceps = muscleIndex(s, "biceps_r"), brachialis = muscleIndex(s, "brachialis_r");
    const size_t triceps[] = {muscleIndex(s, "triceps_long_r"), muscleIndex(s, "triceps_lateral_r"),
                              muscleIndex(s, "triceps_medial_r")};
    const auto& world = s.world();
    std::vector<float> biceps_activation;
    std::vector<double> biceps_length, brachialis_length, triceps_length[3];
    double min_ratio = 1.0, max_ratio = 1.0, max_excess = 0.0;
    std::string worst_low, worst_high;
    float worst_penetration = 0.0f;
    int worst_frame = -1;
    for (int f = 0; f < 150; ++f) {
        ASSERT_TRUE(d.step().ok) << "frame " << f;
        ASSERT_LT(s.residuals().attachment, 1e-5f) << "frame " << f;
        const float pen = s.bonePenetration().depth;
        if (pen > worst_penetration) worst_penetration = pen, worst_frame = f;
        const auto stats = s.muscleStats();
        biceps_activation.push_back(stats[biceps].activation);
        biceps_length.push_back(double(stats[biceps].length / stats[biceps].rest_length));
        brachialis_length.push_back(double(stats[brachialis].length / stats[brachialis].rest_length));
        for (int k = 0; k < 3; ++k) triceps_length[k].push_back(double(stats[triceps[k]].length / stats[triceps[k]].rest_length));
        for (size_t m = 0; m < stats.size(); ++m) {
            const double ratio = double(stats[m].volume) / double(stats[m].rest_volume);
            const double bound = 1.0 + double(world.muscles[m].overpressure) * double(stats[m].activation) + 0.02;
            if (ratio < min_ratio) min_ratio = ratio, worst_low = stats[m].name;
            max_ratio = std::max(max_ratio, ratio);
            const bool flexor = m == biceps || m == brachialis;
            if (flexor && ratio - bound > max_excess) max_excess = ratio - bound, worst_high = stats[m].name;
        }
    }
    // Flexion peaks at 2 s (frame 60): the biceps is then far more active
    // than at the start, and relaxes again on the way back.
    EXPECT_LT(biceps_activation[5], 0.1f);
    EXPECT_GT(biceps_activation[60], 0.6f);
    EXPECT_GT(biceps_activation[60], biceps_activation[30]);
    EXPECT_LT(biceps_activation[120], 0.3f);
    // At full flexion the elbow flexors are at least 10% shorter and the
    // extensors, wrapped around the olecranon, longer.
    EXPECT_LT(biceps_length[60], 0.9);
    EXPECT_LT(brachialis_length[60], 0.9);
    for (int k = 0; k < 3; ++k) EXPECT_GT(triceps_length[k][60], 1.0) << "triceps head " << k;
    EXPECT_GT(min_ratio, 0.9) << worst_low;
    EXPECT_LT(max_ratio, 1.3);
    EXPECT_LE(max_excess, 0.0) << worst_high;
    // No vertex more than 1 mm past the contact radius inside a bone at any
    // frame (at full flexion the skin carried a brachioradialis vertex 23 mm
    // in one frame, 5.7 mm into the humerus, before sim/bone_catch.h).
    EXPECT_LE(worst_penetration, 0.001f) << "frame " << worst_frame;
}

// Sliding connections layer a muscle on the outside of its bone: none is set
// up for a vertex inside the bone, and through the flexion no connected
// vertex ends up on the inner side (signed C = (p − q)·n − d0; with the
// unsigned |p − q| − d0, vertices of the supinator set up inside the radius
// were flung through it in T6 and its volume swung between 0.14 and 2.8).
TEST(ArmScenes, SlidingConnectionsKeepVerticesOutsideTheirBone) {
    app::SceneDriver d;
    load(d, asset("t5-arm-flexion.glb"));
    const sim::World& w = d.sim().world();
    ASSERT_FALSE(w.sliding.empty());
    for (const auto& c : w.sliding) ASSERT_GE(c.d0, 0.0f);
    for (int f = 0; f < 60; ++f) ASSERT_TRUE(d.step().ok);
    float worst = 0.0f;
    for (const auto& c : w.sliding) worst = std::min(worst, glm::dot(w.particles.x[c.particle] - c.q, c.n));
    EXPECT_GT(worst, -0.002f);
}

// Muscle against muscle is its own family (tissue, compliant by default)
// next to muscle against bone (contact, hard): on T5 each one's stiffness
// changes the result on its own, and the flexing arm has contacts of both.
TEST(ArmScenes, TissueContactsAreTheirOwnFamily) {
    struct Outcome {
        uint64_t hash;
        size_t tissue, bone;
    };
    auto runWith = [](sim::Family f, float k) {
        app::SceneDriver d;
        sim::SolverParams p;
        if (f != sim::Family::Count) p.xpbd_stiffness[f] = k;
        load(d, asset("t5-arm-flexion.glb"), p);
        for (int i = 0; i < 30; ++i) EXPECT_TRUE(d.step().ok);
        Outcome o{d.sim().positionsHash(), 0, 0};
        for (const auto& c : d.sim().world().contacts) (c.tissue ? o.tissue : o.bone)++;
        return o;
    };
    const Outcome base = runWith(sim::Family::Count, 0.0f);
    EXPECT_GT(base.tissue, 0u);
    EXPECT_GT(base.bone, 0u);
    EXPECT_NE(runWith(sim::Family::Tissue, sim::kInfiniteStiffness).hash, base.hash);
    EXPECT_NE(runWith(sim::Family::Contact, 1e-3f).hash, base.hash);
    EXPECT_EQ(sim::parseFamily("tissue"), sim::Family::Tissue);
    const sim::FamilyStiffness k = sim::FamilyStiffness::xpbdDefaults();
    EXPECT_FALSE(std::isinf(k[sim::Family::Tissue]));
    EXPECT_TRUE(std::isinf(k[sim::Family::Contact]));
}

// T6, the fighting arm (docs/scene-format.md (the scenes); the bar): 300 frames at 10
// iterations with the scene's own settings (3 substeps, muscles carried by
// their bones' acceleration) — no NaN, attachments exact, no vertex more
// than the contact radius inside a bone it collides with, and no muscle
// crushed or blown up (volumes within 0.8–1.3, the bar of rest; flexors may reach
// 1.2 by overpressure). Without carry (same substeps) the anconeus was
// crushed to 0.49 of its volume and a triceps went 4.8 mm into the humerus.
TEST(ArmScenes, T6FightingKeepsMusclesOutOfTheBones) {
    app::SceneDriver d;
    sim::SolverParams p;
    p.iterations = 10;
    load(d, asset("t6-arm-fighting.glb"), p);
    ASSERT_EQ(d.sim().params().substeps, 3) << "the scene's own substeps";
    ASSERT_EQ(d.sim().params().carry, 1.0f) << "the scene's own carry";
    float worst_penetration = 0.0f;
    int worst_frame = -1;
    double lo = 1.0, hi = 1.0;
    std::string lo_name, hi_name;
    for (int f = 0; f < 300; ++f) {
        ASSERT_TRUE(d.step().ok) << "frame " << f;
        ASSERT_LT(d.sim().residuals().attachment, 1e-5f) << "frame " << f;
        const auto pen = d.sim().bonePenetration();
        if (pen.depth > worst_penetration) worst_penetration = pen.depth, worst_frame = f;
        for (const auto& st : d.sim().muscleStats()) {
            const double r = double(st.volume) / double(st.rest_volume);
            if (r < lo) lo = r, lo_name = st.name;
            if (r > hi) hi = r, hi_name = st.name;
        }
    }
    // The bar: no vertex more than 1 mm past the contact radius inside a bone.
    EXPECT_LE(worst_penetration, 0.001f) << "frame " << worst_frame;
    EXPECT_GT(lo, 0.8) << lo_name;
    EXPECT_LT(hi, 1.3) << hi_name;
}

// T7, the whole body walking and then running (240 frames = 8 s), with the
// scene's own settings (3 substeps, carry 1): no NaN, attachments exact, no
// vertex more than 5 mm past the contact radius inside a bone, volumes within
// 0.8–1.3. At 1 substep without carry the calf muscles went 19 mm into the
// foot; the packed calf at 2 substeps 13 mm while running.
TEST(ArmScenes, T7WalkAndRunKeepMusclesOutOfTheBones) {
    app::SceneDriver d;
    load(d, asset("t7-body-walk-run.glb"));
    ASSERT_EQ(d.sim().params().substeps, 3);
    ASSERT_EQ(d.sim().params().carry, 1.0f);
    float worst = 0.0f;
    int worst_frame = -1;
    double lo = 1.0, hi = 1.0;
    for (int f = 0; f < 240; ++f) {
        ASSERT_TRUE(d.step().ok) << "frame " << f;
        ASSERT_LT(d.sim().residuals().attachment, 1e-5f) << "frame " << f;
        const float pen = d.sim().bonePenetration().depth;
        if (pen > worst) worst = pen, worst_frame = f;
        for (const auto& st : d.sim().muscleStats()) {
            const double r = double(st.volume) / double(st.rest_volume);
            lo = std::min(lo, r);
            hi = std::max(hi, r);
        }
    }
    EXPECT_LE(worst, 0.005f) << "frame " << worst_frame;
    EXPECT_GT(lo, 0.8);
    EXPECT_LT(hi, 1.3);
}

}  // namespace

// A vertex the solve left inside a bone capsule, with or without a contact,
// is set back on the capsule's surface (sim/bone_catch.h); nothing else moves.
#include <cmath>

#include <gtest/gtest.h>

#include "sim/bone_catch.h"
#include "sim/geometry.h"
#include "sim/world.h"
#include "tests/sim/box_muscle.h"

namespace {

// A 4 cm box muscle beside a capsule bone (radius 1 cm along y, its axis
// 3.5 cm from the box's centre): the box's −x face lies 5 mm outside it.
sim::SceneDesc boxBesideBone() {
    sim::SceneDesc s;
    s.name = "box-beside-bone";
    sim::BodyDesc bone;
    bone.name = "bone";
    bone.capsule_a = {-0.035f, -0.05f, 0.0f};
    bone.capsule_b = {-0.035f, 0.05f, 0.0f};
    bone.capsule_radius = 0.01f;
    s.bodies.push_back(bone);
    s.muscles.push_back(sim_test::boxMuscle("box", {0.0f, 0.0f, 0.0f}, {0.02f, 0.02f, 0.02f}));
    s.muscles[0].contact_targets.push_back({sim::TargetDesc::Kind::Body, 0});
    return s;
}

TEST(BoneCatch, AVertexInsideABoneIsSetOnItsSurfaceAndNothingElseMoves) {
    sim::World w;
    ASSERT_EQ(sim::buildWorld(boxBesideBone(), w), "");
    auto& P = w.particles;
    const sim::Muscle& m = w.muscles[0];
    // Two surface vertices of the −x face pushed 6 mm and 8 mm into the
    // capsule, and a third, held (w = 0) as an attachment would be.
    std::vector<uint32_t> face;
    for (uint32_t i = m.first; i < m.first + m.surface_count; ++i)
        if (std::abs(P.p[i].x + 0.02f) < 1e-6f && std::abs(P.p[i].y) < 0.015f && std::abs(P.p[i].z) < 0.005f) face.push_back(i);
    ASSERT_GE(face.size(), 3u);
    const uint32_t a = face[0], b = face[1], held = face[2];
    P.p[a].x -= 0.011f;  // 6 mm inside
    P.p[b].x -= 0.013f;  // 8 mm inside
    P.p[held].x -= 0.013f;
    P.w[held] = 0.0f;
    const std::vector<glm::vec3> before = P.p;

    EXPECT_EQ(sim::catchBoneCapsules(w), 2u);
    for (uint32_t i : {a, b}) {
        const sim::ClosestPoint c = sim::closestOnBodyCapsule(P.p[i], w.bodies[0]);
        EXPECT_NEAR(c.signed_distance, 0.0f, 1e-6f) << "vertex " << i << " on the surface";
        EXPECT_NEAR(P.p[i].y, before[i].y, 1e-6f) << "moved along the capsule's normal";
    }
    for (uint32_t i = 0; i < P.size(); ++i) {
        if (i == a || i == b) continue;
        EXPECT_EQ(P.p[i], before[i]) << "vertex " << i << " moved";
    }
    // Caught once, a second pass finds nothing.
    EXPECT_EQ(sim::catchBoneCapsules(w), 0u);
}

}  // namespace

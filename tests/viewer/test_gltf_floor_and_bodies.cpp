// What the renderer makes of a glTF character (issue 14): the floor and
// "frame all" from where its meshes reach over the whole animation (a
// RiggedSimple-like figure half below y = 0 stands on the floor, not in it),
// and bones that collide as capsules without a mesh are drawn.
#include <gtest/gtest.h>

#include "../engine/gltf_test_util.h"
#include "engine/gltf/gltf_loader.h"
#include "engine/render/draw_topology.h"
#include "sim/simulation.h"
#include "viewer_test_util.h"

namespace {

TEST(GltfFloorAndBodies, TheFloorAndFramingHoldTheWholeAnimationOfASceneWithoutMuscles) {
    const auto dir = gltf_test::tempDir("floor");
    const std::string scene = (dir / "bar.glb").string();
    // The bar's foot at y = −1.5; bent, its top reaches x = −1 (not at rest).
    gltf_test::writeFile(scene, gltf_test::riggedBar(-1.5f).glb());
    engine::Scene s;
    ASSERT_EQ(engine::loadGltfScene(scene, s), "");
    sim::Simulation sim;
    ASSERT_EQ(sim.load(s.desc), "");
    const engine::render::DrawTopology t = engine::render::buildDrawTopology(sim.world(), &s, {});
    EXPECT_NEAR(t.mesh_motion_lo.y, -1.5f, 1e-5f);
    // The top corners swing through (−sin θ ∓ 0.1 cos θ, 1 + cos θ ± 0.1 sin θ)
    // about J1: at most √1.01 from it, reached only during the clip (the
    // sweep samples it 48 times).
    const float reach = std::sqrt(1.01f);
    EXPECT_NEAR(t.mesh_motion_lo.x, -reach, 2e-3f);
    EXPECT_NEAR(t.mesh_motion_hi.y, -0.5f + reach, 2e-3f);

    auto v = viewer_test::openViewer(scene, 480, 300);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a)";
    ASSERT_TRUE(v->runUntilSteps(3, 60.0));
    v->frame();
    // The floor under the foot from the first frames, not at y = 0.
    const float floor_y = v->renderer().lastGroundOrigin().y;
    EXPECT_LT(floor_y, -1.5f);
    EXPECT_GT(floor_y, -1.7f);
    // "Frame all" covers the bent pose too.
    const app::viewer::SimFrame& f = v->shown();
    ASSERT_TRUE(f.scene && !f.scene->motion_spheres.empty());
    float lo_x = 1e30f;
    for (const glm::vec4& s : f.scene->motion_spheres) lo_x = std::min(lo_x, s.x - s.w);
    EXPECT_LT(lo_x, -0.99f);
    // A solver switch rebuilds the scene's info; what "frame all" fits stays
    // the same samples (the mesh corners are not added again).
    const size_t samples = f.scene->motion_spheres.size();
    const uint64_t generation = f.scene->generation;
    ASSERT_EQ(v->actions().setSolver(sim::SolverKind::Jacobi), "");
    for (int i = 0; i < 200 && !(v->shown().scene && v->shown().scene->generation > generation); ++i)
        ASSERT_TRUE(v->runUntilFresh(60.0));
    ASSERT_TRUE(v->shown().scene);
    ASSERT_GT(v->shown().scene->generation, generation) << "the solver switch did not rebuild";
    EXPECT_EQ(v->shown().scene->motion_spheres.size(), samples);
    std::filesystem::remove_all(dir);
}

TEST(GltfFloorAndBodies, CapsuleBonesWithoutAMeshAreDrawn) {
    // The muscle's bone collides as a capsule (0, 0, 0)–(0, −1, 0), r = 5 cm,
    // and has no mesh.
    gltf_test::Builder b = gltf_test::muscleFile(
        {{"origins", {0}}, {"insertions", {3}}, {"origin_bone", "bone"}, {"insertion_bone", "hand"}, {"contacts", {"bone"}}});
    engine::Scene s;
    ASSERT_EQ(engine::loadGltfSceneFromMemory(b.glb(), "capsule.glb", ".", s), "");
    sim::Simulation sim;
    ASSERT_EQ(sim.load(s.desc), "");
    const engine::render::DrawTopology t = engine::render::buildDrawTopology(sim.world(), &s, {});
    const engine::render::BoneMesh* cap = nullptr;
    for (const auto& m : t.bones)
        if (m.name == "bone (capsule)") cap = &m;
    ASSERT_NE(cap, nullptr);
    EXPECT_EQ(cap->follow, engine::render::BoneMesh::Follow::Body);
    // Every vertex 5 cm from the segment, in the body's frame.
    for (const glm::vec3& p : cap->positions) {
        const float y = std::clamp(p.y, -1.0f, 0.0f);
        EXPECT_NEAR(glm::length(p - glm::vec3(0, y, 0)), 0.05f, 1e-5f);
    }
    EXPECT_GT(cap->indices.size(), 300u);
}

}  // namespace

// The drawn skin that wraps the muscles (sim/skin_wrap.h, docs/model.md
// §3.9) as a viewer sees it: no muscle vertex shows through it, and where
// nothing presses it, it is the skin as posed.
#include <algorithm>

#include <gtest/gtest.h>

#include "engine/mesh/mesh_builders.h"
#include "sim/envelope.h"
#include "sim/simulation.h"
#include "sim/skin_wrap.h"
#include "tests/sim/box_muscle.h"

namespace {

// A 4 × 3 × 3 cm box muscle whose +x end reaches `beyond` m past the +x face
// of a 6 × 5 × 5 cm skin box.
sim::SceneDesc boxThroughSkin(float beyond) {
    sim::SceneDesc s;
    s.name = "box through skin";
    s.gravity_scale = 0.0f;
    s.muscles.push_back(sim_test::boxMuscle("box", {0.01f + beyond, 0.0f, 0.0f}, {0.02f, 0.015f, 0.015f}));
    const engine::MeshData skin = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.03f, 0.025f, 0.025f}, 10);
    s.envelope.name = "skin";
    s.envelope.vertices = skin.vertices;
    s.envelope.triangles = skin.triangles;
    return s;
}

TEST(SkinWrap, NoMuscleVertexIsOutsideTheDrawnSkin) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxThroughSkin(0.01f)), "");
    const sim::World& w = s.world();
    // The skin as posed: the muscle's end is 1 cm out of it.
    EXPECT_NEAR(sim::measureOutside(w, w.particles.x, w.envelope.curr, true).deepest, 0.01f, 1e-4f);
    sim::SkinWrapScratch scratch;
    std::vector<glm::vec3> drawn;
    sim::wrapSkin(w, w.particles.x, sim::kSkinWrapClearance, scratch, drawn);
    ASSERT_EQ(drawn.size(), w.envelope.curr.size());
    // Wrapped: every surface vertex (attached ones too) is inside it.
    const sim::EnvelopeOutside o = sim::measureOutside(w, w.particles.x, drawn, true);
    EXPECT_EQ(o.deepest, 0.0f);
    EXPECT_EQ(o.vertices_past_1mm, 0);
    // It bulged out where the muscle pressed (+x), and stayed as posed on
    // the far side, which nothing presses.
    float bulge = 0.0f, far_side = 0.0f;
    for (size_t v = 0; v < drawn.size(); ++v) {
        const float moved = glm::length(drawn[v] - w.envelope.curr[v]);
        if (w.envelope.curr[v].x > 0.029f) bulge = std::max(bulge, moved);
        if (w.envelope.curr[v].x < -0.029f) far_side = std::max(far_side, moved);
    }
    EXPECT_GT(bulge, 0.01f);
    EXPECT_EQ(far_side, 0.0f);
}

// A vertex whose walk over the skin starts on the far side (where the last
// frame's walk ended before the limb swung: T7's running knee) comes to
// rest there, "inside" behind that side's triangles; the exact wrap sees
// from the winding number that it is outside and covers it all the same.
TEST(SkinWrap, AWalkThatRestsOnTheFarSideStillCoversTheVertex) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxThroughSkin(0.01f)), "");
    // No vertex bound to the skin (as a muscle no limb's skin holds): each
    // walks from where its last walk ended.
    sim::World w = s.world();
    std::fill(w.envelope.tri.begin(), w.envelope.tri.end(), -1);
    sim::SkinWrapScratch scratch;
    std::vector<glm::vec3> drawn;
    sim::wrapSkin(w, w.particles.x, sim::kSkinWrapClearance, scratch, drawn);
    ASSERT_EQ(sim::measureOutside(w, w.particles.x, drawn, true).deepest, 0.0f);
    // Every walk now starts on the skin's −x face, 7 cm from the muscle's
    // +x end.
    int far_side = -1;
    for (size_t t = 0; t < w.envelope.triangles.size() && far_side < 0; ++t) {
        const glm::uvec3 tri = w.envelope.triangles[t];
        if (w.envelope.curr[tri.x].x < -0.029f && w.envelope.curr[tri.y].x < -0.029f && w.envelope.curr[tri.z].x < -0.029f)
            far_side = int(t);
    }
    ASSERT_GE(far_side, 0);
    for (int32_t& h : scratch.hint)
        if (h >= 0) h = far_side;
    sim::wrapSkin(w, w.particles.x, sim::kSkinWrapClearance, scratch, drawn);
    const sim::EnvelopeOutside o = sim::measureOutside(w, w.particles.x, drawn, true);
    EXPECT_EQ(o.deepest, 0.0f);
    EXPECT_EQ(o.vertices_past_1mm, 0);
}

TEST(SkinWrap, ASkinNothingPressesIsDrawnAsPosed) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxThroughSkin(-0.008f)), "");  // 2 mm under the +x face at least
    const sim::World& w = s.world();
    sim::SkinWrapScratch scratch;
    std::vector<glm::vec3> drawn;
    sim::wrapSkin(w, w.particles.x, sim::kSkinWrapClearance, scratch, drawn);
    EXPECT_EQ(drawn, w.envelope.curr);
}

}  // namespace

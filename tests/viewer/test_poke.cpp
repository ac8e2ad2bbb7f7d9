// Poke (sim/poke.h, the viewer's Ctrl+drag), through the action layer: a
// drag pulls the grabbed vertex toward the cursor while the sim runs;
// released, the muscle returns to where an unpoked run has it. The pass is
// marked poked (the timeline, the report). Determinism is not claimed for
// poked runs.
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "app/viewer/actions.h"
#include "app/viewer/sim_thread.h"
#include "app/viewer/study.h"
#include "sim_rig.h"

using namespace app::viewer;

// Named (not anonymous): the unity build may put this file with other tests.
namespace poke_test {

using viewer_test::Rig;
using viewer_test::waitFor;

// `n` frames stepped through the action layer; the position of particle i after them.
glm::vec3 stepFrames(Rig& r, int n, uint32_t i) {
    for (int k = 0; k < n; ++k) {
        const int64_t want = r.sim.latest().position + 1;
        r.actions.stepForward(1);
        EXPECT_TRUE(waitFor(r.sim, [&](const SimFrame& f) { return f.position == want; }));
    }
    return r.sim.latest().x[i];
}

}  // namespace poke_test


TEST(Poke, ADragPullsTheGrabbedVertexAndReleasedTheMuscleReturns) {
    viewer_test::Rig r;
    r.state.controls.playing = false;
    r.state.controls.want_skin_wrap = false;
    r.sim.setControls(r.state.controls);
    r.sim.start();
    r.actions.openScene(std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/t2-biceps.glb");
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return f.scene && f.scene->topology; }));
    r.actions.adoptScene(*r.sim.latest().scene);
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return f.position == 0 && !f.x.empty(); }));
    // The biceps held at both ends: grab the surface vertex farthest from
    // every held one (mid-belly).
    const auto& topo = *r.sim.latest().scene->topology;
    ASSERT_FALSE(topo.attachments.empty());
    const std::vector<glm::vec3> x0 = r.sim.latest().x;
    auto clearance = [&](uint32_t i) {
        float d = 1e30f;
        for (uint32_t a : topo.attachments) d = std::min(d, glm::length(x0[i] - x0[a]));
        return d;
    };
    uint32_t tip = 0;
    for (uint32_t i = 0; i < topo.muscles[0].surface_count; ++i)
        if (clearance(i) > clearance(tip)) tip = i;

    // Unpoked: where the tip is after 20 and after 320 frames.
    const glm::vec3 free20 = poke_test::stepFrames(r, 20, tip);
    const glm::vec3 free320 = poke_test::stepFrames(r, 300, tip);
    EXPECT_FALSE(r.sim.latest().poked);

    r.actions.reset();
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return f.position == 0; }));
    // 3 cm off, away from the muscle's axis (the held ends' middle).
    const glm::vec3 mid = 0.5f * (x0[topo.attachments.front()] + x0[topo.attachments.back()]);
    glm::vec3 out = x0[tip] - mid;
    out = glm::length(out) > 1e-6f ? glm::normalize(out) : glm::vec3(1.0f, 0.0f, 0.0f);
    const glm::vec3 target = x0[tip] + 0.03f * out;
    r.actions.poke(tip, target);
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return f.poking; }));
    const glm::vec3 poked20 = poke_test::stepFrames(r, 20, tip);
    EXPECT_TRUE(r.sim.latest().poked);
    EXPECT_LT(glm::length(poked20 - target), 0.5f * glm::length(free20 - target))
        << "pulled toward the cursor: " << glm::length(poked20 - target) * 1e3f << " mm from it, unpoked "
        << glm::length(free20 - target) * 1e3f << " mm";
    EXPECT_GT(glm::length(poked20 - free20), 0.02f) << "the tip moved with the drag";

    r.actions.pokeRelease();
    ASSERT_TRUE(viewer_test::waitFor(r.sim, [](const SimFrame& f) { return !f.poking; }));
    const glm::vec3 back = poke_test::stepFrames(r, 300, tip);
    EXPECT_LT(glm::length(back - free320), 0.1f * glm::length(poked20 - free20))
        << "released, the muscle returns: " << glm::length(back - free320) * 1e3f << " mm from the unpoked run";
    EXPECT_TRUE(r.sim.latest().poked) << "the pass stays marked poked";
    r.sim.stop();
}

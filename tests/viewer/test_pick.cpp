// Pick (app/viewer/pick.h): a click at a muscle's projected centroid selects
// that muscle, hovering names it, a click on empty view clears the selection,
// and a click over a panel does nothing to it.
#include <string>

#include <glm/geometric.hpp>

#include <gtest/gtest.h>

#include "app/viewer/pick.h"
#include "viewer_test_util.h"

namespace {

glm::vec3 centroid(const app::viewer::SimFrame& f, size_t m) {
    const auto& md = f.scene->topology->muscles[m];
    glm::vec3 c(0.0f);
    for (uint32_t i = md.first; i < md.first + md.surface_count; ++i) c += f.x[i];
    return c / float(md.surface_count);
}

TEST(Pick, AClickAtAMusclesProjectedCentroidSelectsThatMuscle) {
    const std::string t4 = viewer_test::sceneFile("t4-");
    ASSERT_FALSE(t4.empty());
    auto v = viewer_test::openViewer(t4, 1280, 720);
    ASSERT_TRUE(v);
    ASSERT_TRUE(v->runUntilSteps(1, 120.0));
    v->frame();
    const size_t n = v->shown().scene->topology->muscles.size();
    ASSERT_GE(n, 2u);
    for (size_t m = 0; m < n; ++m) {
        SCOPED_TRACE(v->shown().scene->muscle_names[m]);
        // Only this muscle drawn: the ray through its centroid meets it.
        for (size_t o = 0; o < n; ++o) v->actions().setMuscleHidden(o, o != m);
        v->frame();
        glm::vec2 p;
        ASSERT_TRUE(app::viewer::projectToWindow(v->state().camera, centroid(v->shown(), m), 1280.0f, 720.0f, p));
        v->hoverAt(p.x, p.y);
        EXPECT_EQ(v->state().hover_muscle, int(m)) << "hovering names it";
        v->clickAt(p.x, p.y);
        EXPECT_EQ(v->state().render.selected_muscle, int(m)) << "at " << p.x << ", " << p.y;
        // Hidden, it is not picked: the ray goes through to nothing.
        v->actions().setMuscleHidden(m, true);
        v->frame();
        v->hoverAt(p.x, p.y);
        EXPECT_EQ(v->state().hover_muscle, -1) << "a hidden muscle is not picked";
    }
    for (size_t o = 0; o < n; ++o) v->actions().setMuscleHidden(o, false);
    v->frame();
    glm::vec2 p;
    ASSERT_TRUE(app::viewer::projectToWindow(v->state().camera, centroid(v->shown(), 0), 1280.0f, 720.0f, p));
    v->clickAt(p.x, p.y);
    const int picked = v->state().render.selected_muscle;
    EXPECT_GE(picked, 0) << "something is drawn there";
    // Ctrl + drag there grabs a particle of the muscle drawn there (sim/poke.h); letting go releases it.
    ASSERT_TRUE(v->pokeStart(p.x, p.y));
    const auto& ctl = v->state().controls;
    EXPECT_TRUE(ctl.poke_active);
    const auto& md = v->shown().scene->topology->muscles[size_t(picked)];
    EXPECT_TRUE(ctl.poke_particle >= md.first && ctl.poke_particle < md.first + md.surface_count);
    const glm::vec3 grabbed = ctl.poke_target;
    v->pokeMove(p.x + 80.0f, p.y);
    EXPECT_GT(glm::length(ctl.poke_target - grabbed), 0.005f) << "the target follows the mouse";
    v->pokeEnd();
    EXPECT_FALSE(ctl.poke_active);
    // Over the side bar: the selection stays.
    v->clickAt(100.0f, p.y);
    EXPECT_EQ(v->state().render.selected_muscle, picked);
    // Empty sky in the view's top-right corner: cleared.
    const auto& a = v->state().free_area;
    v->clickAt(a.right - 20.0f, a.top + 60.0f);
    EXPECT_EQ(v->state().render.selected_muscle, -1);
}

// The ray and the projection agree: a point projected to the window lies on
// the ray through that window point, with the viewer's off-axis shift on.
TEST(Pick, TheRayThroughAProjectedPointPassesThroughIt) {
    engine::render::OrbitCamera cam;
    cam.target = glm::vec3(0.1f, 1.0f, -0.2f);
    cam.distance = 2.0f;
    cam.shift_x = 0.3f;
    cam.shift_y = -0.1f;
    for (const glm::vec3 q : {glm::vec3(0.1f, 1.0f, -0.2f), glm::vec3(0.4f, 0.7f, 0.1f), glm::vec3(-0.3f, 1.5f, -0.6f)}) {
        glm::vec2 p;
        ASSERT_TRUE(app::viewer::projectToWindow(cam, q, 1280.0f, 720.0f, p));
        const app::viewer::Ray r = app::viewer::rayThrough(cam, p.x, p.y, 1280.0f, 720.0f);
        const glm::vec3 d = q - r.origin;
        const float off = glm::length(d - glm::dot(d, r.dir) * r.dir);
        EXPECT_LT(off, 1e-4f) << q.x << " " << q.y << " " << q.z;
    }
}

}  // namespace

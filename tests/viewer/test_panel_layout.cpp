// Where the viewer's own texts sit: warnings and messages over the 3D view
// never run under the panels, however long they are or wherever the user has
// moved the panels.
#include <string>

#include <gtest/gtest.h>

#include "app/viewer/panel_text.h"
#include "viewer_test_util.h"

namespace {

// The threads slider says what runs: "auto (N)" for the setting 0, as the
// status line's count, not a bare 0.
TEST(PanelText, ThreadsSliderSaysAutoWithTheCountInUse) {
    using app::viewer::threadsSliderText;
    EXPECT_EQ(threadsSliderText(0, 2), "auto (2)");
    EXPECT_EQ(threadsSliderText(0, 16), "auto (16)");
    EXPECT_EQ(threadsSliderText(3, 2), "3");
    EXPECT_EQ(threadsSliderText(3, 2).find('%'), std::string::npos);  // ImGui would read it as a format
}

TEST(PanelText, OnlyTheColouringSolversCountColours) {
    using app::viewer::solverColours;
    EXPECT_FALSE(solverColours(sim::SolverKind::Sst));
    EXPECT_FALSE(solverColours(sim::SolverKind::Jacobi));
    EXPECT_TRUE(solverColours(sim::SolverKind::Coloring));
    EXPECT_TRUE(solverColours(sim::SolverKind::Hybrid));
}

// Each residual keeps its number and unit together on a line the Statistics
// panel holds unwrapped (it is ~45 characters wide at its default size).
TEST(PanelText, ResidualsFitThePanelWithTheirUnits) {
    sim::Residuals r;
    r.distance = 5.54e-3f, r.volume_rel = 5.58e-3f, r.penetration = -8.26e-3f, r.attachment = 1.0e-12f;
    const auto lines = app::viewer::residualLines(r);
    ASSERT_EQ(lines.size(), 2u);
    std::string all;
    for (const std::string& l : lines) {
        EXPECT_LE(l.size(), 45u) << l;
        all += l + "\n";
    }
    for (const char* part : {"dist 5.54e-03 m", "vol 5.58e-03", "pen -8.26e-03 m", "att 1.00e-12 m"})
        EXPECT_NE(all.find(part), std::string::npos) << part << " in\n" << all;
}

struct Rect {
    float x, y, w, h;
};

Rect infoRect(app::viewer::Viewer& v) {
    const float* r = v.state().info_rect;
    return {r[0], r[1], r[2], r[3]};
}

// A message as long as a file's error can be: it must wrap inside the view.
TEST(ViewerLayout, LongWarningsWrapInsideTheViewInsteadOfCoveringThePanels) {
    auto v = viewer_test::openViewer("builtin:t1", 1280, 720);
    ASSERT_TRUE(v);
    ASSERT_TRUE(v->runUntilSteps(1, 60.0));
    const Rect short_one = infoRect(*v);
    std::string long_text = "scene.glb: error: ";
    while (long_text.size() < 600) long_text += "a very long message from a file that names every part of the problem; ";
    v->state().status = long_text;
    ASSERT_TRUE(v->runUntilFresh(60.0));
    v->frame();
    const Rect r = infoRect(*v);
    const auto& area = v->state().free_area;
    // The panels as laid out at 1280x720: controls on the left, statistics on the right.
    EXPECT_GE(area.left, 300.0f);
    EXPECT_LE(area.right, 1280.0f - 300.0f);
    EXPECT_GE(r.x, area.left) << "the overlay starts under the left panel";
    EXPECT_LE(r.x + r.w, area.right) << "the overlay runs under the Statistics panel";
    EXPECT_LE(r.y + r.h, area.bottom) << "the overlay runs under the timeline";
    // Wrapped: several lines, not one line as wide as the message.
    EXPECT_GT(r.h, short_one.h + 3.0f * 13.0f);
}

}  // namespace

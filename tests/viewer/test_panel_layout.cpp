// Where the viewer's own texts sit: warnings and messages over the 3D view
// never run under the panels, however long they are or wherever the user has
// moved the panels.
#include <string>

#include <gtest/gtest.h>

#include "app/viewer/panel_text.h"
#include "engine/render/render_options.h"
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

bool overlaps(const Rect& a, const Rect& b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

// The activation legend sits in a bottom corner of the view, inside it, off
// the info overlay (timings on, or a long warning pushing it down), and off
// the bottom middle where a standing figure's feet are.
TEST(ViewerLayout, TheLegendStaysInACornerOfTheViewClearOfTheInfoOverlay) {
    auto v = viewer_test::openViewer("builtin:t1", 1280, 720);
    ASSERT_TRUE(v);
    v->actions().setOverlay(engine::render::Overlay::Glow, true);
    v->state().show_timings = true;
    ASSERT_TRUE(v->runUntilSteps(1, 60.0));
    for (const bool long_warning : {false, true}) {
        if (long_warning) {
            std::string text = "scene.glb: error: ";
            while (text.size() < 1500) text += "a very long message from a file that names every part of the problem; ";
            v->state().status = text;
        }
        v->frame();
        v->frame();
        const float* l = v->state().legend_rect;
        const Rect legend{l[0], l[1], l[2], l[3]}, info = infoRect(*v);
        const auto& area = v->state().free_area;
        ASSERT_GT(legend.w, 0.0f) << "no legend drawn with the glow on";
        EXPECT_GE(legend.x, area.left);
        EXPECT_LE(legend.x + legend.w, area.right);
        EXPECT_LE(legend.y + legend.h, area.bottom);
        EXPECT_GT(legend.y, area.top + 0.5f * (area.bottom - area.top)) << "not in the lower half";
        const float middle = 0.5f * (area.left + area.right);
        EXPECT_FALSE(legend.x < middle && legend.x + legend.w > middle) << "over the bottom middle of the view";
        EXPECT_FALSE(overlaps(legend, info)) << (long_warning ? "with a long warning" : "with the timings");
    }
}

}  // namespace

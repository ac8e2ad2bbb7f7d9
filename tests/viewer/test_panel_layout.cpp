// Where the viewer's own texts sit: warnings and messages over the 3D view
// never run under the panels, however long they are or wherever the user has
// moved the panels.
#include <algorithm>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "app/viewer/panel_text.h"
#include "app/viewer/pick.h"
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
    // The panels as laid out at 1280x720: the side bar on the left.
    EXPECT_GE(area.left, 300.0f);
    EXPECT_GE(r.x, area.left) << "the overlay starts under the side bar";
    EXPECT_LE(r.x + r.w, area.right) << "the overlay runs off the view";
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

// The view gets the window: at 1280x720 the panels leave at least two thirds
// of the width and most of the height to the 3D view, and the figure is
// framed in the middle of that free part (an off-axis projection), not in the
// middle of the window behind the side bar.
TEST(ViewerLayout, TheViewGetsTwoThirdsOfTheWidthAndTheFigureIsFramedInIt) {
    const std::string t5 = viewer_test::t5Scene();
    ASSERT_FALSE(t5.empty());
    auto v = viewer_test::openViewer(t5, 1280, 720);
    ASSERT_TRUE(v);
    ASSERT_TRUE(v->runUntilSteps(1, 120.0));
    v->actions().setSkin(false);
    v->actions().frameAll();
    for (int i = 0; i < 3; ++i) v->frame();
    const auto& area = v->state().free_area;
    EXPECT_GE(area.right - area.left, 1280.0f * 2.0f / 3.0f) << "left " << area.left << " right " << area.right;
    EXPECT_GE(area.bottom - area.top, 0.8f * 720.0f);
    // The muscles' pixels (saturated red) lie in the free part, centred in it.
    const viewer_test::Image im = viewer_test::grab(*v);
    ASSERT_GT(im.w, 0);
    const float sx = float(im.w) / 1280.0f;
    double sum_x = 0.0;
    size_t n = 0, under_panel = 0;
    for (int y = 0; y < im.h; ++y)
        for (int x = 0; x < im.w; ++x) {
            const uint8_t* p = im.at(x, y);
            const int mx = std::max({p[0], p[1], p[2]}), mn = std::min({p[0], p[1], p[2]});
            if (mx - mn < 60 || p[0] < p[2] + 40) continue;  // red muscle, not the panels' blue
            ++n;
            sum_x += x;
            under_panel += float(x) < area.left * sx;
        }
    ASSERT_GT(n, 2000u) << "the muscles are drawn";
    EXPECT_LT(double(under_panel), 0.01 * double(n)) << "muscle pixels behind the side bar";
    const double centre = sum_x / double(n) / double(sx), free_centre = 0.5 * (area.left + area.right);
    EXPECT_NEAR(centre, free_centre, 0.08 * double(area.right - area.left))
        << "the figure's middle against the free part's middle";
}

}  // namespace


namespace {

// The default view (frame all at the start): the figure as drawn fills most
// of the free part of the window — T6's arm too, whose strikes reach far
// from it — and lies inside it (the muscles' particles, projected).
TEST(ViewerLayout, TheDefaultViewFillsTheFreeAreaWithTheFigure) {
    for (const char* prefix : {"t5-", "t6-", "t7-"}) {
        SCOPED_TRACE(prefix);
        const std::string file = viewer_test::sceneFile(prefix);
        ASSERT_FALSE(file.empty());
        auto v = viewer_test::openViewer(file, 1280, 720);
        ASSERT_TRUE(v);
        ASSERT_TRUE(v->runUntilSteps(1, 300.0));
        v->actions().frameAll();
        for (int i = 0; i < 3; ++i) v->frame();
        const auto& a = v->state().free_area;
        // The muscles as drawn, projected.
        const auto& x = v->shown().x;
        ASSERT_FALSE(x.empty());
        float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
        for (const glm::vec3& q : x) {
            glm::vec2 p;
            ASSERT_TRUE(app::viewer::projectToWindow(v->state().camera, q, 1280.0f, 720.0f, p));
            x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
        }
        const float share = std::max((x1 - x0) / (a.right - a.left), (y1 - y0) / (a.bottom - a.top));
 EXPECT_GE(share, 0.6f) << "the muscles span " << x1 - x0 << " x " << y1 - y0 << " px of "
                               << a.right - a.left << " x " << a.bottom - a.top;
        // Inside the free area.
        const float slack = 2.0f;
        EXPECT_GE(x0, a.left - slack);
        EXPECT_LE(x1, a.right + slack);
        EXPECT_GE(y0, a.top - slack);
        EXPECT_LE(y1, a.bottom + slack);
    }
}

}  // namespace

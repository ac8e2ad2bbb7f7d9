// Screenshots of real scenes through the whole viewer (sim thread, renderer,
// UI), run under `xvfb-run -a` by CTest. What a user would check by eye:
// something is drawn, the muscle is in the middle, activation changes the
// colours, every overlay changes the picture.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <vector>

#include <gtest/gtest.h>

#include "engine/render/png_writer.h"
#include "viewer_test_util.h"

using namespace viewer_test;
using engine::render::Overlay;

namespace {
const std::string kOut = std::string(MSXPBD_SOURCE_DIR) + "/build-screens";

void save(const Image& im, const std::string& name) {
    std::filesystem::create_directories(kOut);
    engine::render::writePng(kOut + "/" + name, im.w, im.h, im.px);
}
}  // namespace

TEST(ViewerScreenshot, T1IsDrawnWithTheMuscleInTheMiddle) {
    auto v = openViewer("builtin:t1", 1280, 720);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a)";
    ASSERT_TRUE(v->runUntilSteps(20, 120.0));
    v->frame();
    save(grab(*v), "t1-ui.png");
    // The panels cover the sides; the middle of the view is the muscle's.
    v->actions().setUiVisible(false);
    ASSERT_EQ(v->actions().execute("activation 0.5"), "");
    ASSERT_TRUE(v->runUntilFresh(30.0));
    v->frame();
    Image im = grab(*v);
    save(im, "t1.png");
    ASSERT_GT(im.w, 0);
    EXPECT_GT(stddev(im, kAll), 10.0) << "image is (nearly) uniform";
    size_t muscle = saturatedPixels(im, kMiddle);
    size_t area = size_t(0.3 * im.w * 0.4 * im.h);
    EXPECT_GT(muscle, area / 10) << "too few muscle-coloured pixels in the middle";
}

TEST(ViewerScreenshot, ActivationChangesTheMuscleColours) {
    auto v = openViewer("builtin:t1");
    ASSERT_TRUE(v);
    v->actions().setUiVisible(false);
    ASSERT_EQ(v->actions().execute("activation 0"), "");
    ASSERT_TRUE(v->runUntilSteps(15, 120.0));
    v->frame();
    Image a0 = grab(*v);
    ASSERT_EQ(v->actions().execute("activation 1"), "");
    uint64_t s = v->shown().steps;
    ASSERT_TRUE(v->runUntilSteps(s + 15, 120.0));
    v->frame();
    Image a1 = grab(*v);
    save(a0, "t1-a0.png");
    save(a1, "t1-a1.png");
    EXPECT_GT(meanAbsDiff(a0, a1, kMiddle), 8.0);
}

TEST(ViewerScreenshot, EveryOverlayChangesTheImage) {
    auto v = openViewer("builtin:t1");
    ASSERT_TRUE(v);
    v->actions().setUiVisible(false);
    // Colour groups exist only for the colouring solvers.
    ASSERT_EQ(v->actions().execute("set solver coloring"), "");
    ASSERT_EQ(v->actions().execute("activation 0.8"), "");  // something for the glow and the activation map
    ASSERT_TRUE(v->runUntilSteps(5, 120.0));
    v->actions().setPlaying(false);
    ASSERT_TRUE(v->runUntilFresh(30.0));
    v->frame();
    Image base = grab(*v);
    for (int i = 0; i < engine::render::kOverlayCount; ++i) {
        auto o = static_cast<Overlay>(i);
        std::string name(engine::render::overlayName(o));
        if (o == Overlay::Contacts && v->shown().contact_p.empty()) continue;  // nothing to show on t1
        if (o == Overlay::ColorGroups && (!v->shown().scene || v->shown().scene->colors == 0)) continue;
        // Toggled from its default (the glow is on by default).
        const bool was = v->state().render.overlay(o);
        v->actions().setOverlay(o, !was);
        if (o == Overlay::ErrorMap || o == Overlay::Overlap || o == Overlay::Drift || o == Overlay::Outside) {
            ASSERT_TRUE(v->runUntilFresh(30.0));  // the sim computes the error, overlap or drift field
        }
        v->frame();
        Image on = grab(*v);
        save(on, "t1-overlay-" + name + ".png");
        EXPECT_GT(changedPixels(base, on), size_t(20)) << "overlay " << name << " did not change the image";
        v->actions().setOverlay(o, was);
    }
    v->frame();
    EXPECT_LT(changedPixels(base, grab(*v)), size_t(20)) << "switching the overlays off does not restore the image";
}

// A per-vertex map's field (the overlap map: a ray test per vertex; the
// drift map: a nearest-surface search per vertex) is measured by the sim
// thread only while its overlay is on, one value per particle.
void expectMeasuredOnlyWhileShown(const char* overlay, std::vector<float> app::viewer::SimFrame::*field) {
    auto v = openViewer("builtin:p2");  // two touching muscles
    ASSERT_TRUE(v);
    ASSERT_EQ(v->actions().execute("activation 0.8"), "");
    ASSERT_TRUE(v->runUntilSteps(10, 120.0));
    v->actions().setPlaying(false);  // a frame in flight was made with the old controls
    ASSERT_TRUE(v->runUntilFresh(30.0));
    EXPECT_TRUE((v->shown().*field).empty());
    // The paused frame is measured again once the overlay asks for it.
    auto waitFor = [&](bool measured) {
        for (int k = 0; k < 100; ++k) {
            if (!v->runUntilFresh(30.0)) return false;
            if ((v->shown().*field).empty() != measured) return true;
        }
        return false;
    };
    ASSERT_EQ(v->actions().execute(std::string("overlay ") + overlay + " on"), "");
    ASSERT_TRUE(waitFor(true));
    const auto& f = v->shown();
    ASSERT_EQ((f.*field).size(), f.x.size());
    for (float d : f.*field) ASSERT_TRUE(d >= 0.0f && d < 1.0f) << d;
    ASSERT_EQ(v->actions().execute(std::string("overlay ") + overlay + " off"), "");
    EXPECT_TRUE(waitFor(false));
}

TEST(ViewerScreenshot, OverlapMapIsMeasuredOnlyWhileShown) {
    expectMeasuredOnlyWhileShown("overlap", &app::viewer::SimFrame::vertex_overlap);
}

TEST(ViewerScreenshot, DriftMapIsMeasuredOnlyWhileShown) {
    expectMeasuredOnlyWhileShown("drift", &app::viewer::SimFrame::vertex_drift);
}

TEST(ViewerScreenshot, OutsideMapIsMeasuredOnlyWhileShown) {
    expectMeasuredOnlyWhileShown("outside", &app::viewer::SimFrame::vertex_outside);
}

TEST(ViewerScreenshot, T5FullArm) {
    std::string t5 = t5Scene();
    if (t5.empty()) GTEST_SKIP() << "assets/scenes/t5-*.glb not generated yet";
    auto v = openViewer(t5, 960, 540);
    ASSERT_TRUE(v);
    ASSERT_TRUE(v->runUntilSteps(10, 300.0));
    v->frame();
    Image im = grab(*v);
    save(im, "t5.png");
    EXPECT_GT(stddev(im, kAll), 10.0);
    // The middle of the view: the part of the window the side bar leaves free.
    const auto& a = v->state().free_area;
    const float w = 960.0f;
    const Region middle{(a.left + 0.25f * (a.right - a.left)) / w, 0.3f, (a.left + 0.75f * (a.right - a.left)) / w, 0.7f};
    EXPECT_GT(saturatedPixels(im, middle), size_t(500));
}

TEST(ViewerScreenshot, ResizeKeepsRendering) {
    auto v = openViewer("builtin:t1", 320, 240);
    ASSERT_TRUE(v);
    ASSERT_TRUE(v->runUntilSteps(2, 60.0));
    v->frame();
    Image small = grab(*v);
    EXPECT_EQ(small.w, 320);
    EXPECT_EQ(small.h, 240);
}

// The Study window (docs/study.md): once its experiment is done, its plot is
// written as a PNG the size of the plot (cut from the rendered frame).
TEST(ViewerScreenshot, StudyPlotExportsAsPng) {
    auto v = openViewer("builtin:hang", 960, 540);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a)";
    ASSERT_TRUE(v->runUntilSteps(1, 120.0));
    ASSERT_EQ(v->actions().execute("study"), "");
    EXPECT_TRUE(v->state().show_study);
    // Generous: the whole experiment on one worker thread, maybe under a sanitizer.
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(900);
    while (v->study().running() && std::chrono::steady_clock::now() < end) v->frame();
    ASSERT_NE(v->study().result(), nullptr);
    const std::string out = kOut + "/study-plot.png";
    std::filesystem::create_directories(kOut);
    std::filesystem::remove(out);
    ASSERT_EQ(v->actions().execute("study-png " + out), "");
    v->frame();  // the window records where its plot is
    v->frame();  // (a frame for the layout to settle)
    ASSERT_TRUE(std::filesystem::exists(out)) << v->state().status;
    std::ifstream f(out, std::ios::binary);
    std::vector<unsigned char> head(24);
    f.read(reinterpret_cast<char*>(head.data()), 24);
    ASSERT_EQ(head[1], 'P');
    auto be32 = [&](int at) { return (head[size_t(at)] << 24) | (head[size_t(at + 1)] << 16) | (head[size_t(at + 2)] << 8) | head[size_t(at + 3)]; };
    const int w = be32(16), h = be32(20);  // IHDR
    EXPECT_GT(w, 400) << "the plot is most of the Study window's width";
    EXPECT_LT(w, 960);
    EXPECT_GT(h, 150);
    EXPECT_LT(h, 540);
}

// The fast render path (issue 12): chosen by itself under a software
// rasteriser and only there, forced on or off by the setting; a frame with
// nothing new derives and uploads nothing; the fast image still shows the
// same scene.
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../app/test_helpers.h"
#include "app/viewer/actions.h"
#include "engine/render/render_path.h"
#include "viewer_test_util.h"

namespace {

using engine::render::FastRender;

TEST(RenderPath, SoftwareRasterisersAreRecognisedByName) {
    using engine::render::isSoftwareRenderer;
    EXPECT_TRUE(isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(isSoftwareRenderer("softpipe"));
    EXPECT_TRUE(isSoftwareRenderer("Mesa X11 SWRast"));
    EXPECT_FALSE(isSoftwareRenderer("NVIDIA GeForce RTX 3080/PCIe/SSE2"));
    EXPECT_FALSE(isSoftwareRenderer("AMD Radeon RX 6800 (radeonsi, navi21, LLVM 15.0.6, DRM 3.49)"));
    EXPECT_FALSE(isSoftwareRenderer("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
    EXPECT_FALSE(isSoftwareRenderer(""));
}

// On a GPU nothing changes unless asked for; under a software renderer
// auto takes the fast path and off keeps the full one.
TEST(RenderPath, AutoIsFastOnlyUnderSoftwareAndTheSettingOverridesIt) {
    using engine::render::chooseRenderPath;
    const auto gpu = chooseRenderPath(FastRender::Auto, false, 4);
    EXPECT_FALSE(gpu.fast);
    EXPECT_EQ(gpu.msaa_samples, 4);
    EXPECT_EQ(gpu.scale, 1.0f);
    EXPECT_EQ(gpu.shadow_size, 2048);
    EXPECT_FALSE(gpu.few_shadow_taps);
    const auto sw = chooseRenderPath(FastRender::Auto, true, 4);
    EXPECT_TRUE(sw.fast);
    EXPECT_EQ(sw.msaa_samples, 1);
    EXPECT_LT(sw.scale, 1.0f);
    EXPECT_LT(sw.shadow_size, 2048);
    EXPECT_FALSE(chooseRenderPath(FastRender::Off, true, 4).fast);
    EXPECT_TRUE(chooseRenderPath(FastRender::On, false, 4).fast);
    for (FastRender f : {FastRender::Auto, FastRender::On, FastRender::Off})
        EXPECT_EQ(engine::render::parseFastRender(engine::render::fastRenderName(f)), f);
    EXPECT_FALSE(engine::render::parseFastRender("fast"));
}

nlohmann::json viewReport(const std::string& extra) {
    const std::string path = test::tempPath("render-path.json");
    const auto r = test::runCli("view --scene builtin:t1 --frames 4 --width 320 --height 200 --json " + path + extra);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(path);
    auto j = nlohmann::json::parse(in, nullptr, false);
    std::remove(path.c_str());
    return j.is_object() && j.contains("render") ? j["render"] : nlohmann::json();
}

// `view --json` states how it drew. Under Xvfb (the test suite) GL is
// llvmpipe, so auto must have taken the fast path there.
TEST(RenderPath, ViewJsonReportsThePathChosenAndTheSettingForcesIt) {
    const auto aut = viewReport("");
    ASSERT_TRUE(aut.is_object()) << "no render object in the report";
    const bool software = aut["software_renderer"].get<bool>();
    EXPECT_EQ(software, engine::render::isSoftwareRenderer(aut["gl_renderer"].get<std::string>()));
    EXPECT_EQ(aut["fast_render"], "auto");
    EXPECT_EQ(aut["path"], software ? "fast" : "full") << aut.dump();
    if (software) {
        EXPECT_EQ(aut["msaa_samples"], 1);
        EXPECT_LT(aut["scene_scale"].get<double>(), 1.0);
    }
    EXPECT_EQ(aut["width"], 320);  // the output keeps the window's size either way

    const auto off = viewReport(" --fast-render off");
    ASSERT_TRUE(off.is_object());
    EXPECT_EQ(off["path"], "full");
    EXPECT_EQ(off["fast_render"], "off");
    EXPECT_EQ(off["scene_scale"].get<double>(), 1.0);
    EXPECT_GT(off["msaa_samples"].get<int>(), 1);
    EXPECT_EQ(off["shadow_map"], 2048);

    const auto on = viewReport(" --fast-render on");
    ASSERT_TRUE(on.is_object());
    EXPECT_EQ(on["path"], "fast");
}

TEST(RenderPath, ABadSettingIsRefusedWithTheValidValues) {
    const auto r = test::runCli("view --scene builtin:t1 --frames 2 --fast-render quick");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.output.find("--fast-render 'quick' is unknown (valid: auto, on, off)"), std::string::npos) << r.output;
}

// Paused: frames keep coming but the sim publishes nothing new, so the
// muscles and bones are neither re-derived nor re-uploaded and the shadow
// map is not redrawn; a change of options (an overlay) re-derives the
// muscles once, not the bones.
TEST(RenderPath, AnUnchangedFrameUploadsNothing) {
    const std::string t5 = viewer_test::t5Scene();
    auto v = viewer_test::openViewer(t5.empty() ? "builtin:t1" : t5, 320, 200);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a)";
    v->actions().setUiVisible(false);  // the image is the scene's alone
    ASSERT_TRUE(v->runUntilSteps(2, 120.0));
    v->actions().setPlaying(false);
    ASSERT_TRUE(v->runUntilFresh(30.0));
    v->frame();
    const engine::render::RenderStats before = v->renderer().stats();
    for (int i = 0; i < 5; ++i) v->frame();
    const engine::render::RenderStats& after = v->renderer().stats();
    EXPECT_EQ(after.frames, before.frames + 5);
    EXPECT_EQ(after.muscle_uploads, before.muscle_uploads);
    EXPECT_EQ(after.bone_uploads, before.bone_uploads);
    EXPECT_EQ(after.overlay_builds, before.overlay_builds);
    EXPECT_EQ(after.shadow_passes, before.shadow_passes);

    // The camera moving needs no new shadow map, and the image it gives is
    // the one a fresh map gives.
    const viewer_test::Image still = viewer_test::grab(*v);
    ASSERT_EQ(v->actions().execute("orbit 40 0"), "");
    v->frame();
    EXPECT_GT(viewer_test::changedPixels(still, viewer_test::grab(*v)), size_t(20)) << "orbit did not move the camera";
    EXPECT_EQ(v->renderer().stats().shadow_passes, before.shadow_passes);
    const viewer_test::Image reused = viewer_test::grab(*v);
    // Switching the path there and back makes a new map and draws it afresh.
    const FastRender setting = v->state().render.fast_render;
    v->actions().setFastRender(v->renderer().lastPath().fast ? FastRender::Off : FastRender::On);
    v->frame();
    v->actions().setFastRender(setting);
    v->frame();
    EXPECT_EQ(v->renderer().stats().shadow_passes, before.shadow_passes + 2);
    EXPECT_EQ(viewer_test::changedPixels(reused, viewer_test::grab(*v), 0), size_t(0))
        << "a reused shadow map draws a different image than a fresh one";

    ASSERT_EQ(v->actions().execute("overlay wireframe on"), "");
    v->frame();
    v->frame();
    EXPECT_EQ(v->renderer().stats().muscle_uploads, before.muscle_uploads + 1);
    EXPECT_EQ(v->renderer().stats().overlay_builds, before.overlay_builds + 1);
    EXPECT_EQ(v->renderer().stats().bone_uploads, before.bone_uploads);

    // A new sim frame is derived again.
    v->actions().setPlaying(true);
    const uint64_t steps = v->sim().latest().steps;
    ASSERT_TRUE(v->runUntilSteps(steps + 1, 60.0));
    EXPECT_GT(v->renderer().stats().muscle_uploads, before.muscle_uploads + 1);
}

// The fast image is the same picture, softer: the muscle covers about the
// same pixels and the colours stay close; the full path is back when off.
TEST(RenderPath, TheFastImageShowsTheSameScene) {
    using namespace viewer_test;
    auto v = openViewer("builtin:t1", 640, 400);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a)";
    v->actions().setUiVisible(false);
    v->actions().setGlobalActivation(0.5f);
    ASSERT_TRUE(v->runUntilSteps(3, 120.0));
    v->actions().setPlaying(false);
    ASSERT_TRUE(v->runUntilFresh(30.0));
    ASSERT_EQ(v->actions().execute("fast-render off"), "");
    v->frame();
    const Image full = grab(*v);
    EXPECT_FALSE(v->renderer().lastPath().fast);
    ASSERT_EQ(v->actions().execute("fast-render on"), "");
    v->frame();
    const Image fast = grab(*v);
    EXPECT_TRUE(v->renderer().lastPath().fast);
    ASSERT_EQ(fast.w, full.w);
    ASSERT_EQ(fast.h, full.h);
    const double a = double(saturatedPixels(full, kAll)), b = double(saturatedPixels(fast, kAll));
    ASSERT_GT(a, 500.0) << "no muscle in the full image";
    EXPECT_NEAR(b / a, 1.0, 0.15) << "the fast path shows a different amount of muscle";
    EXPECT_LT(meanAbsDiff(full, fast, kAll), 6.0) << "the fast image differs too much from the full one";
    EXPECT_GT(stddev(fast, kMiddle), 10.0) << "the fast image is flat (no shading)";
    ASSERT_EQ(v->actions().execute("fast-render off"), "");
    v->frame();
    EXPECT_EQ(changedPixels(full, grab(*v)), size_t(0)) << "the full path does not come back unchanged";
}

TEST(RenderPath, PresetsKeepTheSetting) {
    auto v = viewer_test::openViewer("builtin:t1", 320, 200);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a)";
    ASSERT_EQ(v->actions().execute("fast-render off"), "");
    const std::string path = test::tempPath("fast-render-preset.json");
    ASSERT_EQ(v->actions().execute("preset-save " + path), "");
    ASSERT_EQ(v->actions().execute("fast-render on"), "");
    ASSERT_EQ(v->actions().execute("preset-load " + path), "");
    EXPECT_EQ(v->state().render.fast_render, FastRender::Off);
    std::ofstream(path) << R"({"fast_render": "sometimes"})";
    const std::string e = v->actions().execute("preset-load " + path);
    EXPECT_NE(e.find("fast_render must be one of auto, on, off"), std::string::npos) << e;
    EXPECT_EQ(v->state().render.fast_render, FastRender::Off);
    std::remove(path.c_str());
}

}  // namespace

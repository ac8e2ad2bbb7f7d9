// The action layer: the keyboard, typed calls and text commands must produce
// the same state (the widgets call the same typed functions), presets round-
// trip, and actions reach the simulation thread.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#define GLFW_INCLUDE_NONE  // key codes only; viewer_test_util.h brings glad's GL header
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include "app/viewer/actions.h"
#include "app/viewer/presets.h"
#include "app/viewer/shortcuts.h"
#include "app/viewer/sim_thread.h"
#include "app/viewer/study.h"
#include "sim_rig.h"
#include "viewer_test_util.h"

using namespace app::viewer;

namespace {
using viewer_test::Rig;
using viewer_test::waitFor;

bool sameParams(const sim::SolverParams& a, const sim::SolverParams& b) {
    if (a.solver != b.solver || a.mode != b.mode || a.fiber_form != b.fiber_form) return false;
    for (const auto& np : sim::numericParams())
        if (np.get(a) != np.get(b)) return false;
    return a.xpbd_stiffness.k == b.xpbd_stiffness.k && a.pbd_stiffness.k == b.pbd_stiffness.k;
}

}  // namespace

TEST(ViewerActions, SolverKeysTypedCallsAndCommandsAgree) {
    const std::pair<int, const char*> cases[] = {
        {GLFW_KEY_1, "sst"}, {GLFW_KEY_2, "jacobi"}, {GLFW_KEY_3, "coloring"}, {GLFW_KEY_4, "hybrid"}};
    for (auto [key, name] : cases) {
        Rig k, t, c;
        EXPECT_TRUE(handleKey(key, 0, k.actions));
        EXPECT_EQ(t.actions.setSolver(*sim::parseSolver(name)), "");
        EXPECT_EQ(c.actions.execute(std::string("set solver ") + name), "");
        EXPECT_EQ(k.state.controls.params.solver, *sim::parseSolver(name));
        EXPECT_TRUE(sameParams(k.state.controls.params, t.state.controls.params));
        EXPECT_TRUE(sameParams(k.state.controls.params, c.state.controls.params));
        EXPECT_EQ(k.state.controls.physics_version, c.state.controls.physics_version);
    }
}

TEST(ViewerActions, OtherShortcutsMatchTheirActions) {
    Rig k, a;
    handleKey(GLFW_KEY_SPACE, 0, k.actions);
    a.actions.togglePlay();
    EXPECT_EQ(k.state.controls.playing, a.state.controls.playing);
    handleKey(GLFW_KEY_W, 0, k.actions);
    EXPECT_EQ(a.actions.execute("overlay wireframe toggle"), "");
    EXPECT_EQ(k.state.render.overlays, a.state.render.overlays);
    handleKey(GLFW_KEY_TAB, 0, k.actions);
    EXPECT_EQ(a.actions.execute("ui toggle"), "");
    EXPECT_EQ(k.state.ui_visible, a.state.ui_visible);
    handleKey(GLFW_KEY_F1, 0, k.actions);
    a.actions.toggleHelp();
    EXPECT_EQ(k.state.show_help, a.state.show_help);
    k.state.frame_requested = a.state.frame_requested = false;
    handleKey(GLFW_KEY_F, 0, k.actions);
    a.actions.frameAll();
    EXPECT_TRUE(k.state.frame_requested && a.state.frame_requested);
    handleKey(GLFW_KEY_P, 0, k.actions);
    EXPECT_FALSE(k.state.screenshot_path.empty());
    EXPECT_FALSE(handleKey(GLFW_KEY_Z, 0, k.actions));
}

TEST(ViewerActions, NumericCommandsValidateLikeTheTable) {
    Rig r;
    EXPECT_EQ(r.actions.execute("set iterations 20"), "");
    EXPECT_EQ(r.state.controls.params.iterations, 20);
    Rig t;
    EXPECT_EQ(t.actions.setIterations(20), "");
    EXPECT_TRUE(sameParams(r.state.controls.params, t.state.controls.params));
    EXPECT_NE(r.actions.execute("set iterations 0"), "");  // out of range [1, 1000]
    EXPECT_EQ(r.state.controls.params.iterations, 20);       // unchanged
    EXPECT_NE(r.actions.execute("set omega 3"), "");
    EXPECT_NE(r.actions.execute("set solver fast"), "");
    EXPECT_NE(r.actions.execute("frobnicate"), "");
    EXPECT_EQ(r.actions.execute("set stiffness fiber 5000"), "");
    EXPECT_EQ(r.state.controls.params.xpbd_stiffness[sim::Family::Fiber], 5000.0f);
    EXPECT_NE(r.actions.execute("set stiffness fiber -1"), "");
    EXPECT_EQ(r.actions.execute("set mode pbd"), "");
    EXPECT_NE(r.actions.execute("set stiffness fiber 2"), "");  // PBD needs [0, 1]
}

// Typed commands reach the camera, the playback and the sim as they are:
// nan, inf and indices a size_t or int cannot hold are refused.
TEST(ViewerActions, NonFiniteAndHugeNumbersAreRefused) {
    Rig r;
    const auto camera = r.state.camera;
    const float speed = r.state.controls.speed;
    for (const char* cmd : {"speed nan", "speed inf", "orbit nan 0", "orbit 0 -inf", "zoom nan", "pan 1 1 nan",
                            "scrub nan", "muscle-activation 1e300 0.5", "muscle-activation -3 0.5",
                            "muscle-overpressure 1.5 0.1", "sensor -1 on", "step 1e12", "step-back -2",
                            "step 0.5", "animation 1e30", "solo nan", "activation nan", "overpressure inf"})
        EXPECT_NE(r.actions.execute(cmd), "") << cmd;
    EXPECT_EQ(r.state.controls.speed, speed);
    EXPECT_EQ(r.state.camera.distance, camera.distance);
    EXPECT_EQ(r.state.camera.yaw, camera.yaw);
    EXPECT_EQ(r.state.camera.pitch, camera.pitch);
    EXPECT_FALSE(r.state.controls.activation_override);
}

TEST(ViewerActions, PresetsRoundTrip) {
    Rig a;
    a.actions.execute("set solver hybrid");
    a.actions.execute("set iterations 33");
    a.actions.execute("set stiffness volume inf");
    a.actions.execute("overlay internal on");
    a.actions.execute("activation 0.7");
    a.actions.execute("speed 0.5");
    const std::string path = testing::TempDir() + "/msxpbd-preset.json";
    ASSERT_EQ(a.actions.savePreset(path), "");
    Rig b;
    ASSERT_EQ(b.actions.loadPreset(path), "");
    EXPECT_TRUE(sameParams(a.state.controls.params, b.state.controls.params));
    EXPECT_EQ(b.state.render.overlays, a.state.render.overlays);
    EXPECT_TRUE(b.state.controls.activation_override);
    EXPECT_FLOAT_EQ(b.state.controls.global_activation, 0.7f);
    EXPECT_FLOAT_EQ(b.state.controls.speed, 0.5f);
    // A bad preset names the file and leaves the state alone.
    const std::string bad = testing::TempDir() + "/msxpbd-bad.json";
    FILE* f = std::fopen(bad.c_str(), "w");
    std::fputs("{\"params\": {\"iterations\": 0}}", f);
    std::fclose(f);
    std::string e = b.actions.loadPreset(bad);
    EXPECT_NE(e.find("msxpbd-bad.json"), std::string::npos) << e;
    EXPECT_EQ(b.state.controls.params.iterations, 33);
}

TEST(ViewerActions, BadPresetsNeverCrashAndLeaveTheStateAlone) {
    Rig r;
    r.actions.execute("set iterations 21");
    const auto camera = r.state.camera;
    for (const char* text : {R"({"camera": {"target": []}})", R"({"camera": {"target": [0.1]}})",
                             R"({"params": {"iterations": 12}, "overlays": {"nope": true}})",
                             R"({"params": {"iterations": 12}, "camera": {"distance": -1}})", "[[[[[[", "[]"}) {
        std::string e = applyPresetText(text, "p.json", r.actions);
        EXPECT_EQ(e.rfind("p.json: ", 0), 0u) << text << " → " << e;
        EXPECT_EQ(r.state.controls.params.iterations, 21) << text;
        EXPECT_EQ(r.state.camera.target, camera.target) << text;
        EXPECT_EQ(r.state.camera.distance, camera.distance) << text;
    }
    EXPECT_EQ(applyPresetText(R"({"camera": {"target": [1, 2, 3]}, "overlays": {"wireframe": true}})", "p.json",
                              r.actions),
              "");
    EXPECT_EQ(r.state.camera.target, glm::vec3(1, 2, 3));
    EXPECT_TRUE(r.state.render.overlay(engine::render::Overlay::Wireframe));
}

// Starts the sim thread paused and loads a scene (builtin:t1) through the actions.
bool startPausedOnT1(Rig& r, const std::string& scene = "builtin:t1") {
    r.state.controls.playing = false;
    r.sim.setControls(r.state.controls);
    r.sim.start();
    r.actions.openScene(scene);
    if (!waitFor(r.sim, [](const SimFrame& f) { return f.scene && f.scene->topology; })) return false;
    r.actions.adoptScene(*r.sim.latest().scene);
    return true;
}

TEST(ViewerActions, ScrubAndSolverSwitchReachTheSimulation) {
    Rig r;
    ASSERT_TRUE(startPausedOnT1(r));
    ASSERT_EQ(r.actions.execute("scrub 0.5"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return std::abs(f.time - 0.5) < 1e-6; }));
    EXPECT_EQ(r.sim.latest().frame, 15);
    // Scrubbing back replays from the cache: same frame, same positions.
    auto x_at_05 = r.sim.latest().x;
    ASSERT_EQ(r.actions.execute("scrub 0.2"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return std::abs(f.time - 0.2) < 1e-6; }));
    ASSERT_EQ(r.actions.execute("scrub 0.5"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return std::abs(f.time - 0.5) < 1e-6; }));
    EXPECT_EQ(r.sim.latest().x, x_at_05);
    ASSERT_EQ(r.actions.execute("set iterations 5"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return f.params.iterations == 5; }));
    ASSERT_EQ(r.actions.execute("step-back"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return f.frame == 14; }));
    r.sim.stop();
}

// On an animated scene the next step also depends on how the bones were
// moving (the muscles take on their acceleration, SolverParams::carry): a
// replay from the cache must continue exactly as the first run did.
TEST(ViewerActions, ScrubbingBackOnAnAnimatedSceneReplaysTheSameFrames) {
    const std::string t3 = std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/t3-biceps-elbow.glb";
    Rig r;
    ASSERT_TRUE(startPausedOnT1(r, t3));
    ASSERT_EQ(r.actions.execute("scrub 0.6"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return std::abs(f.time - 0.6) < 1e-6; }));
    const auto x_at_06 = r.sim.latest().x;
    ASSERT_EQ(r.actions.execute("scrub 0.3"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return std::abs(f.time - 0.3) < 1e-6; }));
    EXPECT_NE(r.sim.latest().x, x_at_06) << "the elbow moved between 0.3 s and 0.6 s";
    ASSERT_EQ(r.actions.execute("scrub 0.6"), "");
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return std::abs(f.time - 0.6) < 1e-6; }));
    EXPECT_EQ(r.sim.latest().x, x_at_06);
    r.sim.stop();
}

TEST(ViewerActions, ResidualPerIterationIsRecordedOnRequest) {
    Rig r;
    ASSERT_TRUE(startPausedOnT1(r));
    r.actions.stepForward(1);
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return f.frame == 1; }));
    EXPECT_TRUE(r.sim.latest().convergence.empty()) << "off by default";
    r.actions.setRecordConvergence(true);
    ASSERT_EQ(r.actions.execute("set iterations 7"), "");
    r.actions.stepForward(1);
    ASSERT_TRUE(waitFor(r.sim, [](const SimFrame& f) { return f.frame == 2; }));
    // One residual per iteration of the last substep, all finite and positive.
    const auto conv = r.sim.latest().convergence;
    ASSERT_EQ(conv.size(), 7u);
    for (float v : conv) EXPECT_TRUE(std::isfinite(v) && v >= 0.0f);
    r.sim.stop();
}

// The View panel's bones / ground / error-scale widgets and the mouse go
// through actions too: typed calls and text commands give the same state.
TEST(ViewerActions, ViewTogglesTypedCallsAndCommandsAgree) {
    Rig t, c;
    ASSERT_TRUE(t.state.render.bones && t.state.render.ground);
    t.actions.setBones(false);
    EXPECT_EQ(c.actions.execute("bones off"), "");
    t.actions.setGround(false);
    EXPECT_EQ(c.actions.execute("ground toggle"), "");
    EXPECT_FALSE(c.state.render.bones);
    EXPECT_FALSE(c.state.render.ground);
    EXPECT_EQ(t.state.render.bones, c.state.render.bones);
    EXPECT_EQ(t.state.render.ground, c.state.render.ground);
    EXPECT_NE(c.actions.execute("bones maybe"), "");
    EXPECT_FALSE(c.state.render.bones);

    t.actions.setErrorScale(0.2f);
    EXPECT_EQ(c.actions.execute("error-scale 0.2"), "");
    EXPECT_FLOAT_EQ(c.state.render.error_scale, 0.2f);
    EXPECT_EQ(t.state.render.error_scale, c.state.render.error_scale);
    EXPECT_NE(c.actions.execute("error-scale 0"), "");  // out of range [0.001, 1]
    EXPECT_NE(c.actions.execute("error-scale 2"), "");
    EXPECT_FLOAT_EQ(c.state.render.error_scale, 0.2f);  // unchanged
    t.actions.setErrorScale(10.0f);                     // the typed call clamps
    EXPECT_FLOAT_EQ(t.state.render.error_scale, Actions::kErrorScaleMax);
}

TEST(ViewerActions, MouseCameraActionsMatchTheirCommands) {
    Rig t, c;
    const auto before = t.state.camera;
    t.actions.orbitCamera(40.0f, -10.0f);
    t.actions.panCamera(15.0f, 5.0f, 400.0f);
    t.actions.zoomCamera(2.0f);
    EXPECT_EQ(c.actions.execute("orbit 40 -10"), "");
    EXPECT_EQ(c.actions.execute("pan 15 5 400"), "");
    EXPECT_EQ(c.actions.execute("zoom 2"), "");
    EXPECT_NE(c.actions.execute("pan 1 1 0"), "");  // needs the window height
    const auto &a = t.state.camera, &b = c.state.camera;
    EXPECT_NE(a.yaw, before.yaw);
    EXPECT_NE(a.pitch, before.pitch);
    EXPECT_NE(a.distance, before.distance);
    EXPECT_NE(a.target, before.target);
    EXPECT_EQ(a.yaw, b.yaw);
    EXPECT_EQ(a.pitch, b.pitch);
    EXPECT_EQ(a.distance, b.distance);
    EXPECT_EQ(a.target, b.target);
}

TEST(ViewerActions, StudyPanelRunsThroughTheAction) {
    ViewerState state;
    SimThread sim;
    Actions without_study(state, sim);
    EXPECT_NE(without_study.execute("study"), "");

    Rig r;
    ASSERT_FALSE(r.study.running());
    ASSERT_EQ(r.study.result(), nullptr);
    EXPECT_NE(r.actions.execute("study 5"), "") << "below the slider's range";
    EXPECT_NE(r.actions.execute("study 1e6"), "") << "above the slider's range";
    EXPECT_FALSE(r.actions.state().show_study);
    ASSERT_EQ(r.actions.execute("study 3000"), "");
    // What the Study window reads: it is open, and a run is in progress (or done).
    EXPECT_TRUE(r.actions.state().show_study);
    EXPECT_DOUBLE_EQ(r.study.stiffness(), 3000.0);
    EXPECT_TRUE(r.study.running() || r.study.result());
    // Generous: the whole experiment, under a sanitizer on a shared machine.
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(600);
    while (r.study.running() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto res = r.study.result();
    ASSERT_NE(res, nullptr);
    EXPECT_EQ(res->error, "");
    EXPECT_DOUBLE_EQ(res->settings.stiffness, 3000.0);
    EXPECT_GT(res->reference_pct, 0.0);
    EXPECT_FALSE(res->points.empty());
    // Asked again, the same material is shown from the cache, at once.
    ASSERT_EQ(r.actions.execute("study 3000"), "");
    EXPECT_FALSE(r.study.running());
    EXPECT_EQ(r.study.result(), res);
    EXPECT_EQ(r.actions.execute("study-window off"), "");
    EXPECT_FALSE(r.actions.state().show_study);
    // ~Study cancels a run in progress.
    ASSERT_EQ(r.actions.execute("study 20"), "");
}

TEST(ViewerActions, PresetsKeepBonesGroundAndErrorScale) {
    Rig a;
    a.actions.execute("bones off");
    a.actions.execute("ground off");
    a.actions.execute("error-scale 0.125");
    const std::string path = testing::TempDir() + "/msxpbd-preset-view.json";
    ASSERT_EQ(a.actions.execute("preset-save " + path), "");
    EXPECT_NE(a.state.status.find("preset saved"), std::string::npos) << a.state.status;
    Rig b;
    ASSERT_EQ(b.actions.execute("preset-load " + path), "");
    EXPECT_NE(b.state.status.find("preset loaded"), std::string::npos) << b.state.status;
    EXPECT_FALSE(b.state.render.bones);
    EXPECT_FALSE(b.state.render.ground);
    EXPECT_FLOAT_EQ(b.state.render.error_scale, 0.125f);
}

// Through the whole viewer: each newly routed action changes the picture and
// its opposite restores it.
namespace {
// A paused viewer a few frames in, panels hidden; `base` is its image.
std::unique_ptr<Viewer> pausedViewer(const std::string& scene, viewer_test::Image& base, float activation = 0.0f) {
    auto v = viewer_test::openViewer(scene);
    if (!v) return nullptr;
    v->actions().setUiVisible(false);
    v->actions().setGlobalActivation(activation);
    if (!v->runUntilSteps(3, 120.0)) return nullptr;
    v->actions().setPlaying(false);
    if (!v->runUntilFresh(30.0)) return nullptr;
    v->frame();
    base = viewer_test::grab(*v);
    return v;
}

// Runs `on`, returns how many pixels changed; runs `off` and checks the image is back.
size_t toggledPixels(Viewer& v, const viewer_test::Image& base, const std::string& on, const std::string& off) {
    EXPECT_EQ(v.actions().execute(on), "");
    v.frame();
    const size_t n = viewer_test::changedPixels(base, viewer_test::grab(v));
    EXPECT_EQ(v.actions().execute(off), "");
    v.frame();
    EXPECT_LT(viewer_test::changedPixels(base, viewer_test::grab(v)), size_t(20)) << "'" << off << "' does not restore the image";
    return n;
}
}  // namespace

TEST(ViewerActions, ViewActionsChangeTheImage) {
    using namespace viewer_test;
    Image base;
    auto v = pausedViewer("builtin:t1", base, 0.1f);  // contracting: the heat map has errors to show
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a), or the scene did not load";
    Actions& a = v->actions();
    EXPECT_GT(toggledPixels(*v, base, "ground off", "ground on"), size_t(20));

    const auto camera = v->state().camera;
    for (const char* cmd : {"orbit 60 0", "orbit 0 40", "pan 40 0 400", "zoom 2"}) {
        ASSERT_EQ(a.execute(cmd), "");
        v->frame();
        EXPECT_GT(changedPixels(base, grab(*v)), size_t(20)) << "'" << cmd << "' did not move the view";
        a.setCamera(camera);
    }
    v->frame();
    EXPECT_LT(changedPixels(base, grab(*v)), size_t(20));

    // The heat map: the same error field, darker at a coarse scale, brighter at a fine one.
    ASSERT_EQ(a.execute("overlay error on"), "");
    ASSERT_TRUE(v->runUntilFresh(30.0));  // the sim computes the error field
    ASSERT_EQ(a.execute("error-scale 0.5"), "");
    v->frame();
    const Image coarse = grab(*v);
    ASSERT_EQ(a.execute("error-scale 0.001"), "");
    v->frame();
    const Image fine = grab(*v);
    EXPECT_GT(changedPixels(coarse, fine), size_t(20)) << "the error scale does not change the heat map";
    EXPECT_GT(meanAbsDiff(fine, coarse, kMiddle), 1.0);
}

TEST(ViewerActions, BonesActionChangesTheImage) {
    using namespace viewer_test;
    // The glTF oval has a skeleton mesh; builtin:t1 has none.
    const std::string t1 = sceneFile("t1-");
    if (t1.empty()) GTEST_SKIP() << "assets/scenes/t1-*.glb not generated yet";
    Image base;
    auto v = pausedViewer(t1, base);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a), or the scene did not load";
    EXPECT_GT(toggledPixels(*v, base, "bones off", "bones on"), size_t(20));
}

// The skin (translucent meshes, docs/scene-format.md): on by default, and
// toggling it changes the picture only inside the body's outline. Checked as:
// the changed pixels fill a box that stays clear of the frame's edges and
// covers a minority of it (the background, floor far from the arm, and the
// corners never change), and the opacity factor changes it; a scene without
// translucent meshes does not change at all (next test).
TEST(ViewerActions, SkinActionChangesTheImageOnlyWhereTheBodyIs) {
    using namespace viewer_test;
    const std::string t5 = t5Scene();
    if (t5.empty()) GTEST_SKIP() << "assets/scenes/t5-*.glb not generated yet";
    Image base;
    auto v = pausedViewer(t5, base);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a), or the scene did not load";
    ASSERT_TRUE(v->state().render.skin);
    ASSERT_EQ(v->actions().execute("skin off"), "");
    v->frame();
    const Image off = grab(*v);
    int x0 = off.w, y0 = off.h, x1 = -1, y1 = -1;
    size_t changed = 0;
    for (int y = 0; y < off.h; ++y)
        for (int x = 0; x < off.w; ++x) {
            int d = 0;
            for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(off.at(x, y)[c]) - int(base.at(x, y)[c])));
            if (d <= 24) continue;
            ++changed;
            x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
    EXPECT_GT(changed, size_t(500)) << "the skin is not visible";
    ASSERT_GE(x1, 0);
    EXPECT_GT(x0, 2);
    EXPECT_GT(y0, 2);
    EXPECT_LT(x1, off.w - 3);
    EXPECT_LT(y1, off.h - 3);
    EXPECT_LT(double(changed), 0.5 * double(off.w) * double(off.h));
    ASSERT_EQ(v->actions().execute("skin on"), "");
    v->frame();
    EXPECT_LT(changedPixels(base, grab(*v)), size_t(20)) << "'skin on' does not restore the image";
    // A denser skin hides more of the muscles.
    ASSERT_EQ(v->actions().execute("skin-opacity 2.5"), "");
    v->frame();
    EXPECT_GT(changedPixels(base, grab(*v)), size_t(200));
    EXPECT_NE(v->actions().execute("skin-opacity 4"), "");  // out of range [0, 3]
}

TEST(ViewerActions, SkinActionChangesNothingWithoutTranslucentMeshes) {
    using namespace viewer_test;
    const std::string t1 = sceneFile("t1-");
    if (t1.empty()) GTEST_SKIP() << "assets/scenes/t1-*.glb not generated yet";
    Image plain;
    auto v = pausedViewer(t1, plain);
    ASSERT_TRUE(v) << "no GL window (run under xvfb-run -a), or the scene did not load";
    EXPECT_EQ(toggledPixels(*v, plain, "skin off", "skin on"), size_t(0));
}

TEST(ViewerActions, PresetsKeepTheSkin) {
    Rig a;
    a.actions.execute("skin off");
    a.actions.execute("skin-opacity 0.5");
    const std::string path = testing::TempDir() + "/msxpbd-preset-skin.json";
    ASSERT_EQ(a.actions.execute("preset-save " + path), "");
    Rig b;
    ASSERT_TRUE(b.state.render.skin);
    ASSERT_EQ(b.actions.execute("preset-load " + path), "");
    EXPECT_FALSE(b.state.render.skin);
    EXPECT_FLOAT_EQ(b.state.render.skin_opacity, 0.5f);
}

// The Study's muscle view shows the point chosen by mode, substeps and
// iterations; the command takes the mode by its name, bad ones are refused.
TEST(ViewerActions, StudyPointChoosesWhatTheMuscleViewShows) {
    Rig r;
    EXPECT_EQ(r.actions.execute("study-point pbd-raw 4 20"), "");
    EXPECT_EQ(r.state.study_mode, sim::ConstraintMode::PbdRaw);
    EXPECT_EQ(r.state.study_substeps, 4);
    EXPECT_EQ(r.state.study_iterations, 20);
    EXPECT_NE(r.actions.execute("study-point soft 4 20").find("unknown mode"), std::string::npos);
    EXPECT_NE(r.actions.execute("study-point xpbd 0 20"), "");
    EXPECT_NE(r.actions.execute("study-point xpbd 4"), "");
    EXPECT_EQ(r.state.study_mode, sim::ConstraintMode::PbdRaw);
    EXPECT_EQ(r.state.study_substeps, 4);
}


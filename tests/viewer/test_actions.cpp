// The action layer: the keyboard, typed calls and text commands must produce
// the same state (the widgets call the same typed functions), presets round-
// trip, and actions reach the simulation thread.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include "app/viewer/actions.h"
#include "app/viewer/shortcuts.h"
#include "app/viewer/sim_thread.h"

using namespace app::viewer;

namespace {
struct Rig {
    ViewerState state;
    SimThread sim;
    Actions actions{state, sim};
};

bool sameParams(const sim::SolverParams& a, const sim::SolverParams& b) {
    if (a.solver != b.solver || a.mode != b.mode || a.fiber_form != b.fiber_form) return false;
    for (const auto& np : sim::numericParams())
        if (np.get(a) != np.get(b)) return false;
    return a.xpbd_stiffness.k == b.xpbd_stiffness.k && a.pbd_stiffness.k == b.pbd_stiffness.k;
}

// Waits until the sim thread publishes a frame satisfying `pred`.
template <class P>
bool waitFor(SimThread& s, P pred, double seconds = 60.0) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        s.update();
        if (pred(s.latest())) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
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

// Starts the sim thread paused and loads builtin:t1 through the actions.
bool startPausedOnT1(Rig& r) {
    r.state.controls.playing = false;
    r.sim.setControls(r.state.controls);
    r.sim.start();
    r.actions.openScene("builtin:t1");
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

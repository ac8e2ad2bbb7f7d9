// The viewer's simulation thread and `run` go through one scene driver
// (app/run/scene_driver.h): the same scene and settings give the same
// positions_hash after N frames in every solver mode — also after a reset
// and after scrubbing back (frame cache restore + replay).
#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "app/run/scene_driver.h"
#include "app/viewer/sim_thread.h"

namespace {

using app::viewer::Commands;
using app::viewer::Controls;
using app::viewer::SimThread;

std::string asset(const std::string& file) { return std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/" + file; }

sim::SolverParams settings(sim::SolverKind k) {
    sim::SolverParams p;
    p.threads = 1;  // ctest runs two test processes on the two cores
    p.solver = k;
    return p;
}

// Waits until the sim thread has handled every request and takes its newest frame.
const app::viewer::SimFrame& settle(SimThread& t) {
    for (int i = 0; i < 600000 && !t.idle(); ++i) std::this_thread::sleep_for(std::chrono::microseconds(100));
    EXPECT_TRUE(t.idle()) << "the sim thread did not settle";
    t.update();
    return t.latest();
}

void send(SimThread& t, const Commands& c) {
    t.command(c);
    settle(t);
}

// As `run --frames k` computes it.
std::vector<uint64_t> runHashes(const std::string& scene, sim::SolverKind k, const std::vector<int>& at) {
    app::SceneDriver d;
    EXPECT_EQ(d.load(scene, settings(k)), "");
    std::vector<uint64_t> out;
    for (int frames : at) {
        while (d.frame() < frames) EXPECT_TRUE(d.step().ok);
        out.push_back(d.sim().positionsHash());
    }
    return out;
}

void expectViewerMatchesRun(const std::string& scene) {
    for (auto k : {sim::SolverKind::Sst, sim::SolverKind::Jacobi, sim::SolverKind::Coloring, sim::SolverKind::Hybrid}) {
        SCOPED_TRACE(std::string(sim::solverName(k)) + " on " + scene);
        const std::vector<uint64_t> want = runHashes(scene, k, {6, 12});

        SimThread t;
        Controls c;
        c.playing = false;
        c.params = settings(k);
        t.setControls(c);
        t.start();
        Commands load;
        load.load = scene;
        send(t, load);
        // What the UI does when it adopts a scene (Actions::adoptScene).
        const auto info = t.latest().scene;
        ASSERT_TRUE(info && info->error.empty()) << (info ? info->error : "no scene");
        c.scene_load_id = info->load_id;
        c.muscles.assign(info->muscle_names.size(), {});
        for (size_t m = 0; m < c.muscles.size(); ++m) {
            c.muscles[m].activation = info->muscle_activation[m];
            c.muscles[m].overpressure = info->muscle_overpressure[m];
        }
        info->solver.applyTo(c.params);
        ++c.physics_version;
        t.setControls(c);
        settle(t);

        Commands step12;
        step12.step = 12;
        send(t, step12);
        EXPECT_EQ(t.latest().frame, 12);
        EXPECT_EQ(sim::positionsHash(t.latest().x), want[1]) << "after 12 frames";

        Commands reset;
        reset.reset = true;
        send(t, reset);
        send(t, step12);
        EXPECT_EQ(sim::positionsHash(t.latest().x), want[1]) << "12 frames after a reset";

        Commands more;
        more.step = 8;
        send(t, more);
        Commands back;
        back.seek = 6.0 * double(c.params.frame_dt);
        send(t, back);
        EXPECT_EQ(t.latest().frame, 6);
        EXPECT_EQ(sim::positionsHash(t.latest().x), want[0]) << "scrubbed back to frame 6";
        Commands six;
        six.step = 6;
        send(t, six);
        EXPECT_EQ(sim::positionsHash(t.latest().x), want[1]) << "replayed from frame 6 to 12";
        t.stop();
    }
}

// An exception on the sim thread (std::bad_alloc from a scene too large for
// memory) used to terminate the viewer: it stops stepping with a message that
// names the scene and the cause, and a reset starts again.
TEST(SimThreadFailures, AnExceptionWhileSteppingStopsWithAMessage) {
    SimThread t;
    bool armed = true;
    t.setStepHook([&](int64_t frame) {
        if (armed && frame == 3) throw std::bad_alloc();
    });
    Controls c;
    c.playing = false;
    c.params = settings(sim::SolverKind::Sst);
    t.setControls(c);
    t.start();
    Commands load;
    load.load = "builtin:t1";
    send(t, load);
    Commands five;
    five.step = 5;
    send(t, five);
    const auto& f = t.latest();
    EXPECT_EQ(f.frame, 2) << "frames 1 and 2 were computed, frame 3 failed";
    EXPECT_NE(f.fatal.find("builtin:t1"), std::string::npos) << f.fatal;
    EXPECT_NE(f.fatal.find("out of memory"), std::string::npos) << f.fatal;
    send(t, five);
    EXPECT_EQ(t.latest().frame, 2) << "no stepping after a failure until a reset";
    armed = false;
    Commands reset;
    reset.reset = true;
    send(t, reset);
    send(t, five);
    EXPECT_EQ(t.latest().frame, 5);
    EXPECT_TRUE(t.latest().fatal.empty());
    t.stop();
}

TEST(SimThreadMatchesRun, T5InEverySolverMode) { expectViewerMatchesRun(asset("t5-arm-flexion.glb")); }
TEST(SimThreadMatchesRun, T6InEverySolverMode) { expectViewerMatchesRun(asset("t6-arm-fighting.glb")); }

}  // namespace

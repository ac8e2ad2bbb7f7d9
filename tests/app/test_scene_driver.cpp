// The one scene driver (app/run/scene_driver.h) and sim::State: what `run`,
// `bench` and the viewer's sim thread share. A captured state replays to the
// same bits, a reset starts exactly like a fresh load, and running out of
// memory is reported with the scene's name instead of crashing.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "app/run/scene_driver.h"
#include "test_helpers.h"

namespace {

using test::asset;

sim::SolverParams oneThread(sim::SolverKind k = sim::SolverKind::Sst) {
    sim::SolverParams p;
    p.threads = 1;  // ctest runs two test processes on the two cores
    p.solver = k;
    return p;
}

uint64_t hashAfter(app::SceneDriver& d, int frames) {
    for (int f = 0; f < frames; ++f) EXPECT_TRUE(d.step().ok) << "frame " << f;
    return d.sim().positionsHash();
}

// T6 asks for carry 1: the bones' substep motion is part of the state.
TEST(SceneDriver, ACapturedStateReplaysToTheSameBits) {
    app::SceneDriver d;
    ASSERT_EQ(d.load(asset("t6-arm-fighting.glb"), oneThread()), "");
    hashAfter(d, 12);
    sim::State s;
    d.captureState(s);
    EXPECT_EQ(s.frame, 12);
    const uint64_t first = hashAfter(d, 8);
    ASSERT_EQ(d.restore(s), "");
    EXPECT_EQ(d.frame(), 12);
    EXPECT_EQ(hashAfter(d, 8), first);
}

TEST(SceneDriver, AStateFromAnotherSceneIsRefused) {
    app::SceneDriver a, b;
    ASSERT_EQ(a.load("builtin:t1", oneThread()), "");
    ASSERT_EQ(b.load("builtin:p2", oneThread()), "");
    sim::State s;
    a.captureState(s);
    const uint64_t before = b.sim().positionsHash();
    EXPECT_NE(b.restore(s), "");
    EXPECT_EQ(b.sim().positionsHash(), before);
}

// The viewer's Backspace: after a reset the first step must not sweep the
// bones from where the animation had taken them (with carry 1 that kicked
// every muscle). A reset run is bit-identical to a freshly loaded one.
TEST(SceneDriver, ResetStartsExactlyLikeAFreshLoad) {
    struct Case {
        const char* scene;
        sim::SolverKind solver;
        int before, after;
    };
    // T7's first pose is not its bind pose (the bones move there in the
    // first frame, carrying the muscles); T6 is mid-strike at frame 25.
    for (const Case& c : {Case{"t6-arm-fighting.glb", sim::SolverKind::Sst, 25, 6},
                          Case{"t6-arm-fighting.glb", sim::SolverKind::Jacobi, 25, 6},
                          Case{"t7-body-walk-run.glb", sim::SolverKind::Sst, 6, 3}}) {
        app::SceneDriver fresh, reused;
        ASSERT_EQ(fresh.load(asset(c.scene), oneThread(c.solver)), "");
        ASSERT_EQ(reused.load(asset(c.scene), oneThread(c.solver)), "");
        const uint64_t want = hashAfter(fresh, c.after);
        hashAfter(reused, c.before);
        reused.reset();
        EXPECT_EQ(reused.frame(), 0);
        EXPECT_EQ(hashAfter(reused, c.after), want) << c.scene << " " << sim::solverName(c.solver);
    }
}

// Looping goes on simulating (no cut back to the rest state); the bones
// follow the animation's time modulo its duration.
TEST(SceneDriver, LoopingKeepsSimulatingAndWrapsTheAnimationTime) {
    app::SceneDriver d;
    ASSERT_EQ(d.load(asset("t3-biceps-elbow.glb"), oneThread()), "");
    const double dur = d.duration();
    ASSERT_GT(dur, 0.0);
    const int frames = int(dur / double(d.params().frame_dt)) + 5;
    hashAfter(d, frames);
    EXPECT_EQ(d.frame(), frames);
    EXPECT_GT(d.time(), dur);
    EXPECT_LT(d.animationTime(), 6.0 * double(d.params().frame_dt));
    d.setLoop(false);
    EXPECT_TRUE(d.atEnd());
}

// The frame that ends a pass shows the clip's last pose, although the clock
// (a sum of float frame lengths) reads a hair past the duration there; the
// next frame starts the next pass.
TEST(SceneDriver, TheFrameAtAPassEndShowsTheLastPose) {
    app::SceneDriver d;
    ASSERT_EQ(d.load(asset("t3-biceps-elbow.glb"), oneThread()), "");
    const double dur = d.duration(), dt = double(d.params().frame_dt);
    const int per_pass = int(std::lround(dur / dt));
    ASSERT_NEAR(per_pass * dt, dur, 1e-6) << "the clip is a whole number of frames";
    for (int k : {1, 2, 3}) {
        // The clock after k passes, as the frames add it up.
        double t = 0.0;
        for (int f = 0; f < k * per_pass; ++f) t += double(d.params().frame_dt);
        EXPECT_EQ(d.animationTime(t), dur) << "pass " << k << ", clock " << t;
        EXPECT_NEAR(d.animationTime(t + dt), dt, 1e-6) << "the next pass starts";
    }
}

TEST(SceneDriver, AFailedLoadKeepsTheSceneItHad) {
    app::SceneDriver d;
    ASSERT_EQ(d.load("builtin:t1", oneThread()), "");
    const uint64_t h = hashAfter(d, 3);
    const std::string e = d.load("/nonexistent/scene.glb", oneThread());
    EXPECT_NE(e.find("/nonexistent/scene.glb"), std::string::npos) << e;
    EXPECT_EQ(d.source(), "builtin:t1");
    EXPECT_EQ(d.sim().positionsHash(), h);
}

// Out of memory while loading or stepping: a message naming the scene and the
// cause, exit 1 (it was "error: std::bad_alloc", or an abort in the viewer).
TEST(SceneDriver, RunningOutOfMemoryIsReportedWithTheScene) {
    const std::string t7 = asset("t7-body-walk-run.glb");
    auto r = test::runCli("run --scene " + t7 + " --frames 2 --threads 1 --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.output;  // it does run with enough memory
    const std::string cmd = "sh -c 'ulimit -v 60000; exec " + std::string(MSXPBD_BINARY) + " run --scene " + t7 +
                            " --frames 2 --threads 1 --quiet' > /tmp/msxpbd_oom_" + std::to_string(::getpid()) +
                            " 2>&1";
    int status = std::system(cmd.c_str());
    std::ifstream f("/tmp/msxpbd_oom_" + std::to_string(::getpid()));
    std::stringstream ss;
    ss << f.rdbuf();
    std::remove(("/tmp/msxpbd_oom_" + std::to_string(::getpid())).c_str());
    ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal: " << ss.str();
    EXPECT_EQ(WEXITSTATUS(status), 1) << ss.str();
    EXPECT_NE(ss.str().find("t7-body-walk-run.glb"), std::string::npos) << ss.str();
    EXPECT_NE(ss.str().find("out of memory"), std::string::npos) << ss.str();
}

}  // namespace

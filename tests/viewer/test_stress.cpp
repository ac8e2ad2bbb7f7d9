// Threaded stress test: while the sim thread plays, another thread switches
// solver, iterations and threads and reloads the scene hundreds of times; the
// reader keeps taking frames and checks none is torn (positions always match
// the topology they were published with, serials only grow) and that the sim
// ends on the last settings asked for. Built with -DMSXPBD_SANITIZE=thread
// this is also the ThreadSanitizer check of the hand-off (scripts/tsan, which
// runs it with OMP_THREAD_LIMIT=1: thread-count requests still go through,
// OpenMP's uninstrumented barriers stay out of the picture).
//
// MSXPBD_STRESS_ROUNDS: rounds of changes (default 400; each round changes
// solver, iterations and threads, every other one also asks for a reload).
// MSXPBD_STRESS_SECONDS: how long the reader waits for the sim to catch up
// (default 120 s, ten times that under ThreadSanitizer).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "app/viewer/actions.h"
#include "app/viewer/sim_thread.h"

using namespace app::viewer;

namespace {
#if defined(__SANITIZE_THREAD__)
constexpr int kSlowdown = 10;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr int kSlowdown = 10;
#else
constexpr int kSlowdown = 1;
#endif
#else
constexpr int kSlowdown = 1;
#endif

int envInt(const char* name, int fallback, int lo) {
    const char* s = std::getenv(name);
    if (!s || !*s) return fallback;
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (*end != '\0' || v < lo || v > 1000000) {
        ADD_FAILURE() << name << "=" << s << " is not an integer in [" << lo << ", 1000000]";
        return fallback;
    }
    return int(v);
}

const char* const kSolvers[] = {"sst", "jacobi", "coloring", "hybrid"};
int iterationsOf(int round) { return 1 + round % 7; }
int threadsOf(int round) { return 1 + round % 2; }
}  // namespace

TEST(ViewerStress, SwitchAndReloadWhilePlaying) {
    const int rounds = envInt("MSXPBD_STRESS_ROUNDS", 400, 1);
    const int seconds = envInt("MSXPBD_STRESS_SECONDS", 120 * kSlowdown, 1);
    ViewerState state;
    SimThread sim;
    Actions actions(state, sim);
    state.controls.speed = 8.0f;
    sim.setControls(state.controls);
    sim.start();
    actions.openScene("builtin:t1");

    std::atomic<bool> done{false};
    std::atomic<int> changes{0}, reloads{0};
    std::thread ui([&] {
        // Actions are main-thread objects: this thread owns its own state and
        // only talks to the sim thread, as the UI thread does.
        ViewerState s2;
        Actions a2(s2, sim);
        s2.scene = "builtin:t1";
        for (int i = 0; i < rounds; ++i) {
            a2.execute(std::string("set solver ") + kSolvers[i % 4]);
            a2.setIterations(iterationsOf(i));
            a2.setThreads(threadsOf(i));
            if (i % 2 == 0) {
                a2.reload();
                ++reloads;
            }
            if (i % 25 == 0) a2.scrubTo(0.1 * (i % 5));
            if (i % 40 == 0) a2.reset();
            if (i % 17 == 0) a2.stepBack();
            if (i % 17 == 1) a2.setPlaying(true);
            ++changes;
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
        }
        done = true;
    });

    // The settings of the last round, which the sim must end on.
    const int last = rounds - 1;
    const auto last_solver = *sim::parseSolver(kSolvers[last % 4]);
    auto settled = [&](const SimFrame& f) {
        return f.params.solver == last_solver && f.params.iterations == iterationsOf(last) &&
               f.params.threads == threadsOf(last);
    };
    size_t frames = 0, torn = 0, backwards = 0;
    uint64_t last_serial = 0;
    std::set<uint64_t> loads;
    bool caught_up = false;
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (sim.update()) {
            const SimFrame& f = sim.latest();
            if (f.serial <= last_serial) ++backwards;
            last_serial = f.serial;
            if (f.scene && f.scene->topology && !f.x.empty()) {
                ++frames;
                loads.insert(f.scene->load_id);
                if (f.x.size() != f.scene->topology->particle_count) ++torn;
                if (f.activation.size() != f.scene->topology->muscles.size()) ++torn;
            }
        }
        // The newest frame may already be shown (a paused sim publishes no more).
        if (done && frames >= 10 && sim.latest().scene && settled(sim.latest())) {
            caught_up = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ui.join();
    sim.stop();
    RecordProperty("rounds", rounds);
    RecordProperty("reload_requests", reloads.load());
    RecordProperty("loads_seen", int(loads.size()));
    RecordProperty("frames_seen", int(frames));
    EXPECT_EQ(changes.load(), rounds);
    EXPECT_GE(frames, 10u);
    EXPECT_TRUE(caught_up) << "the sim did not end on the last settings within " << seconds
                           << " s (MSXPBD_STRESS_SECONDS)";
    EXPECT_EQ(torn, 0u);
    EXPECT_EQ(backwards, 0u) << "a frame older than the one shown was taken";
}

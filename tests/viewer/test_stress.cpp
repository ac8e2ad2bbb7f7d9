// Threaded stress test: while the sim thread plays, another thread switches
// solver, iterations, threads and reloads the scene hundreds of times; the
// reader keeps taking frames and checks none is torn (positions always match
// the topology they were published with). Built with -DMSXPBD_SANITIZE=thread
// this is also the ThreadSanitizer check of the hand-off.
#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "app/viewer/actions.h"
#include "app/viewer/sim_thread.h"

using namespace app::viewer;

TEST(ViewerStress, SwitchAndReloadWhilePlaying) {
    ViewerState state;
    SimThread sim;
    Actions actions(state, sim);
    state.controls.speed = 8.0f;
    sim.setControls(state.controls);
    sim.start();
    actions.openScene("builtin:t1");

    std::atomic<bool> done{false};
    std::atomic<int> changes{0};
    std::thread ui([&] {
        // Actions are main-thread objects: this thread owns its own state and
        // only talks to the sim thread, as the UI thread does.
        ViewerState s2;
        Actions a2(s2, sim);
        s2.scene = "builtin:t1";
        const char* solvers[] = {"sst", "jacobi", "coloring", "hybrid"};
        for (int i = 0; i < 400; ++i) {
            a2.execute(std::string("set solver ") + solvers[i % 4]);
            a2.setIterations(1 + i % 7);
            a2.setThreads(1 + i % 2);
            if (i % 10 == 0) a2.reload();
            if (i % 25 == 0) a2.scrubTo(0.1 * (i % 5));
            if (i % 40 == 0) a2.reset();
            if (i % 17 == 0) a2.stepBack();
            if (i % 17 == 1) a2.setPlaying(true);
            ++changes;
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
        }
        done = true;
    });

    size_t frames = 0, torn = 0;
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while ((!done || frames < 10) && std::chrono::steady_clock::now() < end) {
        if (sim.update()) {
            const SimFrame& f = sim.latest();
            if (f.scene && f.scene->topology && !f.x.empty()) {
                ++frames;
                if (f.x.size() != f.scene->topology->particle_count) ++torn;
                if (f.activation.size() != f.scene->topology->muscles.size()) ++torn;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ui.join();
    sim.stop();
    EXPECT_EQ(changes.load(), 400);
    EXPECT_GE(frames, 10u);
    EXPECT_EQ(torn, 0u);
}

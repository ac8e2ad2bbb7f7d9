// The viewer's action layer and simulation thread without a window, for the
// tests that drive the simulation through the actions (test_actions.cpp,
// test_playback_cache.cpp, test_poke.cpp).
#pragma once

#include <chrono>
#include <thread>

#include "app/viewer/actions.h"
#include "app/viewer/sim_thread.h"
#include "app/viewer/study.h"

namespace viewer_test {

struct Rig {
    app::viewer::ViewerState state;
    app::viewer::SimThread sim;
    app::viewer::Study study;
    app::viewer::Actions actions{state, sim, &study};
};

// Waits until the sim thread publishes a frame satisfying `pred`.
template <class P>
bool waitFor(app::viewer::SimThread& s, P pred, double seconds = 60.0) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        s.update();
        if (pred(s.latest())) return true;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return false;
}

}  // namespace viewer_test

// The iteration-count experiment for students (issue 5, Study panel): one
// muscle hanging from a fixed anchor under gravity; its elongation after a
// fixed simulated time, for a range of iteration counts, in XPBD and in PBD.
// XPBD's answer converges to the material's; PBD's stiffness depends on the
// iteration count. Runs on its own worker thread with its own simulations,
// so it never touches the viewer's sim thread.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/params.h"
#include "sim/scene_desc.h"

namespace app::viewer {

struct StudyResult {
    std::vector<int> iterations;
    std::vector<float> xpbd, pbd;  // elongation (length / rest length − 1), %
    std::string error;
};

class Study {
public:
    ~Study();
    // Starts (or restarts) the experiment with these parameters (stiffness,
    // damping, substeps are taken from them; solver forced to SST).
    void start(const sim::SolverParams& params, int frames = 45);
    bool running() const { return running_.load(); }
    float progress() const { return progress_.load(); }
    StudyResult result() const;

    static sim::SceneDesc hangingMuscle();

private:
    void run(sim::SolverParams params, int frames);
    mutable std::mutex mu_;
    StudyResult result_;
    std::atomic<bool> running_{false}, cancel_{false};
    std::atomic<float> progress_{0.0f};
    std::thread worker_;
};

}  // namespace app::viewer

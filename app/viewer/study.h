// The Study panel's worker (docs/study.md): runs the students' experiment
// (app/study/study_experiment.h, the same one `msxpbd study` runs) on its own thread
// with its own simulations, so the viewer never freezes and the viewer's sim
// thread is never touched. Results are kept per material, so moving the
// slider back to a material already run shows it at once.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "app/study/study_experiment.h"

namespace app::viewer {

class Study {
public:
    ~Study();
    // Shows the experiment for this material: at once when it ran before,
    // else starts it (cancelling a run for another material). Other settings
    // are the Study's defaults (StudySettings); the stiffness is clamped to
    // the slider's range.
    void start(double stiffness);
    void start(const StudySettings& settings);
    bool running() const { return running_.load(); }
    float progress() const { return progress_.load(); }
    double stiffness() const;  // the material last asked for
    // The result for the material last asked for; null while it runs (or
    // before anything was asked).
    std::shared_ptr<const StudyResult> result() const;

private:
    void stop();
    mutable std::mutex mu_;
    std::map<long long, std::shared_ptr<const StudyResult>> cache_;  // key: stiffness in mN/m
    long long wanted_ = -1;
    double stiffness_ = StudySettings{}.stiffness;
    std::atomic<bool> running_{false}, cancel_{false};
    std::atomic<float> progress_{0.0f};
    std::thread worker_;
};

}  // namespace app::viewer

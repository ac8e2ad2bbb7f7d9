// The simulation thread (docs/architecture.md "Threads in the viewer"). It owns the
// scene driver (app/run/scene_driver.h: the same one `run` uses, so the viewer
// computes the same bits); the UI talks to it only through
// setControls()/command() (copied under a short lock) and reads finished
// frames from a triple buffer. No lock is held while stepping or rendering.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app/run/run_report.h"
#include "app/run/scene_driver.h"
#include "sim/skin_wrap.h"
#include "app/viewer/controls.h"
#include "app/viewer/frame_cache.h"
#include "app/viewer/sim_frame.h"
#include "app/viewer/triple_buffer.h"

namespace app::viewer {

// The UI's activation controls as the driver's one rule (app/run/scene_driver.h):
// one activation for all, else each muscle's value and sensor switch when the
// controls were made for this scene (`for_this_scene`) and fit it, else the
// scene's defaults. The sim thread and the Export section's bake use it.
ActivationSource activationSourceFor(const Controls& c, size_t muscles, bool for_this_scene);

class SimThread {
public:
    SimThread();
    ~SimThread();  // stops and joins
    SimThread(const SimThread&) = delete;
    SimThread& operator=(const SimThread&) = delete;

    void start();
    void stop();
    // Called on the sim thread before every step with the frame about to be
    // computed (instrumentation; the tests throw from it). Set before start().
    void setStepHook(std::function<void(int64_t)> hook) { step_hook_ = std::move(hook); }

    // UI side (any thread; cheap).
    void setControls(const Controls& c);
    void command(const Commands& c);

    // Render side (one thread): takes the newest frame if there is one.
    bool update() { return frames_.update(); }
    const SimFrame& latest() const { return frames_.read(); }
    // Publish counter, readable from any thread (tests, headless waits).
    uint64_t published() const { return published_.load(std::memory_order_acquire); }
    // True while nothing is pending and the sim is not playing (tests).
    bool idle() const { return idle_.load(std::memory_order_acquire); }

private:
    void run();
    void loop();
    void fail(const std::string& what);
    void writeReport(const std::string& path);
    void load(const std::string& spec);
    void applyControls(bool physics_changed);
    void rebuildInfo(bool new_load);
    void restart();
    bool stepOne();
    bool advance();
    void wrap();
    void startPass();
    void showRest();
    void startSegmentHere();
    void showCached(const sim::State& s);
    void countShown(bool simulated);
    void applyPokeControl();
    int64_t lastFrame() const;
    int64_t position() const;
    void seekFrame(int64_t target);
    void publish();
    void applyActivations();
    bool stepping() const;
    void cacheCurrent();

    // Shared with the UI under mu_.
    std::mutex mu_;
    std::condition_variable cv_;
    Controls pending_controls_;
    uint64_t pending_serial_ = 0;
    Commands pending_cmds_;
    bool stop_ = false;

    // Sim thread only.
    SceneDriver driver_;
    Controls controls_;
    uint64_t applied_serial_ = 0;
    uint64_t applied_physics_ = ~uint64_t(0);
    sim::SolverKind applied_solver_ = sim::SolverKind::Sst;
    int applied_groups_ = 0;
    FrameCache cache_;
    // The frame the cached run starts from: 0, or the frame the settings
    // last changed at (the states cached since then continue from the old
    // settings' state there, so a new pass from frame 0 must not use them).
    int64_t segment_start_ = 0;
    bool from_cache_ = false;
    uint32_t poke_particle_ = 0;
    bool poked_pass_ = false;  // this pass has poked frames: the next one simulates afresh
    bool poked_run_ = false;   // a poked step since the last load or reset (reports say so)
    uint64_t replayed_ = 0;
    int64_t loops_done_ = 0;
    std::vector<LoopStats> loop_stats_{1};
    uint64_t steps_ = 0;
    double step_ms_ = 0.0, rtf_ = 0.0;
    std::shared_ptr<SceneInfo> info_;
    uint64_t generation_ = 0, load_id_ = 0;
    std::string message_;
    std::string fatal_;   // stepping stopped (SimFrame::fatal)
    RunRecorder recorder_;  // Controls::record_run
    std::function<void(int64_t)> step_hook_;
    sim::StepReport failure_;
    uint64_t reports_ = 0;
    std::string report_error_;

    sim::SkinWrapScratch wrap_scratch_;  // the drawn skin's scratch

    TripleBuffer<SimFrame> frames_;
    std::atomic<uint64_t> published_{0};
    std::atomic<bool> idle_{false};
    std::thread thread_;
};

}  // namespace app::viewer

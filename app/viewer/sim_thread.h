// The simulation thread (DESIGN.md "Threads in the viewer"). It owns the
// engine scene and the sim::Simulation; the UI talks to it only through
// setControls()/command() (copied under a short lock) and reads finished
// frames from a triple buffer. No lock is held while stepping or rendering.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app/viewer/controls.h"
#include "app/viewer/frame_cache.h"
#include "app/viewer/sim_frame.h"
#include "app/viewer/triple_buffer.h"
#include "engine/scene.h"
#include "sim/simulation.h"

namespace app::viewer {

class SimThread {
public:
    SimThread();
    ~SimThread();  // stops and joins
    SimThread(const SimThread&) = delete;
    SimThread& operator=(const SimThread&) = delete;

    void start();
    void stop();

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
    void load(const std::string& spec);
    void applyControls(bool physics_changed);
    void rebuildInfo(bool new_load);
    void restart();
    bool stepOne();
    void seekFrame(int64_t target);
    void publish();
    double duration() const;
    int animation() const;

    // Shared with the UI under mu_.
    std::mutex mu_;
    std::condition_variable cv_;
    Controls pending_controls_;
    uint64_t pending_serial_ = 0;
    Commands pending_cmds_;
    bool stop_ = false;

    // Sim thread only.
    engine::Scene scene_;
    std::unique_ptr<sim::Simulation> sim_ = std::make_unique<sim::Simulation>();
    bool loaded_ = false;
    Controls controls_;
    uint64_t applied_serial_ = 0;
    uint64_t applied_physics_ = ~uint64_t(0);
    sim::SolverKind applied_solver_ = sim::SolverKind::Sst;
    int applied_groups_ = 0;
    FrameCache cache_;
    SimState initial_;
    int64_t frame_ = 0;
    uint64_t steps_ = 0;
    double time_ = 0.0;
    double step_ms_ = 0.0, rtf_ = 0.0;
    std::shared_ptr<SceneInfo> info_;
    uint64_t generation_ = 0, load_id_ = 0;
    std::string message_;
    std::string source_;

    TripleBuffer<SimFrame> frames_;
    std::atomic<uint64_t> published_{0};
    std::atomic<bool> idle_{false};
    std::thread thread_;
};

}  // namespace app::viewer

// The viewer's Export section bakes in the background (issue 13): a worker
// thread with its own scene driver re-simulates the scene from t = 0 with the
// viewer's settings (the same bits the viewer computed: one driver, one rule)
// and writes the chosen frames through app::bakeClip. It never touches the
// viewer's sim thread, and uses one core so the viewer keeps the others.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "app/run/bake.h"

namespace app::viewer {

class BakeJob {
public:
    ~BakeJob();  // cancels and joins (nothing is left behind)
    // Starts baking (a bake in progress is cancelled first).
    void start(BakeRequest request);
    void cancel();
    bool running() const { return running_.load(); }
    float progress() const { return progress_.load(); }  // 0..1 over the frames simulated
    // Bakes finished (done, failed or cancelled) since the start: tests wait on it.
    uint64_t finished() const { return finished_.load(); }
    // What the last finished bake did: "baked ... to FILE" or the error.
    std::string message() const;
    bool failed() const;

private:
    void join();
    mutable std::mutex mu_;
    std::string message_;
    bool failed_ = false;
    std::atomic<bool> running_{false}, cancel_{false};
    std::atomic<float> progress_{0.0f};
    std::atomic<uint64_t> finished_{0};
    std::thread worker_;
};

}  // namespace app::viewer

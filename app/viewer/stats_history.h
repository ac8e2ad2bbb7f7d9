// Histories behind the Stats plots: render fps, sim ms per frame and per
// phase, real-time factor. Render samples come from the main loop, sim
// samples from each newly published frame.
#pragma once

#include <array>
#include <cstdint>

#include "app/viewer/ring_buffer.h"
#include "app/viewer/sim_frame.h"

namespace app::viewer {

struct StatsHistory {
    RingBuffer render_fps, render_ms, sim_ms, rtf;
    std::array<RingBuffer, sim::kPhaseCount> phase_ms;
    uint64_t last_steps = 0;

    void addRender(double frame_seconds) {
        render_ms.push(float(frame_seconds * 1000.0));
        render_fps.push(frame_seconds > 0.0 ? float(1.0 / frame_seconds) : 0.0f);
    }
    // Frames per second over the recent frames: frames / time (the mean of
    // per-frame 1/dt would let a few fast frames hide slow ones).
    float renderFps() const {
        const float ms = render_ms.mean();
        return ms > 0.0f ? 1000.0f / ms : 0.0f;
    }
    // Only frames that were actually stepped add a sample.
    void addSim(const SimFrame& f) {
        if (f.steps == last_steps) return;
        last_steps = f.steps;
        sim_ms.push(float(f.step_ms));
        rtf.push(float(f.realtime_factor));
        for (int p = 0; p < sim::kPhaseCount; ++p) phase_ms[size_t(p)].push(float(f.phase_ms[size_t(p)]));
    }
};

}  // namespace app::viewer

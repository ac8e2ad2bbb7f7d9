// What the UI asks of the simulation thread (docs/architecture.md "pending requests").
// Controls are levels: the sim converges to the latest copy. Commands are
// events: each is consumed once. Both are copied under a short lock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "app/viewer/frame_cache.h"
#include "sim/params.h"

namespace app::viewer {

struct MuscleControl {
    float activation = 0.0f;   // user value, used when the sensor is off or absent
    bool use_sensor = true;    // follow the scene's sensors when the muscle has them
    float overpressure = 0.0f; // κ
};

struct Controls {
    sim::SolverParams params;
    bool playing = true;
    bool loop = true;
    float speed = 1.0f;        // animation seconds per wall second (the sim may be slower)
    bool unthrottled = false;  // step as fast as it can (headless `view --frames`; not in the UI)
    // Playback stops (as if paused) once this many frames are played
    // (SimFrame::position: every loop counts; simulated or from the cache);
    // −1: no limit. Headless `view --frames N` sets N: the state shown and
    // reported is exactly the one after N frames.
    int64_t stop_at_frame = -1;
    // Record every step for a `run`-style report (`view --json`).
    bool record_run = false;
    int animation = 0;         // −1: rest pose
    bool activation_override = false;  // one activation for every muscle
    float global_activation = 0.0f;
    std::vector<MuscleControl> muscles;  // per muscle of the current scene
    bool want_vertex_error = false;      // compute the per-vertex error for the heat map
    bool want_overlap = false;           // measure each vertex's depth inside its neighbours (overlap map)
    bool want_drift = false;             // measure each vertex's drift off its neighbours (drift map)
    bool want_outside = false;           // measure how far each vertex lies outside the skin (outside map)
    bool want_skin_wrap = true;          // wrap the drawn skin over the muscles (the skin is shown)
    bool record_convergence = false;     // record the residual after every iteration (Stats)
    size_t cache_mb = FrameCache::kDefaultBudgetMb;  // the frame cache's memory budget (MB)
    // Poke (sim/poke.h, the viewer's Ctrl+drag): while active, the patch
    // around `poke_particle` is pulled toward `poke_target` by a spring.
    bool poke_active = false;
    uint32_t poke_particle = 0;
    glm::vec3 poke_target{0.0f};
    // Bumped on every change that alters the physics (params, activation,
    // overpressure, animation): the sim re-applies, drops its frame cache and
    // simulates on from the frame it is at.
    uint64_t physics_version = 0;
    // The scene load these per-muscle controls were made for (SceneInfo::load_id);
    // the sim falls back to the scene's defaults until the UI catches up.
    uint64_t scene_load_id = 0;
};

struct Commands {
    std::optional<std::string> load;  // scene spec to load (also used for reload)
    bool reset = false;               // back to the rest pose at t = 0
    int step = 0;                     // frames to advance while paused
    int step_back = 0;                // frames to go back
    std::optional<double> seek;       // animation time (s)
    std::optional<std::string> report;  // write the recorded run's report (JSON) to this path
    bool empty() const { return !load && !reset && step == 0 && step_back == 0 && !seek && !report; }
    // Later commands win for load/seek, counts add up.
    void merge(const Commands& c) {
        if (c.load) load = c.load;
        reset = reset || c.reset;
        if (c.reset) seek.reset();
        step += c.step;
        step_back += c.step_back;
        if (c.seek) seek = c.seek;
        if (c.report) report = c.report;
    }
};

}  // namespace app::viewer

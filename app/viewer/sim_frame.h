// A finished simulation frame as published to the render thread: positions
// and everything the panels show about it. Each published frame is complete
// on its own; `scene` ties it to the topology it was computed on.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "engine/render/camera.h"
#include "engine/render/draw_topology.h"
#include "engine/scene/scene.h"
#include "sim/simulation.h"

namespace app::viewer {

// Per loaded scene (and solver colouring): immutable once published.
// Distance constraints of one muscle by kind (the selection's panel).
struct MuscleConstraintCounts {
    size_t surface = 0, spoke = 0, medulla = 0;
};

struct SceneInfo {
    uint64_t generation = 0;   // increments on every load / topology rebuild
    uint64_t load_id = 0;      // increments on every load only
    std::string source;
    std::string error;         // load error (the previous scene stays loaded)
    std::shared_ptr<const engine::render::DrawTopology> topology;
    std::vector<std::string> muscle_names;
    std::vector<bool> muscle_has_sensor;
    std::vector<float> muscle_overpressure;   // scene defaults
    std::vector<float> muscle_activation;     // scene defaults (initial activation)
    std::vector<MuscleConstraintCounts> muscle_constraints;  // per muscle
    std::vector<std::string> animations;
    std::vector<double> durations;
    // Where the bones reach over every animation, as spheres (xyz centre, w
    // radius: the capsule plus a margin for the muscles on it), and the box
    // of a muscle-less scene's meshes over its animations as zero-radius
    // corners: "frame all" keeps the whole motion in view.
    std::vector<glm::vec4> motion_spheres;
    engine::SceneSolverSettings solver;        // the scene's own substeps / carry
    size_t vertices = 0, branch_points = 0;
    sim::ConstraintCounts counts;
    int colors = 0;
    std::vector<uint32_t> color_sizes;
};

// Events counted over the wall time between the first and the last: their
// rate is count − 1 over that span (frames shown in a loop, frames drawn).
struct RateSpan {
    int64_t count = 0;
    double first_s = -1.0, last_s = -1.0;  // steady-clock seconds
    void note(double now_s) {
        ++count;
        if (first_s < 0.0) first_s = now_s;
        last_s = now_s;
    }
    double perSecond() const { return count > 1 && last_s > first_s ? double(count - 1) / (last_s - first_s) : 0.0; }
};

// One loop of the animation as played: how many of its frames were
// simulated and how many shown from the cache, and all it showed over time
// (`shown.perSecond()`: the presented rate).
struct LoopStats {
    int64_t simulated = 0, cached = 0;
    bool poked = false;  // some of its frames were simulated while a muscle was poked
    RateSpan shown;
};

struct SimFrame {
    std::shared_ptr<const SceneInfo> scene;
    uint64_t serial = 0;       // publish counter
    uint64_t steps = 0;        // frames stepped since the thread started (never wraps with the loop)
    int64_t frame = 0;         // animation frame index
    double time = 0.0;         // animation time (s)
    double duration = 0.0;     // of the current animation (0: none)
    bool playing = false;
    bool at_end = false;       // the animation does not loop and has ended: no more frames
    std::vector<glm::vec3> x;
    std::vector<float> activation;     // per muscle, filtered
    std::vector<float> sensor;         // per muscle live sensor value (−1: none)
    std::vector<float> vertex_error;   // per particle relative strain (empty unless asked)
    std::vector<float> vertex_overlap; // per particle m past the contact radius inside another muscle (empty unless asked)
    std::vector<float> vertex_drift;   // per particle m off its nearest other surface beyond rest (empty unless asked)
    std::vector<float> vertex_outside; // per particle m outside the skin as posed from the file (empty unless asked)
    std::vector<glm::vec3> skin_wrap;  // the skin wrapped over the muscles (sim/skin_wrap.h; empty unless the skin is shown)
    std::vector<glm::vec3> contact_p, contact_n;
    std::vector<glm::mat4> joint_globals, body_transforms;
    std::vector<float> morph_weights;  // engine::Scene::morphWeights at `time`
    // Statistics of the last step.
    std::array<double, sim::kPhaseCount> phase_ms{};
    double step_ms = 0.0;              // wall time of the last stepFrame
    double realtime_factor = 0.0;      // simulated seconds per wall second (smoothed)
    sim::Residuals residuals;
    std::vector<float> convergence;    // residual after each iteration
    std::vector<sim::MuscleStats> muscle_stats;
    sim::SolverParams params;          // as applied
    int threads = 1;                   // OpenMP threads in use
    // Playback from the frame cache (app/viewer/frame_cache.h).
    size_t cached_frames = 0;
    size_t cache_bytes = 0, cache_budget = 0;
    std::vector<uint8_t> cache_mask;   // per frame 0..last of the animation: 1 when cached
    bool from_cache = false;           // this frame was restored from the cache, not simulated
    bool poking = false;               // a muscle is being poked (Controls::poke_active)
    bool poked = false;                // this pass of the animation has poked frames
    uint64_t replayed = 0;             // frames shown from the cache since the thread started
    // Frames played since the last load or reset, counting every loop
    // (loops · frames per loop + frame): what Controls::stop_at_frame counts.
    int64_t position = 0;
    int64_t loop = 0;                  // loops completed since the last load or reset
    std::vector<LoopStats> loops;      // one per loop played, the current one last
    std::string message;               // last error / NaN report (sticky until the next change)
    // A failure the sim thread cannot go on from (an exception while
    // stepping: out of memory): stepping stops until a load or reset.
    std::string fatal;
    uint64_t reports = 0;              // reports written (Commands::report)
    std::string report_error;          // why the last one was not written
};

}  // namespace app::viewer

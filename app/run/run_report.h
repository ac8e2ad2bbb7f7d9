// The `run --json` report (docs/architecture.md) and its human summary, shared by `run`
// and `bench`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/simulation.h"
#include "sim/skin_wrap.h"

namespace app {

// Collects per-frame wall times and per-phase times over a run.
// Also tracks what went worst over the whole run (bone penetration, volume
// ratios) and, with `trace`, every muscle's activation, volume and length
// per frame (`run --trace`).
struct RunRecorder {
    std::vector<double> frame_ms;
    std::vector<double> phase_ms_sum = std::vector<double>(sim::kPhaseCount, 0.0);
    bool trace = false;
    // false: times only (bench), without the per-frame penetration and
    // volume measures, which cost more than a frame of the smaller scenes.
    bool measure = true;
    struct Extreme {
        double value = 0.0;
        int muscle = -1;
        int64_t frame = -1;
        std::string into;  // penetrations: the bone / muscle it went into
        int vertex = -1;   // penetrations: the muscle's vertex (index in its mesh)
    };
    // Penetrations: depth inside the surface less one contact radius (the
    // tolerance the contacts keep); volume ratios: frame −1 until a muscle is seen.
    Extreme bone_penetration, muscle_penetration, min_volume_ratio{1e30, -1, -1, {}},
        max_volume_ratio{-1e30, -1, -1, {}};
    std::vector<double> trace_time;
    std::vector<std::vector<float>> trace_activation, trace_volume_ratio, trace_length_ratio;  // [frame][muscle]
    std::vector<float> trace_bone_penetration, trace_muscle_penetration;  // per frame, m
    std::vector<int> trace_muscle_vertices_past_3mm;                      // per frame
    int most_muscle_vertices_past_3mm = 0;                                // over the run
    // Over the run, per ordered pair of muscles (a vertex of `muscle` inside
    // `into`): the vertices more than 3 mm past the contact radius, summed
    // over frames, and the deepest with its frame — which neighbours sink
    // into which, for tuning the tissue contacts.
    struct PairOverlap {
        int muscle = -1, into = -1;
        int64_t vertex_frames = 0;
        double deepest = 0.0;
        int64_t frame = -1;
    };
    std::vector<PairOverlap> muscle_pairs;  // ordered by (muscle, into)
    // The limb measures (docs/model.md §8), per frame and over the run:
    // surface vertices outside the skin (the envelope as posed from the
    // file), and inside another muscle (raw depth, without the contact radius).
    Extreme outside_skin;
    std::vector<float> outside_share_past_2mm;  // per frame: share of the measured vertices
    std::vector<float> outside_per_muscle;      // per muscle: the farthest out over the run, m
    bool has_envelope = false;
    // The drawn skin (sim/skin_wrap.h) each frame: how far any surface vertex
    // lies outside it, and what computing it cost.
    Extreme outside_drawn_skin;
    std::vector<double> skin_wrap_ms;
    sim::SkinWrapScratch wrap_scratch;
    std::vector<glm::vec3> drawn_skin;
    // Drift (sim/limb_drift.h): per frame the 99th percentile over the free
    // surface vertices; over the run the largest, and per muscle.
    std::vector<float> drift_p99;
    Extreme drift;
    std::vector<float> drift_per_muscle;
    Extreme into_muscle;
    std::vector<float> into_share_past_3mm;     // per frame: share of the free surface vertices
    // `drawn_skin`: the frame's drawn skin when the caller has it already
    // (bake), so it is not wrapped twice; else wrapped here.
    void addFrame(double ms, const sim::Simulation& s, const std::vector<glm::vec3>* drawn_skin_given = nullptr);
    double median() const;
    double percentile(double q) const;
};

std::string buildType();
std::string hex64(uint64_t v);
// The part of the report known before the first step: scene, sizes,
// constraint counts, solver settings, threads, build type.
nlohmann::json runSetup(const std::string& scene, const sim::Simulation& s);
nlohmann::json runReport(const std::string& scene, const sim::Simulation& s, const RunRecorder& rec,
                         const sim::StepReport& failure);
void printRunSummary(std::ostream& os, const nlohmann::json& report);  // header + results
// What a run is about to do (scene, sizes, solver, threads, build): printed
// before the first step, so a long run says at once what it runs.
void printRunHeader(std::ostream& os, const nlohmann::json& setup);
// The figures of a finished run (timing, final state, worst over the run).
void printRunResults(std::ostream& os, const nlohmann::json& report);

}  // namespace app

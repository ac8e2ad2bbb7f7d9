// The students' Study (docs/study.md): builtin:hang, a muscle hanging from its
// top under gravity, run to rest for a grid of solver settings, and how far
// it stretches in each, against the reference answer (the static equilibrium
// of the same material, solved directly: app/study/static_equilibrium.h).
//   - "iterations" view: XPBD, PBD (k') and PBD raw against the iteration
//     count, at each substep count;
//   - "equal_cost" view: the same modes at a fixed substeps × iterations per
//     frame, against the substep count (Macklin et al. 2019, "Small Steps").
// `msxpbd study` and the viewer's Study panel both run this; no GL, no UI.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/params.h"

namespace app {

struct StudySettings {
    // The material: XPBD stiffness of the fibre and structure families, N/m
    // (the edges of the muscle's surface and of its inner structure).
    double stiffness = 300.0;
    std::vector<int> substeps{1, 4, 16};
    std::vector<int> iterations{1, 2, 5, 10, 20, 50};
    int equal_cost = 64;   // substeps × iterations per frame in the equal-cost view
    int frames = 60;       // simulated frames (of 1/30 s) before the stretch is read (2 s: at rest by then)
    // 1/s for the first half of the frames, then eased linearly to 0 by the
    // last: the swing settles, and the stretch is read undamped (the damping
    // also scales the velocity gravity adds in a substep by 1 − d·Δt, so a
    // damped muscle rests up to d·Δt higher: 17% at 5/s and 1 substep).
    float damping = 5.0f;
    int threads = 0;       // runs side by side (each run on one thread); 0: every core

    static constexpr double kMinStiffness = 10.0, kMaxStiffness = 1e5;  // N/m, the slider's range
    // Empty, or what is wrong (named like the command's flags).
    std::string validate() const;
};

struct StudyPoint {
    std::string view;  // "iterations" or "equal_cost"
    sim::ConstraintMode mode = sim::ConstraintMode::Xpbd;
    int substeps = 1, iterations = 1;
    double elongation_pct = 0.0;  // origin–insertion length / rest length − 1, in %
    double pbd_k = 0.0;           // the PBD stiffness this run used (0 for XPBD)
    bool ok = true;               // false: the NaN guard fired (elongation not read)
    // The muscle's surface at the end of the run (StudyResult::triangles
    // index it; empty when not ok): what the Study's muscle view draws.
    std::vector<glm::vec3> shape;
};

struct StudyResult {
    StudySettings settings;
    double reference_pct = 0.0;
    std::string reference_method;
    std::vector<StudyPoint> points;
    double mean_inverse_mass = 0.0;  // 1/kg, w̄ of the PBD stiffness rule
    // The hanging muscle's surface: its triangles, its rest shape (as built,
    // unstretched) and its reference shape (the static equilibrium).
    std::vector<glm::uvec3> triangles;
    std::vector<glm::vec3> rest_shape, reference_shape;
    std::string error;               // empty on success
    bool cancelled = false;

    // The points of one curve, in the order of the settings' lists.
    std::vector<StudyPoint> curve(const std::string& view, sim::ConstraintMode mode, int substeps = 0) const;
    // Relative error of a point against the reference, in % of the reference.
    double errorPct(const StudyPoint& p) const;
    // The point of a view with these settings (iterations ignored in the
    // equal-cost view, where the split fixes them), or null.
    const StudyPoint* find(const std::string& view, sim::ConstraintMode mode, int substeps, int iterations) const;
};

// The stiffness PBD is given for a run so that its single projection of an
// edge moves as far as XPBD's first projection does at the same substep:
// k_PBD = w̄ / (w̄ + α̃), α̃ = 1 / (k·Δt²). PBD has no physical stiffness; this
// is the fairest match (PBD raw at 1 iteration ≈ XPBD at 1 iteration).
double pbdStiffnessFor(double k, double frame_dt, int substeps, double mean_inverse_mass);

// Runs the whole Study. `progress` (0..1) and `cancel` may be null; a
// cancelled run returns with `cancelled` set. Same settings, same numbers,
// for any thread count.
StudyResult runStudy(const StudySettings& settings, std::atomic<float>* progress = nullptr,
                     const std::atomic<bool>* cancel = nullptr);

// The documented outputs (docs/study.md "Output"): CSV with one row per point,
//   view,mode,substeps,iterations,elongation_pct,reference_pct,error_pct,pbd_k
// and JSON with the settings, the reference and the same points.
std::string studyCsv(const StudyResult& r);
std::string studyJson(const StudyResult& r);

}  // namespace app

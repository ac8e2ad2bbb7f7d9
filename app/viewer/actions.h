// The app-level action layer: every change a user can make (keyboard, mouse,
// widgets, presets, the command line, tests) goes through these functions, so
// the keyboard path, the widget path and a scripted test all produce the same
// state. ImGui 1.86 has no test engine; this is how the viewer is driven.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/run/preset_format.h"
#include "app/viewer/viewer_state.h"
#include "engine/render/render_options.h"
#include "sim/params.h"

namespace app::viewer {

class SimThread;
class Study;
class BakeJob;
struct SceneInfo;

class Actions {
public:
    // `study` is optional (the Study panel's experiment; the viewer has one).
    Actions(ViewerState& state, SimThread& sim, Study* study = nullptr) : s_(state), sim_(sim), study_(study) {}

    // Scene
    void openScene(const std::string& spec);
    void reload();
    void setAnimation(int index);
    // Called by the viewer when a newly loaded scene is published: per-muscle
    // controls take the scene's defaults.
    void adoptScene(const SceneInfo& info);

    // Timeline
    void setPlaying(bool on);
    void togglePlay() { setPlaying(!s_.controls.playing); }
    void stepForward(int frames = 1);
    void stepBack(int frames = 1);
    void reset();
    void scrubTo(double seconds);
    void setSpeed(float speed);  // clamped to [preset_limits::kSpeedMin, kSpeedMax]
    void setLoop(bool on);
    // The frame cache's memory budget (app/viewer/frame_cache.h), in MB.
    static constexpr int kCacheMbMin = 16, kCacheMbMax = 65536;
    std::string setCacheBudget(double mb);
    // Pull `particle`'s patch toward `target` (sim/poke.h); pokeRelease lets go.
    void poke(uint32_t particle, glm::vec3 target);
    void pokeRelease();

    // Solver and material (validated: returns an error, state unchanged)
    std::string setSolver(sim::SolverKind kind);
    std::string setMode(sim::ConstraintMode mode);
    std::string setFiberForm(sim::FiberForm form);
    std::string setContactModel(sim::ContactModel model);
    std::string setNumeric(std::string_view name, double value);  // any sim::numericParams() entry
    std::string setIterations(int n) { return setNumeric("iterations", n); }
    std::string setThreads(int n) { return setNumeric("threads", n); }
    std::string setSubsteps(int n) { return setNumeric("substeps", n); }
    std::string setStiffness(sim::Family family, float k);  // for the current mode
    std::string setParams(const sim::SolverParams& p);      // whole set (presets)
    void resetMaterial();

    // Muscles
    void setGlobalActivation(std::optional<float> a);  // nullopt: per-muscle / sensors
    void setMuscleActivation(size_t m, float a);
    void setMuscleSensor(size_t m, bool on);
    void setMuscleOverpressure(size_t m, float kappa);
    void setGlobalOverpressure(float kappa);
    void selectMuscle(int m);
    void setMuscleHidden(size_t m, bool hidden);
    void soloMuscle(int m);  // −1: none

    // View
    void setOverlay(engine::render::Overlay o, bool on);
    // Stats: the residual after every iteration of the last substep.
    void setRecordConvergence(bool on);
    void toggleOverlay(engine::render::Overlay o) { setOverlay(o, !s_.render.overlay(o)); }
    void frameAll() { s_.frame_requested = true; }
    void setUiVisible(bool on) { s_.ui_visible = on; }
    void toggleUi() { s_.ui_visible = !s_.ui_visible; }
    void toggleHelp() { s_.show_help = !s_.show_help; }
    void screenshot(const std::string& path) { s_.screenshot_path = path; }
    // Video: one frame per simulated frame from the next one on, until stopped
    // (the viewer holds the simulation back while a frame is encoded).
    void startRecording(const std::string& path) {
        s_.record_request = path;
        s_.record_stop = false;
    }
    void stopRecording() { s_.record_stop = true; }
    // Export: bakes frames first..last (1-based, as the timeline counts) of
    // the scene with the current settings to `path` (.glb, .gltf, .usda,
    // .pc2) in the background. Returns an error (bad range, unknown format,
    // folder not writable, no bake job) or empty.
    void setBakeJob(BakeJob* job) { bake_ = job; }
    std::string bake(const std::string& path, int64_t first, int64_t last);
    void cancelBake();
    void setShadows(bool on) { s_.render.shadows = on; }
    // The fast render path for software rasterisers (engine/render/render_path.h).
    void setFastRender(engine::render::FastRender f) { s_.render.fast_render = f; }
    void setBones(bool on) { s_.render.bones = on; }
    void setGround(bool on) { s_.render.ground = on; }
    // Translucent meshes (the skin over the muscles; docs/scene-format.md,
    // "Translucent meshes"): all shown or hidden, and their opacity as a
    // factor on the material's alpha (clamped to the range below).
    // Shows or hides the translucent meshes; the sim thread wraps the skin
    // over the muscles only while it is shown (sim/skin_wrap.h).
    void setSkin(bool on);
    void toggleSkin() { s_.render.skin = !s_.render.skin; }
    static constexpr float kSkinOpacityMin = app::preset_limits::kSkinOpacityMin;
    static constexpr float kSkinOpacityMax = app::preset_limits::kSkinOpacityMax;
    void setSkinOpacity(float factor);
    // Relative strain at the top of the heat map's colours (clamped to the range below).
    static constexpr float kErrorScaleMin = app::preset_limits::kErrorScaleMin;
    static constexpr float kErrorScaleMax = app::preset_limits::kErrorScaleMax;
    void setErrorScale(float scale);
    void setCamera(const engine::render::OrbitCamera& c) {
        s_.camera = c;
        s_.frame_requested = false;
        s_.camera_set = true;
    }
    // Mouse: orbit and pan by a drag in window pixels, zoom by wheel steps.
    void orbitCamera(float dx_px, float dy_px) { s_.camera.orbit(dx_px, dy_px); }
    void panCamera(float dx_px, float dy_px, float window_height_px) { s_.camera.pan(dx_px, dy_px, window_height_px); }
    void zoomCamera(float wheel_steps) { s_.camera.zoom(wheel_steps); }

    // The Study (docs/study.md): shows the experiment for a material (N/m;
    // none: the one last shown), running it in the background unless it ran
    // before; opens the Study window. Returns an error when there is no study
    // here or the stiffness is out of range.
    std::string runStudy(std::optional<double> stiffness = std::nullopt);
    void showStudy(bool on);
    // Writes the Study's points as CSV (docs/study.md "Output"), or its plot as
    // PNG after the next rendered frame (`rect`: the plot in window units).
    std::string exportStudyCsv(const std::string& path);
    void exportStudyPlot(const std::string& path, const float rect[4]);
    // Asks the Study window to export its plot as PNG (it knows where the plot is).
    void requestStudyPlot(const std::string& path) { s_.study_png_request = path; }
    // The Study's point shown in its muscle view: a mode, substeps and
    // iterations (iterations: per substep; the equal-cost view uses the split).
    std::string selectStudyPoint(sim::ConstraintMode mode, int substeps, int iterations);

    // Presets (JSON)
    std::string savePreset(const std::string& path);
    std::string loadPreset(const std::string& path);

    // Text form of every action, e.g. "set solver coloring", "scrub 1.5",
    // "set iterations 20", "overlay wireframe on", "bones off", "skin on", "skin-opacity 1.5",
    // "error-scale 0.1", "fast-render on", "cache-mb 2048",
    // "orbit 40 0", "zoom 2", "study", "study 300", "study-window off", "study-png F", "study-point xpbd 4 10",
    // "reload". Returns an error
    // or empty. Used by the tests (the UI calls the typed actions above; the
    // verbs are listed in actions.cpp, not in the Help panel).
    std::string execute(std::string_view command);

    const ViewerState& state() const { return s_; }

private:
    void pushControls(bool physics);
    void updateVisibility();
    ViewerState& s_;
    SimThread& sim_;
    Study* study_;
    BakeJob* bake_ = nullptr;
};

}  // namespace app::viewer

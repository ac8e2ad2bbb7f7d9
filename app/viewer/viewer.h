// The interactive viewer: window, renderer, UI panels and the sim thread,
// tied together by the action layer. Also the headless path used by
// `view --frames N --screenshot F` and by the tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/viewer/actions.h"
#include "app/viewer/bake_job.h"
#include "app/viewer/pick.h"
#include "app/viewer/sim_thread.h"
#include "app/viewer/stats_history.h"
#include "app/viewer/study.h"
#include "app/viewer/video_recorder.h"
#include "app/viewer/view_options.h"
#include "app/viewer/viewer_state.h"
#include "app/viewer/window.h"
#include "engine/render/renderer.h"

namespace app::viewer {

class Viewer {
public:
    explicit Viewer(ViewOptions options);
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    // Window, GL, renderer, sim thread; asks for the scene. Returns an error or empty.
    std::string init();
    // One iteration of the main loop: input, newest sim frame, render, UI, present.
    void frame();
    void pace() const;  // sleeps out the rest of the frame under --max-fps
    double measuredRenderFps() const;  // frames / s drawn while the sim stepped (headless runs)
    // The whole program: interactive loop, or headless when options.frames > 0.
    int run();

    // Pumps frame() until the shown frame has `steps` stepped frames and the
    // scene is loaded, or the timeout passes. Returns whether it got there.
    bool runUntilSteps(uint64_t steps, double timeout_s);
    // Pumps frame() until a frame published after this call is shown.
    bool runUntilFresh(double timeout_s);
    // The last rendered image (RGBA, top row first), UI included when visible.
    std::vector<uint8_t> capture(int& width, int& height) const;

    // The mouse over the 3D view at window point (x, y) (window units, y
    // down): hovering names the muscle under it (ViewerState::hover_muscle),
    // a click selects it (none there: clears the selection). Over a panel
    // neither happens. The mouse and the tests take this path.
    void hoverAt(float x, float y);
    void clickAt(float x, float y);
    // Poke (Ctrl + left drag): grabs the muscle surface under (x, y) and pulls
    // it toward the mouse with a spring (sim/poke.h) while the sim plays;
    // returns whether a muscle was there. pokeMove follows the mouse at the
    // grabbed point's depth; pokeEnd lets go and the muscle returns.
    bool pokeStart(float x, float y);
    void pokeMove(float x, float y);
    void pokeEnd();

    Actions& actions() { return actions_; }
    ViewerState& state() { return state_; }
    SimThread& sim() { return sim_; }
    const SimFrame& shown() const { return sim_.latest(); }
    const engine::render::Renderer& renderer() const { return renderer_; }
    const StatsHistory& stats() const { return stats_; }
    const BakeJob& bakeJob() const { return bake_job_; }
    const Study& study() const { return study_; }

private:
    int runUnguarded();
    int runHeadless();
    // Pumps frame() until the scene is shown (loaded, adopted by the UI,
    // preset applied) or it failed to load; returns an error or empty.
    std::string runUntilAdopted(double timeout_s);
    void takeSimFrame();
    void drawUi(const SimFrame& f);
    void handleDrag(double dx, double dy, int button, int mods);
    // --fast-render, when given, over the default or a preset. At the start
    // only: a recording (--record) without it is drawn on the full path (a
    // video is what people keep; the fast path is for interaction).
    void applyFastRenderOption(bool at_start);
    // How a headless run paced its sim: "flat out", or "real time" (--realtime).
    const char* simPace() const;
    std::string addRenderReport(const std::string& path, double fps) const;
    void writeScreenshot();
    // Recording: takes up start/stop requests, encodes each newly stepped
    // frame and holds the simulation at the next frame until it is drawn.
    void updateRecording(const SimFrame& f);
    void stopRecording();
    void holdAt(int64_t frame);
    void noteLoop(const SimFrame& f);
    Ray rayAt(float x, float y) const;
    PickHit pickAt(float x, float y, const Ray& ray) const;
    void pollPointer();
    void printLoops() const;
    void writePlotExport();

    ViewOptions opt_;
    uint64_t measured_frames_ = 0;
    // Frames drawn while each loop of the animation played (headless runs).
    std::vector<RateSpan> loop_render_;
    std::chrono::steady_clock::time_point measure_start_{};
    ViewerState state_;
    SimThread sim_;
    Actions actions_;
    Window window_;
    engine::render::Renderer renderer_;
    StatsHistory stats_;
    Study study_;
    VideoRecorder recorder_;
    BakeJob bake_job_;
    bool left_down_ = false;     // the left button, as last polled
    bool poking_ = false;
    float poke_depth_ = 0.0f;    // along the ray, where the poke grabbed
    glm::vec3 poke_offset_{0.0f};  // the grabbed particle from the point the ray met
    double press_x_ = 0.0, press_y_ = 0.0, travel_ = 0.0;  // where it went down, how far it moved since
    uint64_t recorded_serial_ = 0;
    int64_t recorded_position_ = 0;
    uint64_t shown_load_ = 0, shown_generation_ = 0;
    bool preset_pending_ = false;
    std::string fatal_;
    std::chrono::steady_clock::time_point last_frame_;
};

}  // namespace app::viewer

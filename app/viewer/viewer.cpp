#include "app/viewer/viewer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <fstream>
#include <thread>

#include <glad/gl.h>
#include <imgui.h>
#include <GLFW/glfw3.h>
#include <nlohmann/json.hpp>

#include "app/viewer/panels.h"
#include "app/viewer/pick.h"
#include "app/viewer/shortcuts.h"
#include "engine/render/png_writer.h"
#include "engine/build_info.h"
#include "engine/export/temp_files.h"

namespace app::viewer {

using Clock = std::chrono::steady_clock;

Viewer::Viewer(ViewOptions options) : opt_(std::move(options)), actions_(state_, sim_, &study_) {
    actions_.setBakeJob(&bake_job_);
}

Viewer::~Viewer() {
    // The sim thread goes first: it must not outlive anything it reads.
    sim_.stop();
}

std::string Viewer::init() {
    if (auto e = window_.create(opt_.width, opt_.height, !opt_.hidden, "msxpbd"); !e.empty()) return e;
    if (auto e = renderer_.init(); !e.empty()) return e;
    window_.setHandlers({
        [this](int key, int mods) { handleKey(key, mods, actions_); },
        [this](double dx, double dy, int b, int mods) { handleDrag(dx, dy, b, mods); },
        [this](double steps) { actions_.zoomCamera(float(steps)); },
        [this](const std::vector<std::string>& paths) {
            if (!paths.empty()) actions_.openScene(paths.front());
        },
    });
    std::string note;
    std::string scene = opt_.scene.empty() ? defaultScene(note) : opt_.scene;
    if (!note.empty()) {
        std::fprintf(stderr, "msxpbd view: %s\n", note.c_str());
        state_.status = note;
    }
    // Headless: no need to wait for wall-clock time, unless asked to pace the
    // sim as the window does (--realtime: measuring what a presenter sees).
    if (opt_.frames > 0 && !opt_.realtime) state_.controls.unthrottled = true;
    state_.ui_visible = opt_.ui;
    applyFastRenderOption(true);
    preset_pending_ = !opt_.preset.empty();
    sim_.setControls(state_.controls);
    sim_.start();
    actions_.openScene(scene);
    if (opt_.panel == "study" || opt_.panel == "study-cost") {
        state_.study_equal_cost = opt_.panel == "study-cost";
        actions_.showStudy(true);
    }
    last_frame_ = Clock::now();
    return {};
}

void Viewer::applyFastRenderOption(bool at_start) {
    if (at_start && opt_.fast_render.empty() && !opt_.record.empty()) actions_.setFastRender(engine::render::FastRender::Off);
    if (auto f = engine::render::parseFastRender(opt_.fast_render)) actions_.setFastRender(*f);
}

void Viewer::handleDrag(double dx, double dy, int button, int mods) {
    if (poking_) return;  // Ctrl + left drag pulls a muscle, not the camera
    int w = 0, h = 0;
    window_.windowSize(w, h);
    bool pan = button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE ||
               (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_SHIFT));
    if (pan)
        actions_.panCamera(float(dx), float(dy), float(h));
    else
        actions_.orbitCamera(float(dx), float(dy));
}

namespace {
bool insideArea(const ViewerState::Area& a, float x, float y) { return x >= a.left && x < a.right && y >= a.top && y < a.bottom; }
}  // namespace

// The ray through window point (x, y) as the camera draws it.
Ray Viewer::rayAt(float x, float y) const {
    int ww = 0, wh = 0;
    window_.windowSize(ww, wh);
    return rayThrough(state_.camera, x, y, float(std::max(ww, 1)), float(std::max(wh, 1)));
}

// What the mouse at (x, y) points at along `ray` (rayAt(x, y)) on the drawn
// muscles: nothing over a panel or before a scene's frame is shown.
PickHit Viewer::pickAt(float x, float y, const Ray& ray) const {
    const SimFrame& f = sim_.latest();
    if (!f.scene || !f.scene->topology || f.x.size() != f.scene->topology->particle_count) return {};
    if (state_.ui_visible && !insideArea(state_.free_area, x, y)) return {};
    return pickSurface(*f.scene->topology, f.x, ray, state_.render);
}

void Viewer::hoverAt(float x, float y) { state_.hover_muscle = pickAt(x, y, rayAt(x, y)).muscle; }

void Viewer::clickAt(float x, float y) {
    if (state_.ui_visible && !insideArea(state_.free_area, x, y)) return;
    hoverAt(x, y);
    actions_.selectMuscle(state_.hover_muscle);
}

bool Viewer::pokeStart(float x, float y) {
    const Ray ray = rayAt(x, y);
    const PickHit hit = pickAt(x, y, ray);
    if (hit.muscle < 0) return false;
    const glm::vec3 grabbed = sim_.latest().x[hit.particle];
    poking_ = true;
    poke_depth_ = hit.distance;
    poke_offset_ = grabbed - (ray.origin + hit.distance * ray.dir);
    actions_.poke(hit.particle, grabbed);
    return true;
}

void Viewer::pokeMove(float x, float y) {
    if (!poking_) return;
    const Ray ray = rayAt(x, y);
    actions_.poke(state_.controls.poke_particle, ray.origin + poke_depth_ * ray.dir + poke_offset_);
}

void Viewer::pokeEnd() {
    poking_ = false;
    actions_.pokeRelease();
}

// The mouse, polled once a frame: hover picks, a left click that did not
// drag (orbit) selects, Ctrl + left drag pokes. Not over a panel (ImGui has
// the mouse there).
void Viewer::pollPointer() {
    double x = 0.0, y = 0.0;
    glfwGetCursorPos(window_.handle(), &x, &y);
    const bool over_ui = state_.ui_visible && ImGui::GetCurrentContext() && ImGui::GetIO().WantCaptureMouse;
    const bool down = glfwGetMouseButton(window_.handle(), GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    if (down && !left_down_) {
        press_x_ = x;
        press_y_ = y;
        travel_ = 0.0;
    }
    if (down) travel_ = std::max(travel_, std::hypot(x - press_x_, y - press_y_));
    const bool ctrl = glfwGetKey(window_.handle(), GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
                      glfwGetKey(window_.handle(), GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
    if (down && !left_down_ && ctrl && !over_ui) pokeStart(float(x), float(y));
    if (poking_) {
        if (down) {
            pokeMove(float(x), float(y));
        } else {
            pokeEnd();
        }
        left_down_ = down;
        return;
    }
    if (!over_ui) {
        hoverAt(float(x), float(y));
        if (!down && left_down_ && travel_ < 4.0) clickAt(float(x), float(y));
    } else {
        state_.hover_muscle = -1;
    }
    left_down_ = down;
}

void Viewer::takeSimFrame() {
    if (!sim_.update()) return;
    const SimFrame& f = sim_.latest();
    stats_.addSim(f);
    if (!f.scene) return;
    if (!f.scene->error.empty()) state_.status = f.scene->error;
    if (f.scene->load_id != shown_load_ && f.scene->topology) {
        shown_load_ = f.scene->load_id;
        actions_.adoptScene(*f.scene);
        if (preset_pending_) {
            preset_pending_ = false;
            auto e = actions_.loadPreset(opt_.preset);
            applyFastRenderOption(false);  // the command line wins over the preset
            if (!e.empty()) {
                state_.status = e;
                if (opt_.frames > 0)
                    fatal_ = e;  // the headless run ends with it
                else
                    std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
            }
        }
    }
    if (f.scene->generation != shown_generation_) {
        shown_generation_ = f.scene->generation;
        renderer_.setTopology(f.scene->topology);
    }
}

void Viewer::frame() {
    window_.pollEvents();
    if (!opt_.hidden) pollPointer();
    auto now = Clock::now();
    stats_.addRender(std::chrono::duration<double>(now - last_frame_).count());
    last_frame_ = now;
    takeSimFrame();
    const SimFrame& f = sim_.latest();

    engine::render::DrawFrame df;
    if (f.scene && f.scene->topology && f.x.size() == f.scene->topology->particle_count &&
        f.scene->generation == shown_generation_) {
        df.serial = f.serial;
        df.positions = f.x;
        df.muscle_activation = f.activation;
        df.vertex_error = f.vertex_error;
        df.vertex_overlap = f.vertex_overlap;
        df.vertex_drift = f.vertex_drift;
        df.vertex_outside = f.vertex_outside;
        df.skin_wrap = f.skin_wrap;
        df.contact_points = f.contact_p;
        df.contact_normals = f.contact_n;
        df.joint_globals = f.joint_globals;
        df.body_transforms = f.body_transforms;
        df.morph_weights = f.morph_weights;
    }
    int fbw = 0, fbh = 0;
    window_.framebufferSize(fbw, fbh);
    if (fbw <= 0 || fbh <= 0) return;  // minimised
    // The view's centre in the middle of what the panels leave free
    // (ViewerState::free_area, as the last UI frame laid them out).
    int ww = 0, wh = 0;
    window_.windowSize(ww, wh);
    float fill_x = 1.0f, fill_y = 1.0f;
    state_.camera.shift_x = state_.camera.shift_y = 0.0f;
    if (state_.ui_visible && ww > 0 && wh > 0) {
        const ViewerState::Area& a = state_.free_area;
        if (a.right > a.left + 64.0f && a.bottom > a.top + 64.0f) {
            state_.camera.shift_x = (a.left + a.right) / float(ww) - 1.0f;
            state_.camera.shift_y = 1.0f - (a.top + a.bottom) / float(wh);
            fill_x = (a.right - a.left) / float(ww);
            fill_y = (a.bottom - a.top) / float(wh);
        }
    }
    renderer_.render(df, state_.camera, state_.render, fbw, fbh);
    if (state_.frame_requested && renderer_.lastBounds().valid()) {
        // What is drawn now (its box's corners), and everywhere the
        // animation takes the bones (spheres along the motion).
        std::vector<glm::vec4> figure, spheres;
        renderer_.lastBounds().appendCorners(figure);
        spheres = figure;
        if (f.scene) spheres.insert(spheres.end(), f.scene->motion_spheres.begin(), f.scene->motion_spheres.end());
        // Into the part of the window the panels leave free: the figure as
        // drawn fills it, but the camera stays back at least 0.7 of the
        // distance that holds every place the motion goes, looking halfway
        // between the two (T6's arm: 80 % of the free height at its guard,
        // its strikes still inside the view; docs/lab/default-framing.md).
        constexpr float kMotionShare = 0.7f;
        const float aspect = float(fbw) / float(fbh);
        engine::render::OrbitCamera whole = state_.camera, own = state_.camera;
        whole.frame(spheres, aspect, fill_x, fill_y);
        own.frame(figure, aspect, fill_x, fill_y);
        state_.camera = whole;
        state_.camera.distance = std::max(own.distance, kMotionShare * whole.distance);
        state_.camera.target = 0.5f * (own.target + whole.target);
        state_.frame_requested = false;
        renderer_.render(df, state_.camera, state_.render, fbw, fbh);
    }
    renderer_.target().bindOutput();
    if (state_.ui_visible) {
        window_.beginUi();
        drawUi(f);
        window_.endUi();
    }
    if (!state_.screenshot_path.empty()) writeScreenshot();
    updateRecording(f);
    if (!state_.plot_export_path.empty()) writePlotExport();
    renderer_.target().present(fbw, fbh);
    window_.swap();
    // A hidden window's swap may not wait for the GPU; finishing here makes
    // the measured render rate the real one (headless runs report it).
    if (opt_.hidden) glFinish();
}

double Viewer::measuredRenderFps() const {
    const double s = std::chrono::duration<double>(Clock::now() - measure_start_).count();
    // A run too short to draw two frames while stepping: the recent frames' rate.
    if (measured_frames_ < 2 || !(s > 0.0)) return double(stats_.renderFps());
    return double(measured_frames_ - 1) / s;
}

void Viewer::pace() const {
    if (opt_.max_fps <= 0) return;
    const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / opt_.max_fps));
    std::this_thread::sleep_until(last_frame_ + period);
}

void Viewer::drawUi(const SimFrame& f) {
    PanelContext ctx{state_, actions_, f, stats_, study_, renderer_, &bake_job_};
    drawPanels(ctx);
}

void Viewer::writeScreenshot() {
    int w = 0, h = 0;
    auto px = capture(w, h);
    std::string e = engine::render::writePng(state_.screenshot_path, w, h, px);
    state_.status = e.empty() ? "screenshot written: " + state_.screenshot_path : e;
    if (!e.empty()) std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
    state_.screenshot_path.clear();
}

// The simulation may step only to the frame after the one drawn last: one
// video frame per simulated frame however slowly the renderer draws
// (Controls::stop_at_frame; a headless run also stops at its N).
void Viewer::holdAt(int64_t frame) {
    if (opt_.frames > 0) frame = std::min<int64_t>(frame, opt_.frames);
    if (state_.controls.stop_at_frame == frame) return;
    state_.controls.stop_at_frame = frame;
    sim_.setControls(state_.controls);
}

void Viewer::stopRecording() {
    state_.record_stop = false;
    if (!recorder_.recording()) return;
    const int64_t n = recorder_.frames();
    std::string e = recorder_.finish();
    state_.recording = false;
    state_.status = e.empty() ? "video written: " + recorder_.path() + " (" + std::to_string(n) + " frames)" : e;
    if (!e.empty()) std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
    holdAt(opt_.frames > 0 ? opt_.frames : -1);
}

void Viewer::updateRecording(const SimFrame& f) {
    if (state_.record_stop) stopRecording();
    if (!state_.record_request.empty()) {
        const std::string path = state_.record_request;
        state_.record_request.clear();
        recorder_.abandon();
        const double fps = f.params.frame_dt > 0.0f ? 1.0 / double(f.params.frame_dt) : 30.0;
        std::string e = recorder_.start(path, renderer_.target().width(), renderer_.target().height(), fps);
        state_.recording = e.empty();
        state_.recorded_frames = 0;
        state_.status = e.empty() ? "recording " + path : e;
        if (!e.empty()) {
            std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
            if (opt_.frames > 0) fatal_ = e;
            return;
        }
        recorded_serial_ = f.serial;
        recorded_position_ = f.position;
        holdAt(f.position + 1);
        return;
    }
    if (!recorder_.recording() || f.serial == recorded_serial_) return;
    recorded_serial_ = f.serial;
    if (f.position != recorded_position_ && f.position > 0) {
        int w = 0, h = 0;
        const auto px = capture(w, h);
        if (auto e = recorder_.addFrame(px, w, h); !e.empty()) {
            state_.recording = recorder_.recording();
            state_.status = e;
            std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
            if (opt_.frames > 0) fatal_ = e;
            if (!recorder_.recording()) holdAt(opt_.frames > 0 ? opt_.frames : -1);
            return;
        }
        state_.recorded_frames = recorder_.frames();
    }
    recorded_position_ = f.position;
    holdAt(f.position + 1);
}

// The Study's plot: its rectangle (window units) cut out of the last image.
void Viewer::writePlotExport() {
    int w = 0, h = 0, ww = 0, wh = 0;
    auto px = capture(w, h);
    window_.windowSize(ww, wh);
    const float sx = ww > 0 ? float(w) / float(ww) : 1.0f, sy = wh > 0 ? float(h) / float(wh) : 1.0f;
    const float* r = state_.plot_export_rect;
    const int x0 = std::clamp(int(std::lround(r[0] * sx)), 0, w), y0 = std::clamp(int(std::lround(r[1] * sy)), 0, h);
    const int x1 = std::clamp(int(std::lround((r[0] + r[2]) * sx)), x0, w);
    const int y1 = std::clamp(int(std::lround((r[1] + r[3]) * sy)), y0, h);
    std::vector<uint8_t> cut(size_t(x1 - x0) * size_t(y1 - y0) * 4);
    for (int y = y0; y < y1; ++y)
        std::copy_n(&px[(size_t(y) * size_t(w) + size_t(x0)) * 4], size_t(x1 - x0) * 4,
                    &cut[size_t(y - y0) * size_t(x1 - x0) * 4]);
    std::string e = x1 > x0 && y1 > y0 ? engine::render::writePng(state_.plot_export_path, x1 - x0, y1 - y0, cut)
                                       : "the plot is not on screen";
    state_.status = e.empty() ? "study plot written: " + state_.plot_export_path : e;
    if (!e.empty()) std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
    state_.plot_export_path.clear();
}

std::vector<uint8_t> Viewer::capture(int& w, int& h) const {
    w = renderer_.target().width();
    h = renderer_.target().height();
    return renderer_.target().readOutput();
}

bool Viewer::runUntilSteps(uint64_t steps, double timeout_s) {
    auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
    while (Clock::now() < end && fatal_.empty()) {
        frame();
        pace();
        const SimFrame& f = sim_.latest();
        // The render rate reported at the end counts the frames drawn while
        // the sim was stepping (not the start-up and scene load).
        if (f.steps > 0 && measured_frames_++ == 0) measure_start_ = Clock::now();
        if (f.scene && f.scene->load_id == shown_load_ && shown_load_ != 0 && f.steps >= steps) return true;
    }
    return false;
}

bool Viewer::runUntilFresh(double timeout_s) {
    uint64_t target = sim_.published() + 1;
    auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
    while (Clock::now() < end) {
        frame();
        // Fresh: a newer frame arrived, or the sim has applied every request
        // and is idle with its last frame shown (the request may have been
        // handled before `target` was read).
        if (sim_.latest().serial >= target || (sim_.idle() && sim_.latest().serial == sim_.published())) {
            frame();
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

std::string Viewer::runUntilAdopted(double timeout_s) {
    auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
    while (Clock::now() < end) {
        frame();
        if (!fatal_.empty()) return fatal_;
        const SimFrame& f = sim_.latest();
        if (!f.fatal.empty()) return f.fatal;
        // A load that failed with nothing shown before it: nothing to run.
        if (shown_load_ == 0 && f.scene && !f.scene->error.empty()) return f.scene->error;
        if (shown_load_ != 0 && !preset_pending_ && f.scene && f.scene->load_id == shown_load_) return {};
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return "timed out loading the scene";
}

// `view --frames N`: exactly N simulated frames, rendered while they run;
// then the state after frame N is drawn, written (--screenshot, --json) and
// the program exits.
int Viewer::runHeadless() {
    auto failed = [](const std::string& e) {
        std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
        return 1;
    };
    // Paused until the scene is shown and the camera framed on its first
    // frame, so that neither the run nor the image depends on how fast the
    // machine is; no measured timings in the image either.
    state_.show_timings = opt_.timings;
    state_.controls.playing = false;
    sim_.setControls(state_.controls);
    if (auto e = runUntilAdopted(600.0); !e.empty()) return failed(e);
    Commands rewind;
    rewind.reset = true;
    sim_.command(rewind);
    runUntilFresh(30.0);
    // What frame 0 shows, and the whole animation, unless a preset set the camera.
    if (!state_.camera_set) state_.frame_requested = true;
    frame();
    const int64_t n = opt_.frames;
    state_.controls.playing = true;
    // Recording: frame by frame from frame 1 (updateRecording lifts the hold).
    state_.controls.stop_at_frame = opt_.record.empty() ? n : 0;
    if (!opt_.record.empty()) state_.record_request = opt_.record;
    state_.controls.record_run = !opt_.json.empty();
    sim_.setControls(state_.controls);
    Commands restart;
    restart.reset = true;  // frame 0 with these controls, recording from it
    sim_.command(restart);
    while (true) {
        frame();
        pace();
        if (!fatal_.empty()) return failed(fatal_);
        const SimFrame& f = sim_.latest();
        if (!f.fatal.empty()) return failed(f.fatal);
        // The render rate reported at the end counts the frames drawn while
        // the sim was stepping (not the start-up and scene load).
        if (f.position > 0 && measured_frames_++ == 0) measure_start_ = Clock::now();
        noteLoop(f);
        const bool settled = sim_.idle() && f.serial == sim_.published();
        if (settled && f.position >= n) break;
        if (settled && f.at_end) {
            std::fprintf(stderr, "msxpbd view: the animation ends at frame %lld and loop is off; showing that frame\n",
                         static_cast<long long>(f.frame));
            break;
        }
    }
    const double fps = measuredRenderFps();
    if (recorder_.recording()) {
        const int64_t recorded = recorder_.frames();
        stopRecording();
        if (recorder_.recording() || state_.status.rfind("video written", 0) != 0) return failed(state_.status);
        std::printf("view: video %s: %lld frames at %.3g fps\n", opt_.record.c_str(), static_cast<long long>(recorded),
                    1.0 / double(sim_.latest().params.frame_dt));
    }
    // The Study window shows its curves, not its progress bar (--panel study).
    while (state_.show_study && study_.running()) {
        frame();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // Two more frames of the final state: the UI lays itself out from what
    // the previous frame measured, so the image settles on the second.
    frame();
    frame();
    const SimFrame& last = sim_.latest();
    // One line for scripts and the measurements: the render loop
    // ran concurrently with the sim, flat out or paced (--realtime).
    const engine::render::RenderPath& path = renderer_.lastPath();
    std::printf("view: %s  solver %s  threads %d  frames %lld  render %.1f fps  sim %.1f ms/frame (%s)  %s path  [%s]\n",
                last.scene ? last.scene->source.c_str() : "?", std::string(sim::solverName(last.params.solver)).c_str(),
                last.threads, static_cast<long long>(last.position), fps, double(stats_.sim_ms.mean()), simPace(),
                path.fast ? "fast" : "full", engine::buildType());
    printLoops();
    if (!opt_.screenshot.empty()) {
        int w = 0, h = 0;
        auto px = capture(w, h);
        if (auto e = engine::render::writePng(opt_.screenshot, w, h, px); !e.empty()) return failed(e);
    }
    if (!opt_.json.empty()) {
        const uint64_t before = last.reports;
        Commands report;
        report.report = opt_.json;
        sim_.command(report);
        auto end = Clock::now() + std::chrono::seconds(60);
        while (sim_.latest().reports == before && Clock::now() < end) {
            sim_.update();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        const SimFrame& r = sim_.latest();
        if (r.reports == before) return failed("timed out writing the report");
        if (!r.report_error.empty()) return failed(r.report_error);
        if (opt_.json != "-")
            if (auto e = addRenderReport(opt_.json, fps); !e.empty()) return failed(e);
    }
    std::fflush(stdout);
    return last.message.rfind("NaN guard", 0) == 0 ? 1 : 0;
}

// The `run --json` report the sim thread wrote, plus what only the viewer
// knows: how it drew (scripts/bench and docs/benchmarks.md read render fps from here).
std::string Viewer::addRenderReport(const std::string& path, double fps) const {
    nlohmann::json j;
    {
        std::ifstream in(path);
        j = nlohmann::json::parse(in, nullptr, false);
    }
    if (j.is_discarded() || !j.is_object()) return path + ": the report written is not a JSON object";
    const engine::render::RenderPath& p = renderer_.lastPath();
    const engine::render::RenderStats& s = renderer_.stats();
    j["render"] = {{"fps", fps},
                   {"sim_pace", simPace()},
                   {"path", p.fast ? "fast" : "full"},
                   {"fast_render", std::string(engine::render::fastRenderName(state_.render.fast_render))},
                   {"gl_renderer", renderer_.glRenderer()},
                   {"software_renderer", renderer_.softwareRenderer()},
                   {"msaa_samples", renderer_.target().samples()},
                   {"scene_scale", p.scale},
                   {"shadow_map", p.shadow_size},
                   {"width", renderer_.target().width()},
                   {"height", renderer_.target().height()},
                   {"frames_drawn", s.frames},
                   {"muscle_uploads", s.muscle_uploads},
                   {"bone_uploads", s.bone_uploads}};
    // Per loop of the animation: what was simulated, what came from the
    // frame cache, the presented and the drawn frame rate.
    nlohmann::json loops = nlohmann::json::array();
    const SimFrame& f = sim_.latest();
    for (size_t i = 0; i < f.loops.size(); ++i) {
        const LoopStats& l = f.loops[i];
        if (l.shown.count == 0) continue;
        loops.push_back({{"loop", i + 1},
                         {"frames_shown", l.shown.count},
                         {"frames_simulated", l.simulated},
                         {"frames_from_cache", l.cached},
                         {"poked", l.poked},
                         {"presented_fps", l.shown.perSecond()},
                         {"render_fps", i < loop_render_.size() ? loop_render_[i].perSecond() : 0.0}});
    }
    j["playback"] = {{"loops", loops},
                     {"cache_frames", f.cached_frames},
                     {"cache_mb", double(f.cache_bytes) / double(1 << 20)},
                     {"cache_budget_mb", double(f.cache_budget) / double(1 << 20)}};
    return engine::writeWholeFile(path, j.dump(2) + "\n");
}

void Viewer::noteLoop(const SimFrame& f) {
    if (f.loop < 0 || f.loop > 100000) return;
    if (loop_render_.size() <= size_t(f.loop)) loop_render_.resize(size_t(f.loop) + 1);
    loop_render_[size_t(f.loop)].note(std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
}

// One line per loop played (headless runs of more than one loop).
void Viewer::printLoops() const {
    const SimFrame& f = sim_.latest();
    if (f.loops.size() < 2) return;
    for (size_t i = 0; i < f.loops.size(); ++i) {
        const LoopStats& l = f.loops[i];
        if (l.shown.count == 0) continue;
        std::printf("view: loop %zu: %lld frames, %lld simulated, %lld from the cache, presented %.1f fps, render %.1f fps\n",
                    i + 1, static_cast<long long>(l.shown.count), static_cast<long long>(l.simulated),
                    static_cast<long long>(l.cached), l.shown.perSecond(),
                    i < loop_render_.size() ? loop_render_[i].perSecond() : 0.0);
    }
}

const char* Viewer::simPace() const { return opt_.realtime ? "real time" : "flat out"; }

int Viewer::run() {
    // Out of memory while drawing (a scene too large for this machine): the
    // message names the scene. (A GL driver that runs out itself may still
    // abort; that is beyond the program's reach.)
    try {
        return runUnguarded();
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "msxpbd view: %s: out of memory while drawing the scene\n",
                     state_.scene.empty() ? "view" : state_.scene.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "msxpbd view: %s: %s\n", state_.scene.empty() ? "view" : state_.scene.c_str(), e.what());
    }
    return 1;
}

int Viewer::runUnguarded() {
    if (auto e = init(); !e.empty()) {
        std::fprintf(stderr, "msxpbd view: %s\n", e.c_str());
        return 1;
    }
    if (opt_.frames > 0) return runHeadless();
    if (!opt_.record.empty()) state_.record_request = opt_.record;
    while (!window_.shouldClose()) {
        frame();
        pace();
    }
    if (recorder_.recording()) {
        stopRecording();
        std::fprintf(stderr, "msxpbd view: %s\n", state_.status.c_str());
    }
    return 0;
}

}  // namespace app::viewer

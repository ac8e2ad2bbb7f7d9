#include "app/viewer/actions.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "app/cli/cli_args.h"
#include "app/viewer/bake_job.h"
#include "app/viewer/presets.h"
#include "engine/export/clip_writer.h"
#include "app/viewer/sim_frame.h"
#include "app/viewer/sim_thread.h"
#include "app/viewer/study.h"
#include "engine/export/temp_files.h"

namespace app::viewer {

void Actions::pushControls(bool physics) {
    if (physics) ++s_.controls.physics_version;
    sim_.setControls(s_.controls);
}

void Actions::openScene(const std::string& spec) {
    s_.scene = spec;
    Commands c;
    c.load = spec;
    sim_.command(c);
    s_.frame_requested = true;
}

void Actions::reload() {
    if (!s_.scene.empty()) {
        Commands c;
        c.load = s_.scene;
        sim_.command(c);
    }
}

void Actions::setAnimation(int index) {
    s_.controls.animation = index;
    pushControls(true);
    reset();
}

void Actions::adoptScene(const SceneInfo& info) {
    const size_t n = info.muscle_names.size();
    s_.controls.muscles.assign(n, MuscleControl{});
    for (size_t m = 0; m < n; ++m) {
        s_.controls.muscles[m].activation = m < info.muscle_activation.size() ? info.muscle_activation[m] : 0.0f;
        s_.controls.muscles[m].overpressure = m < info.muscle_overpressure.size() ? info.muscle_overpressure[m] : 0.0f;
    }
    s_.controls.scene_load_id = info.load_id;
    // The scene's own solver settings (T6: 2 substeps, carry 1).
    info.solver.applyTo(s_.controls.params);
    if (s_.controls.animation >= int(info.animations.size())) s_.controls.animation = info.animations.empty() ? -1 : 0;
    if (s_.controls.animation < 0 && !info.animations.empty()) s_.controls.animation = 0;
    s_.hidden.assign(n, 0);
    s_.solo_muscle = -1;
    s_.render.selected_muscle = -1;
    updateVisibility();
    s_.frame_requested = true;
    pushControls(true);
}

void Actions::setPlaying(bool on) {
    s_.controls.playing = on;
    pushControls(false);
}

void Actions::stepForward(int frames) {
    s_.controls.playing = false;
    pushControls(false);
    Commands c;
    c.step = frames;
    sim_.command(c);
}

void Actions::stepBack(int frames) {
    s_.controls.playing = false;
    pushControls(false);
    Commands c;
    c.step_back = frames;
    sim_.command(c);
}

void Actions::reset() {
    Commands c;
    c.reset = true;
    sim_.command(c);
}

void Actions::scrubTo(double seconds) {
    Commands c;
    c.seek = std::max(0.0, seconds);
    sim_.command(c);
}

void Actions::setSpeed(float speed) {
    s_.controls.speed = std::clamp(speed, app::preset_limits::kSpeedMin, app::preset_limits::kSpeedMax);
    pushControls(false);
}

void Actions::setLoop(bool on) {
    s_.controls.loop = on;
    pushControls(false);
}

std::string Actions::selectStudyPoint(sim::ConstraintMode mode, int substeps, int iterations) {
    if (substeps < 1 || substeps > 1000 || iterations < 1 || iterations > 1000)
        return "study-point: substeps and iterations from 1 to 1000";
    s_.study_mode = mode;
    s_.study_substeps = substeps;
    s_.study_iterations = iterations;
    return {};
}

void Actions::poke(uint32_t particle, glm::vec3 target) {
    s_.controls.poke_active = true;
    s_.controls.poke_particle = particle;
    s_.controls.poke_target = target;
    pushControls(false);
}

void Actions::pokeRelease() {
    if (!s_.controls.poke_active) return;
    s_.controls.poke_active = false;
    pushControls(false);
}

std::string Actions::setCacheBudget(double mb) {
    if (!(mb >= kCacheMbMin && mb <= kCacheMbMax))
        return "cache-mb " + std::to_string(int64_t(mb)) + ": out of range (" + std::to_string(kCacheMbMin) + " to " +
               std::to_string(kCacheMbMax) + " MB)";
    s_.controls.cache_mb = size_t(mb);
    pushControls(false);
    return {};
}

std::string Actions::setParams(const sim::SolverParams& p) {
    if (auto e = sim::validate(p); !e.empty()) return e;
    s_.controls.params = p;
    pushControls(true);
    return {};
}

std::string Actions::setSolver(sim::SolverKind kind) {
    auto p = s_.controls.params;
    p.solver = kind;
    return setParams(p);
}

std::string Actions::setMode(sim::ConstraintMode mode) {
    auto p = s_.controls.params;
    p.mode = mode;
    return setParams(p);
}

std::string Actions::setFiberForm(sim::FiberForm form) {
    auto p = s_.controls.params;
    p.fiber_form = form;
    return setParams(p);
}

std::string Actions::setContactModel(sim::ContactModel model) {
    auto p = s_.controls.params;
    p.contacts = model;
    return setParams(p);
}

std::string Actions::setNumeric(std::string_view name, double value) {
    const sim::NumericParam* np = sim::findNumericParam(name);
    if (!np) return "unknown parameter '" + std::string(name) + "'";
    if (!(value >= np->min && value <= np->max)) {
        std::ostringstream os;
        os << np->name << "=" << value << " out of range [" << np->min << ", " << np->max << "]";
        return os.str();
    }
    auto p = s_.controls.params;
    np->set(p, np->integer ? double(std::llround(value)) : value);
    return setParams(p);
}

std::string Actions::setStiffness(sim::Family family, float k) {
    auto p = s_.controls.params;
    if (auto e = sim::validateStiffness(p.mode, family, k); !e.empty()) return e;
    p.stiffness()[family] = k;
    return setParams(p);
}

void Actions::resetMaterial() {
    auto p = s_.controls.params;
    const sim::SolverParams d;
    p.xpbd_stiffness = d.xpbd_stiffness;
    p.pbd_stiffness = d.pbd_stiffness;
    p.damping = d.damping;
    p.gravity = d.gravity;
    // Carry is a material setting the scene may choose (T6, T7: 1).
    p.carry = d.carry;
    if (const auto scene = sim_.latest().scene) scene->solver.applyTo(p, /*substeps_given=*/true);
    setParams(p);
}

void Actions::setGlobalActivation(std::optional<float> a) {
    s_.controls.activation_override = a.has_value();
    if (a) s_.controls.global_activation = std::clamp(*a, 0.0f, 1.0f);
    pushControls(true);
}

void Actions::setMuscleActivation(size_t m, float a) {
    if (m >= s_.controls.muscles.size()) return;
    s_.controls.muscles[m].activation = std::clamp(a, 0.0f, 1.0f);
    pushControls(true);
}

void Actions::setMuscleSensor(size_t m, bool on) {
    if (m >= s_.controls.muscles.size()) return;
    s_.controls.muscles[m].use_sensor = on;
    pushControls(true);
}

void Actions::setMuscleOverpressure(size_t m, float kappa) {
    if (m >= s_.controls.muscles.size()) return;
    s_.controls.muscles[m].overpressure = std::max(kappa, 0.0f);
    pushControls(true);
}

void Actions::setGlobalOverpressure(float kappa) {
    for (auto& mc : s_.controls.muscles) mc.overpressure = std::max(kappa, 0.0f);
    pushControls(true);
}

void Actions::selectMuscle(int m) { s_.render.selected_muscle = m; }

void Actions::updateVisibility() {
    const size_t n = s_.controls.muscles.size();
    s_.hidden.resize(n, 0);
    s_.render.muscle_visible.assign(n, 1);
    for (size_t m = 0; m < n; ++m) {
        bool vis = s_.solo_muscle >= 0 ? int(m) == s_.solo_muscle : !s_.hidden[m];
        s_.render.muscle_visible[m] = vis ? 1 : 0;
    }
}

void Actions::setMuscleHidden(size_t m, bool hidden) {
    if (m >= s_.controls.muscles.size()) return;
    s_.hidden.resize(s_.controls.muscles.size(), 0);
    s_.hidden[m] = hidden ? 1 : 0;
    updateVisibility();
}

void Actions::soloMuscle(int m) {
    s_.solo_muscle = m < int(s_.controls.muscles.size()) ? m : -1;
    updateVisibility();
}

void Actions::setOverlay(engine::render::Overlay o, bool on) {
    s_.render.set(o, on);
    if (o == engine::render::Overlay::ErrorMap && s_.controls.want_vertex_error != on) {
        s_.controls.want_vertex_error = on;
        pushControls(false);
    }
    if (o == engine::render::Overlay::Overlap && s_.controls.want_overlap != on) {
        s_.controls.want_overlap = on;
        pushControls(false);
    }
    if (o == engine::render::Overlay::Drift && s_.controls.want_drift != on) {
        s_.controls.want_drift = on;
        pushControls(false);
    }
    if (o == engine::render::Overlay::Outside && s_.controls.want_outside != on) {
        s_.controls.want_outside = on;
        pushControls(false);
    }
}

void Actions::setSkin(bool on) {
    s_.render.skin = on;
    if (s_.controls.want_skin_wrap != on) {
        s_.controls.want_skin_wrap = on;
        pushControls(false);
    }
}

void Actions::setSkinOpacity(float factor) {
    if (!std::isfinite(factor)) return;
    s_.render.skin_opacity = std::clamp(factor, kSkinOpacityMin, kSkinOpacityMax);
}

void Actions::setErrorScale(float scale) {
    // NaN keeps the current scale.
    if (scale == scale) s_.render.error_scale = std::clamp(scale, kErrorScaleMin, kErrorScaleMax);
}

std::string Actions::runStudy(std::optional<double> stiffness) {
    if (!study_) return "no study here (the Study panel runs it)";
    if (stiffness && !(*stiffness >= StudySettings::kMinStiffness && *stiffness <= StudySettings::kMaxStiffness)) {
        std::ostringstream os;
        os << "study stiffness " << *stiffness << " N/m out of range [" << StudySettings::kMinStiffness << ", "
           << StudySettings::kMaxStiffness << "]";
        return os.str();
    }
    s_.show_study = true;
    study_->start(stiffness.value_or(study_->stiffness()));
    s_.study_stiffness = float(study_->stiffness());
    return {};
}

void Actions::showStudy(bool on) {
    s_.show_study = on;
    if (on && study_) study_->start(study_->stiffness());
}

std::string Actions::exportStudyCsv(const std::string& path) {
    auto r = study_ ? study_->result() : nullptr;
    if (!r) return "the Study has no result to export yet";
    if (auto e = engine::writeWholeFile(path, studyCsv(*r)); !e.empty()) return e;
    s_.status = "study CSV written: " + path;
    return {};
}

void Actions::exportStudyPlot(const std::string& path, const float rect[4]) {
    s_.plot_export_path = path;
    for (int i = 0; i < 4; ++i) s_.plot_export_rect[i] = rect[i];
}

void Actions::setRecordConvergence(bool on) {
    if (s_.controls.record_convergence == on) return;
    s_.controls.record_convergence = on;
    pushControls(false);
}

std::string Actions::savePreset(const std::string& path) {
    std::string e = writePreset(path, s_);
    s_.status = e.empty() ? "preset saved: " + path : e;
    return e;
}

std::string Actions::loadPreset(const std::string& path) {
    std::string e = readPreset(path, *this);
    s_.status = e.empty() ? "preset loaded: " + path : e;
    return e;
}

namespace {
std::vector<std::string> split(std::string_view s) {
    std::vector<std::string> out;
    std::istringstream is{std::string(s)};
    for (std::string w; is >> w;) out.push_back(w);
    return out;
}

// A finite number (nan and inf are refused: they would reach the camera, the
// playback speed or the sim as they are).
bool number(const std::string& s, double& v) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

// A count or an index: a whole number in [lo, hi] (a huge or negative value
// converted to size_t or int is undefined behaviour).
bool whole(const std::string& s, double& v, double lo, double hi) {
    return number(s, v) && v == std::floor(v) && v >= lo && v <= hi;
}
constexpr double kMaxIndex = 1e6, kMaxSteps = 1e5;

std::optional<bool> onOff(const std::string& s, bool current) {
    if (s == "on" || s == "1" || s == "true") return true;
    if (s == "off" || s == "0" || s == "false") return false;
    if (s == "toggle") return !current;
    return std::nullopt;
}
}  // namespace

std::string Actions::bake(const std::string& path, int64_t first, int64_t last) {
    auto refuse = [&](const std::string& e) {
        s_.status = e;
        return e;
    };
    if (!bake_) return refuse("bake: not available here");
    if (first < 1 || last < first || last > 1000000)
        return refuse("bake: frames " + std::to_string(first) + ".." + std::to_string(last) +
                      " out of range (from 1 to 1000000, first <= last)");
    if (!engine::bakeFormatFor(path)) return refuse("bake " + path + ": unknown format (" + engine::bakeFormatsHint() + ")");
    try {
        checkOutputPath("bake", path);
    } catch (const CliError& e) {
        return refuse(e.what());
    }
    BakeRequest q;
    q.scene = s_.scene;
    q.params = s_.controls.params;  // the scene's own substeps and carry were adopted with it
    q.params.threads = 1;           // the same bits on any thread count; the viewer keeps the other cores
    q.given = {true, true};
    q.animation = s_.controls.animation;
    q.loop = s_.controls.loop;
    q.activation = activationSourceFor(s_.controls, s_.controls.muscles.size(), true);
    for (const auto& m : s_.controls.muscles) q.muscle_overpressure.push_back(m.overpressure);
    q.first_frame = first;
    q.frames = last - first + 1;
    q.out = path;
    bake_->start(std::move(q));
    s_.status = "baking frames " + std::to_string(first) + ".." + std::to_string(last) + " to " + path;
    return {};
}

void Actions::cancelBake() {
    if (bake_) bake_->cancel();
}

std::string Actions::execute(std::string_view command) {
    auto w = split(command);
    if (w.empty()) return "empty command";
    const std::string& verb = w[0];
    auto need = [&](size_t n) { return w.size() == n + 1; };
    auto num = [&](size_t i, double& v) { return i < w.size() && number(w[i], v); };
    auto idx = [&](size_t i, double& v) { return i < w.size() && whole(w[i], v, -1.0, kMaxIndex); };
    auto count = [&](size_t i, double& v) { return i < w.size() && whole(w[i], v, 1.0, kMaxSteps); };
    double v = 0.0, v2 = 0.0;
    const std::string bad = "bad command '" + std::string(command) + "' (see Help, F1)";

    if (verb == "play" && need(0)) return setPlaying(true), std::string();
    if (verb == "pause" && need(0)) return setPlaying(false), std::string();
    if (verb == "toggle-play" && need(0)) return togglePlay(), std::string();
    if (verb == "step" && (need(0) || (need(1) && count(1, v)))) return stepForward(w.size() > 1 ? int(v) : 1), std::string();
    if (verb == "step-back" && (need(0) || (need(1) && count(1, v))))
        return stepBack(w.size() > 1 ? int(v) : 1), std::string();
    if (verb == "reset" && need(0)) return reset(), std::string();
    if (verb == "reload" && need(0)) return reload(), std::string();
    if (verb == "open" && need(1)) return openScene(w[1]), std::string();
    if (verb == "scrub" && need(1) && num(1, v)) return scrubTo(v), std::string();
    if (verb == "speed" && need(1) && num(1, v)) return setSpeed(float(v)), std::string();
    if (verb == "cache-mb" && need(1) && whole(w[1], v, 0.0, 1e9)) return setCacheBudget(v);
    if (verb == "study-point" && need(3) && whole(w[2], v, 1.0, 1000.0) && whole(w[3], v2, 1.0, 1000.0)) {
        auto m = sim::parseMode(w[1]);
        return m ? selectStudyPoint(*m, int(v), int(v2)) : "study-point: unknown mode '" + w[1] + "' (xpbd, pbd, pbd-raw)";
    }
    if (verb == "loop" && need(1)) {
        auto b = onOff(w[1], s_.controls.loop);
        return b ? (setLoop(*b), std::string()) : bad;
    }
    if (verb == "animation" && need(1) && idx(1, v)) return setAnimation(int(v)), std::string();
    if (verb == "frame" && need(0)) return frameAll(), std::string();
    if (verb == "ui" && need(1)) {
        auto b = onOff(w[1], s_.ui_visible);
        return b ? (setUiVisible(*b), std::string()) : bad;
    }
    if (verb == "help" && need(0)) return toggleHelp(), std::string();
    if (verb == "screenshot" && need(1)) return screenshot(w[1]), std::string();
    if (verb == "record" && need(1)) return startRecording(w[1]), std::string();
    if (verb == "record-stop" && need(0)) return stopRecording(), std::string();
    if (verb == "bake" && need(3) && num(2, v) && num(3, v2)) return bake(w[1], int64_t(v), int64_t(v2));
    if (verb == "bake-cancel" && need(0)) return cancelBake(), std::string();
    if (verb == "fast-render" && need(1)) {
        auto f = engine::render::parseFastRender(w[1]);
        return f ? (setFastRender(*f), std::string()) : bad;
    }
    if (verb == "shadows" && need(1)) {
        auto b = onOff(w[1], s_.render.shadows);
        return b ? (setShadows(*b), std::string()) : bad;
    }
    if (verb == "bones" && need(1)) {
        auto b = onOff(w[1], s_.render.bones);
        return b ? (setBones(*b), std::string()) : bad;
    }
    if (verb == "ground" && need(1)) {
        auto b = onOff(w[1], s_.render.ground);
        return b ? (setGround(*b), std::string()) : bad;
    }
    if (verb == "skin" && need(1)) {
        auto b = onOff(w[1], s_.render.skin);
        return b ? (setSkin(*b), std::string()) : bad;
    }
    if (verb == "skin-opacity" && need(1) && num(1, v)) {
        if (!(float(v) >= kSkinOpacityMin && float(v) <= kSkinOpacityMax)) {
            std::ostringstream os;
            os << "skin-opacity " << v << " out of range [" << kSkinOpacityMin << ", " << kSkinOpacityMax << "]";
            return os.str();
        }
        return setSkinOpacity(float(v)), std::string();
    }
    if (verb == "error-scale" && need(1) && num(1, v)) {
        if (!(float(v) >= kErrorScaleMin && float(v) <= kErrorScaleMax)) {
            std::ostringstream os;
            os << "error-scale " << v << " out of range [" << kErrorScaleMin << ", " << kErrorScaleMax << "]";
            return os.str();
        }
        return setErrorScale(float(v)), std::string();
    }
    if (verb == "orbit" && need(2) && num(1, v) && num(2, v2)) return orbitCamera(float(v), float(v2)), std::string();
    if (verb == "pan" && w.size() == 4 && num(1, v) && num(2, v2)) {
        double h = 0.0;
        if (!num(3, h) || !(h > 0.0)) return bad;
        return panCamera(float(v), float(v2), float(h)), std::string();
    }
    if (verb == "zoom" && need(1) && num(1, v)) return zoomCamera(float(v)), std::string();
    if (verb == "study" && need(0)) return runStudy();
    if (verb == "study" && need(1) && num(1, v)) return runStudy(v);
    if (verb == "study-png" && need(1)) return requestStudyPlot(w[1]), std::string();
    if (verb == "study-window" && need(1)) {
        auto b = onOff(w[1], s_.show_study);
        return b ? (showStudy(*b), std::string()) : bad;
    }
    if (verb == "overlay" && need(2)) {
        auto o = engine::render::parseOverlay(w[1]);
        if (!o) return "unknown overlay '" + w[1] + "'";
        auto b = onOff(w[2], s_.render.overlay(*o));
        return b ? (setOverlay(*o, *b), std::string()) : bad;
    }
    if (verb == "activation" && need(1)) {
        if (w[1] == "off") return setGlobalActivation(std::nullopt), std::string();
        return num(1, v) ? (setGlobalActivation(float(v)), std::string()) : bad;
    }
    if (verb == "muscle-activation" && need(2) && idx(1, v) && v >= 0.0 && num(2, v2))
        return setMuscleActivation(size_t(v), float(v2)), std::string();
    if (verb == "sensor" && need(2) && idx(1, v) && v >= 0.0) {
        auto b = onOff(w[2], true);
        return b ? (setMuscleSensor(size_t(v), *b), std::string()) : bad;
    }
    if (verb == "overpressure" && need(1) && num(1, v)) return setGlobalOverpressure(float(v)), std::string();
    if (verb == "muscle-overpressure" && need(2) && idx(1, v) && v >= 0.0 && num(2, v2))
        return setMuscleOverpressure(size_t(v), float(v2)), std::string();
    if (verb == "solo" && need(1) && idx(1, v)) return soloMuscle(int(v)), std::string();
    if (verb == "select" && need(1) && idx(1, v)) return selectMuscle(int(v)), std::string();
    if (verb == "preset-save" && need(1)) return savePreset(w[1]);
    if (verb == "preset-load" && need(1)) return loadPreset(w[1]);
    if (verb == "set" && need(2)) {
        const std::string& key = w[1];
        if (key == "solver") {
            auto k = sim::parseSolver(w[2]);
            return k ? setSolver(*k) : "unknown solver '" + w[2] + "' (" + sim::solverList() + ")";
        }
        if (key == "mode") {
            auto m = sim::parseMode(w[2]);
            return m ? setMode(*m) : "unknown mode '" + w[2] + "' (" + sim::modeList() + ")";
        }
        if (key == "fiber") {
            auto f = sim::parseFiberForm(w[2]);
            return f ? setFiberForm(*f) : "unknown fibre form '" + w[2] + "' (" + sim::fiberFormList() + ")";
        }
        if (key == "contacts") {
            auto c = sim::parseContactModel(w[2]);
            return c ? setContactModel(*c) : "unknown contact model '" + w[2] + "' (" + sim::contactModelList() + ")";
        }
        if (!num(2, v)) return bad;
        return setNumeric(key, v);
    }
    if (verb == "set" && w.size() == 4 && w[1] == "stiffness") {
        auto f = sim::parseFamily(w[2]);
        if (!f) return "unknown family '" + w[2] + "'";
        if (w[3] == "inf") return setStiffness(*f, sim::kInfiniteStiffness);
        return num(3, v) ? setStiffness(*f, float(v)) : bad;
    }
    return bad;
}

}  // namespace app::viewer

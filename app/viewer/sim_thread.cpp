#include "app/viewer/sim_thread.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <new>
#include <stdexcept>

#include <omp.h>

#include "app/viewer/vertex_error.h"
#include "sim/geometry.h"
#include "engine/export/temp_files.h"

namespace app::viewer {

namespace {
using Clock = std::chrono::steady_clock;
}

SimThread::SimThread() = default;

SimThread::~SimThread() { stop(); }

void SimThread::start() {
    if (thread_.joinable()) return;
    {
        std::lock_guard lk(mu_);
        stop_ = false;
    }
    thread_ = std::thread([this] { run(); });
}

void SimThread::stop() {
    {
        std::lock_guard lk(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void SimThread::setControls(const Controls& c) {
    {
        std::lock_guard lk(mu_);
        pending_controls_ = c;
        ++pending_serial_;
        // Under the lock: the sim thread sets idle only after it has seen
        // every request, so `idle` never hides a pending one.
        idle_.store(false, std::memory_order_release);
    }
    cv_.notify_all();
}

void SimThread::command(const Commands& c) {
    {
        std::lock_guard lk(mu_);
        pending_cmds_.merge(c);
        idle_.store(false, std::memory_order_release);
    }
    cv_.notify_all();
}

// No exception may leave the thread (it would terminate the process): one
// that escapes a step (std::bad_alloc from a scene too large for memory) stops
// stepping with a message naming the scene and the cause, published as
// SimFrame::fatal; the viewer stays up and a load or reset starts afresh.
void SimThread::run() {
    while (true) {
        try {
            loop();
            return;
        } catch (const std::bad_alloc&) {
            fail("out of memory");
        } catch (const std::exception& e) {
            fail(e.what());
        } catch (...) {
            fail("unknown error");
        }
    }
}

void SimThread::fail(const std::string& what) {
    fatal_ = (driver_.source().empty() ? std::string("simulation") : driver_.source()) + ": " + what +
             " while stepping; stopped (load or reset to start again)";
    message_ = fatal_;
    std::fprintf(stderr, "msxpbd view: %s\n", fatal_.c_str());
    try {
        publish();
    } catch (...) {
    }
}

// Playing and actually stepping: not held at Controls::stop_at_frame, at the
// end of an animation that does not loop, or stopped by a failure.
bool SimThread::stepping() const {
    return controls_.playing && fatal_.empty() && driver_.loaded() && !driver_.atEnd() &&
           !(controls_.stop_at_frame >= 0 && position() >= controls_.stop_at_frame);
}

// The animation's last frame (the loop plays 0..last, then 0 again), or −1
// without an animation (the timeline is open-ended).
int64_t SimThread::lastFrame() const {
    const double d = driver_.duration();
    if (!(d > 0.0)) return -1;
    // Within a thousandth of a frame of the end counts as the end (the float
    // frame length: 8 s / 0.0333333351 s is 239.99999).
    return int64_t(std::floor(d / double(driver_.params().frame_dt) + 1e-3));
}

int64_t SimThread::position() const {
    const int64_t last = lastFrame();
    return last >= 0 ? loops_done_ * (last + 1) + driver_.frame() : driver_.frame();
}

// The next frame of playback: past the animation's last frame (looping),
// frame 0 again; a frame the cache holds, restored; else simulated.
bool SimThread::advance() {
    const int64_t last = lastFrame();
    if (controls_.loop && last >= 0 && driver_.frame() >= last) {
        wrap();
        return true;
    }
    if (const sim::State* s = cache_.at(driver_.frame() + 1)) {
        showCached(*s);
        return true;
    }
    return stepOne();
}

// Back to frame 0 for the next loop. The states cached since a change of
// settings in the middle of the last pass came from the old settings' state:
// this pass simulates afresh (and the next plays from the cache).
void SimThread::wrap() {
    ++loops_done_;
    loop_stats_.emplace_back();
    startPass();
    if (const sim::State* s = cache_.at(0))
        showCached(*s);
    else
        showRest();
}

// A new pass from frame 0: the states cached since a change of settings in
// the middle of a pass, or in a poked pass, came from another history and
// go (one rule for the loop's wrap and a seek with nothing cached before it).
void SimThread::startPass() {
    if (segment_start_ == 0 && !poked_pass_) return;
    cache_.clear();
    segment_start_ = 0;
    poked_pass_ = driver_.sim().poking();
}

// Frame 0 exactly as a load gives it: nothing simulated.
void SimThread::showRest() {
    driver_.reset();
    from_cache_ = false;
    cacheCurrent();
    countShown(false);
}

// The run goes on from the frame shown under new settings (or a new poke):
// nothing cached after it may be replayed.
void SimThread::startSegmentHere() {
    cache_.clear();
    segment_start_ = driver_.frame();
    cacheCurrent();
}

void SimThread::showCached(const sim::State& s) {
    if (auto e = driver_.restore(s); !e.empty()) throw std::runtime_error("frame cache: " + e);
    from_cache_ = true;
    ++replayed_;
    ++loop_stats_.back().cached;
    countShown(false);
}

void SimThread::countShown(bool simulated) {
    LoopStats& l = loop_stats_.back();
    if (simulated) ++l.simulated;
    l.shown.note(std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
}

// The current state into the frame cache.
void SimThread::cacheCurrent() {
    sim::State s;
    driver_.captureState(s);
    cache_.store(std::move(s));
}

void SimThread::loop() {
    auto next_deadline = Clock::now();
    while (true) {
        Commands cmds;
        bool controls_changed = false;
        {
            std::unique_lock lk(mu_);
            if (stop_) break;
            if (pending_serial_ != applied_serial_) {
                controls_ = pending_controls_;
                applied_serial_ = pending_serial_;
                controls_changed = true;
            }
            cmds = pending_cmds_;
            pending_cmds_ = Commands{};
        }
        bool changed = controls_changed || !cmds.empty();

        if (cmds.load) load(*cmds.load);
        if (!driver_.loaded()) {
            publish();
            std::unique_lock lk(mu_);
            idle_.store(true, std::memory_order_release);
            cv_.wait(lk, [&] { return stop_ || !pending_cmds_.empty() || pending_serial_ != applied_serial_; });
            continue;
        }
        if (controls_changed || cmds.load) applyControls(controls_.physics_version != applied_physics_ || bool(cmds.load));
        if (cmds.reset) restart();
        if (cmds.seek) seekFrame(int64_t(std::llround(*cmds.seek / double(driver_.params().frame_dt))));
        if (cmds.step_back > 0) seekFrame(std::max<int64_t>(0, driver_.frame() - cmds.step_back));
        for (int i = 0; i < cmds.step; ++i) advance();
        if (cmds.report) writeReport(*cmds.report);

        bool stepped = false;
        if (stepping()) {
            auto now = Clock::now();
            if (now >= next_deadline) {
                stepped = advance();
                // Pace to the playback speed; when the sim is slower than real
                // time it simply runs flat out (no catch-up bursts).
                double period = controls_.unthrottled ? 0.0
                                                       : double(driver_.params().frame_dt) / std::max(controls_.speed, 1e-3f);
                next_deadline = std::max(next_deadline + std::chrono::duration_cast<Clock::duration>(
                                                             std::chrono::duration<double>(period)),
                                         Clock::now() - std::chrono::milliseconds(5));
            }
        }
        if (stepped || changed) publish();

        std::unique_lock lk(mu_);
        if (stop_) break;
        if (pending_cmds_.empty() && pending_serial_ == applied_serial_) {
            if (!stepping()) {
                idle_.store(true, std::memory_order_release);
                cv_.wait(lk, [&] { return stop_ || !pending_cmds_.empty() || pending_serial_ != applied_serial_; });
            } else if (Clock::now() < next_deadline) {
                cv_.wait_until(lk, next_deadline,
                               [&] { return stop_ || !pending_cmds_.empty() || pending_serial_ != applied_serial_; });
            }
        }
    }
}

void SimThread::load(const std::string& spec) {
    // The scene's own substeps/carry apply (the UI adopts them with the scene).
    std::string err = driver_.load(spec, controls_.params);
    if (!err.empty()) {
        message_ = "cannot load " + err;  // err names the file
        if (!info_) info_ = std::make_shared<SceneInfo>();
        auto copy = std::make_shared<SceneInfo>(*info_);
        copy->error = message_;
        info_ = copy;
        return;
    }
    message_.clear();
    fatal_.clear();
    // What the loader skipped or changed (docs/scene-format.md): on stderr,
    // and the first one in the status line.
    for (const std::string& w : driver_.scene().warnings) std::fprintf(stderr, "msxpbd view: %s: warning: %s\n", spec.c_str(), w.c_str());
    if (!driver_.scene().warnings.empty())
        message_ = "warning: " + driver_.scene().warnings.front() +
                   (driver_.scene().warnings.size() > 1 ? " (more on stderr)" : "");
    applied_physics_ = ~uint64_t(0);
    rebuildInfo(true);
}

// The poke as the controls ask for it. A new grab starts a poked run from
// the frame shown: what the cache held after it goes, as after a change of
// settings, and the pass is marked poked (the next one simulates afresh).
void SimThread::applyPokeControl() {
    sim::Simulation& sim = driver_.sim();
    if (!controls_.poke_active) {
        if (sim.poking()) sim.setPoke(nullptr);
        return;
    }
    if (sim.poking() && poke_particle_ == controls_.poke_particle) {
        sim.setPokeTarget(controls_.poke_target);
        return;
    }
    sim::Poke p = sim::grabPatch(sim.world(), controls_.poke_particle);
    if (p.particles.empty()) return;
    p.target = controls_.poke_target;
    sim.setPoke(&p);
    poke_particle_ = controls_.poke_particle;
    poked_pass_ = true;
    startSegmentHere();
}

void SimThread::applyControls(bool physics_changed) {
    driver_.sim().setRecordConvergence(controls_.record_convergence);
    cache_.setBudget(controls_.cache_mb << 20);
    applyPokeControl();
    driver_.setLoop(controls_.loop);
    if (!physics_changed) return;
    applied_physics_ = controls_.physics_version;
    if (auto e = driver_.setParams(controls_.params); !e.empty()) message_ = "parameters refused: " + e;
    driver_.setAnimation(controls_.animation);
    const engine::Scene& scene = driver_.scene();
    const size_t nm = driver_.sim().world().muscles.size();
    const bool mine = controls_.scene_load_id == load_id_ && controls_.muscles.size() == nm;
    for (size_t m = 0; m < nm; ++m) {
        float kappa = mine ? controls_.muscles[m].overpressure
                           : (m < scene.desc.muscles.size() ? scene.desc.muscles[m].overpressure : 0.0f);
        driver_.setOverpressure(m, kappa);
    }
    applyActivations();
    const auto& p = driver_.params();
    if (p.solver != applied_solver_ || p.hybrid_groups != applied_groups_) rebuildInfo(false);
    // Results computed with the old parameters must not be replayed.
    startSegmentHere();
}

// The UI's activation controls as the driver's one rule (app/run/scene_driver.h).
ActivationSource activationSourceFor(const Controls& c, size_t muscles, bool for_this_scene) {
    ActivationSource src;
    if (c.activation_override) {
        src = ActivationSource(ActivationSource::Kind::Constant, c.global_activation);
    } else if (for_this_scene && c.muscles.size() == muscles) {
        for (const auto& m : c.muscles) src.muscles.push_back({m.activation, m.use_sensor});
    }
    return src;
}

void SimThread::applyActivations() {
    const size_t nm = driver_.sim().world().muscles.size();
    driver_.setActivationSource(activationSourceFor(controls_, nm, controls_.scene_load_id == load_id_));
}

void SimThread::rebuildInfo(bool new_load) {
    auto info = std::make_shared<SceneInfo>();
    info->generation = ++generation_;
    info->load_id = new_load ? ++load_id_ : load_id_;
    info->source = driver_.source();
    const sim::World& w = driver_.sim().world();
    const engine::Scene& scene = driver_.scene();
    info->topology = std::make_shared<engine::render::DrawTopology>(
        engine::render::buildDrawTopology(w, &scene, driver_.sim().distanceColors()));
    for (size_t m = 0; m < w.muscles.size(); ++m) {
        info->muscle_names.push_back(w.muscles[m].name);
        info->muscle_has_sensor.push_back(m < scene.sensors.size() && !scene.sensors[m].empty());
        info->muscle_overpressure.push_back(m < scene.desc.muscles.size() ? scene.desc.muscles[m].overpressure : 0.0f);
        info->muscle_activation.push_back(m < scene.desc.muscles.size() ? scene.desc.muscles[m].initial_activation : 0.0f);
    }
    info->muscle_constraints.assign(w.muscles.size(), MuscleConstraintCounts{});
    for (size_t k = 0; k < w.distances.size() && k < w.distances.muscle.size() && k < w.distances.kind.size(); ++k) {
        if (w.distances.muscle[k] >= w.muscles.size()) continue;
        MuscleConstraintCounts& n = info->muscle_constraints[w.distances.muscle[k]];
        switch (w.distances.kind[k]) {
            case sim::DistanceKind::Surface: ++n.surface; break;
            case sim::DistanceKind::Spoke: ++n.spoke; break;
            case sim::DistanceKind::Medulla: ++n.medulla; break;
        }
    }
    info->solver = scene.solver;
    // Only the bones the animation moves: static ones (an invisible torso)
    // are either drawn, and so in the current frame's bounds, or not shown.
    // A property of the scene: a solver rebuild keeps the loaded one's.
    constexpr int kSweepSamples = 48;
    constexpr float kMuscleMargin = 0.03f;  // m: muscles lie on their bones
    if (!new_load && info_) info->motion_spheres = info_->motion_spheres;
    for (size_t a = 0; (new_load || !info_) && a < scene.animations.size(); ++a) {
        const double d = scene.duration(int(a));
        std::vector<std::vector<glm::mat4>> samples;
        for (int i = 0; i <= kSweepSamples; ++i) samples.push_back(scene.bodyTransforms(int(a), d * i / kSweepSamples));
        for (size_t b = 0; b < w.bodies.size(); ++b) {
            const sim::Body& body = w.bodies[b];
            if (!(body.capsule_radius > 0.0f) || b >= samples.front().size()) continue;
            bool moves = false;
            for (const auto& T : samples) moves = moves || T[b] != samples.front()[b];
            if (!moves) continue;
            const float pad = body.capsule_radius + kMuscleMargin;
            for (const auto& T : samples)
                for (const glm::vec3& end : {body.capsule_a, body.capsule_b})
                    info->motion_spheres.emplace_back(glm::vec3(T[b] * glm::vec4(end, 1.0f)), pad);
        }
    }
    // A scene without muscles: everywhere its meshes reach (skinned,
    // morphed) over every animation (once per load, as the sweep above: a
    // solver rebuild keeps the loaded list).
    const auto& topo = *info->topology;
    if (new_load || !info_)
        engine::render::Bounds{topo.mesh_motion_lo, topo.mesh_motion_hi}.appendCorners(info->motion_spheres);
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        info->animations.push_back(scene.animations[a].name.empty() ? "animation " + std::to_string(a)
                                                                     : scene.animations[a].name);
        info->durations.push_back(scene.duration(int(a)));
    }
    info->vertices = w.surfaceVertexCount();
    info->branch_points = w.branchPointCount();
    info->counts = driver_.sim().constraintCounts();
    info->colors = driver_.sim().colorCount();
    info->color_sizes = driver_.sim().colorSizes();
    applied_solver_ = driver_.params().solver;
    applied_groups_ = driver_.params().hybrid_groups;
    info_ = std::move(info);
    if (new_load) restart();
}

void SimThread::restart() {
    driver_.setAnimation(controls_.animation);
    driver_.reset();
    fatal_.clear();
    cache_.clear();
    segment_start_ = 0;
    from_cache_ = false;
    poked_pass_ = poked_run_ = driver_.sim().poking();
    loops_done_ = 0;
    loop_stats_.assign(1, LoopStats{});
    cacheCurrent();
    countShown(false);
    recorder_ = RunRecorder{};
    failure_ = sim::StepReport{};
}

bool SimThread::stepOne() {
    if (driver_.atEnd()) return false;  // not looping: hold the last frame
    if (!fatal_.empty()) return false;  // stopped by a failure until a load or reset
    if (step_hook_) step_hook_(driver_.frame() + 1);
    auto t0 = Clock::now();
    sim::StepReport r = driver_.step();
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    step_ms_ = ms;
    const double dt = driver_.params().frame_dt;
    double rtf = ms > 0.0 ? dt * 1000.0 / ms : 0.0;
    rtf_ = rtf_ == 0.0 ? rtf : 0.9 * rtf_ + 0.1 * rtf;
    if (!r.ok) {
        message_ = r.nan.message();
        if (failure_.ok) failure_ = r;
    }
    ++steps_;
    from_cache_ = false;
    if (driver_.sim().poking()) {
        loop_stats_.back().poked = true;
        poked_pass_ = poked_run_ = true;
    }
    countShown(true);
    if (controls_.record_run && failure_.ok) recorder_.addFrame(ms, driver_.sim());
    cacheCurrent();
    return true;
}

void SimThread::seekFrame(int64_t target) {
    target = std::max<int64_t>(0, target);
    if (const int64_t last = lastFrame(); last >= 0) target = std::min(target, last);
    if (target == driver_.frame()) return;
    // Restore the nearest cached state at or before the target when going
    // back, or when it lies ahead of where we are. With none (frame 0 is
    // always available: a reset gives it), a new pass starts from the rest pose.
    const sim::State* s = cache_.atOrBefore(target);
    if (target < driver_.frame() || (s && s->frame > driver_.frame())) {
        if (s) {
            showCached(*s);
        } else {
            startPass();
            showRest();
        }
    }
    while (driver_.frame() < target) {
        const sim::State* next = cache_.at(driver_.frame() + 1);
        if (next)
            showCached(*next);
        else if (!stepOne())
            break;
        // A new request (another seek, a reload) cancels a long replay.
        std::lock_guard lk(mu_);
        if (stop_ || !pending_cmds_.empty()) break;
    }
}

// `view --json`: the report `run --json` writes, for the frames recorded
// since the last load or reset (Controls::record_run).
void SimThread::writeReport(const std::string& path) {
    nlohmann::json report = runReport(driver_.source(), driver_.sim(), recorder_, failure_);
    // A poked run (sim/poke.h) is not a reproducible one: said so.
    report["poked"] = poked_run_;
    std::string err;
    if (path == "-") {
        std::printf("%s\n", report.dump(2).c_str());
    } else {
        err = engine::writeWholeFile(path, report.dump(2) + "\n");
    }
    report_error_ = err;
    ++reports_;
}

void SimThread::publish() {
    SimFrame& f = frames_.writeSlot();
    f.scene = info_;
    f.serial = published_.load(std::memory_order_relaxed) + 1;
    f.message = message_;
    f.steps = steps_;
    f.playing = stepping();
    f.fatal = fatal_;
    f.reports = reports_;
    f.report_error = report_error_;
    if (!driver_.loaded()) {
        f.x.clear();
        f.frame = 0;
        f.time = 0.0;
        frames_.publish();
        published_.fetch_add(1, std::memory_order_acq_rel);
        return;
    }
    const sim::Simulation& sim = driver_.sim();
    const engine::Scene& scene = driver_.scene();
    const sim::World& w = sim.world();
    f.frame = driver_.frame();
    f.time = driver_.animationTime();
    f.duration = driver_.duration();
    f.at_end = driver_.atEnd();
    f.x = w.particles.x;
    f.activation.resize(w.muscles.size());
    f.sensor.resize(w.muscles.size());
    const int anim = driver_.animation();
    for (size_t m = 0; m < w.muscles.size(); ++m) {
        f.activation[m] = w.muscles[m].activation;
        auto s = scene.sensorActivation(m, anim, f.time);
        f.sensor[m] = s ? *s : -1.0f;
    }
    // Each per-vertex field is measured only while something shows it (an
    // overlay, the skin); otherwise it is left empty.
    auto field = [](bool wanted, auto& out, auto&& measure) {
        if (wanted)
            measure(out);
        else
            out.clear();
    };
    field(controls_.want_vertex_error, f.vertex_error, [&](auto& out) { computeVertexError(w, out); });
    field(controls_.want_overlap, f.vertex_overlap, [&](auto& out) { sim.musclePenetrationPerVertex(out); });
    field(controls_.want_skin_wrap && w.envelope.active(), f.skin_wrap, [&](auto& out) {
        sim::wrapSkin(w, w.particles.x, sim::kSkinWrapClearance, wrap_scratch_, out, sim::SkinWrapQuality::Interactive);
    });
    field(controls_.want_drift, f.vertex_drift, [&](auto& out) { sim.driftPerVertex(out); });
    field(controls_.want_outside, f.vertex_outside, [&](auto& out) { sim.outsidePerVertex(out); });
    f.contact_p.clear();
    f.contact_n.clear();
    for (const auto& c : w.contacts) {
        if (c.particle >= w.particles.size()) continue;
        f.contact_p.push_back(w.particles.x[c.particle]);
        f.contact_n.push_back(sim::contactPlane(w, c, w.particles.x[c.particle]).n);
    }
    scene.skeleton.globals(scene.localPoses(anim, f.time), f.joint_globals);
    scene.morphWeights(anim, f.time, f.morph_weights);
    f.body_transforms.clear();
    for (const auto& b : w.bodies) f.body_transforms.push_back(b.curr);
    f.phase_ms = sim.timers().last_frame_ms;
    f.step_ms = step_ms_;
    f.realtime_factor = rtf_;
    f.residuals = sim.residuals();
    f.convergence = sim.convergence();
    f.muscle_stats = sim.muscleStats();
    f.params = sim.params();
    f.threads = sim.params().threads > 0 ? sim.params().threads : omp_get_num_procs();
    f.cached_frames = cache_.size();
    f.cache_bytes = cache_.bytes();
    f.cache_budget = cache_.budget();
    cache_.mask(lastFrame(), f.cache_mask);
    f.from_cache = from_cache_;
    f.poking = driver_.loaded() && driver_.sim().poking();
    f.poked = poked_pass_;
    f.replayed = replayed_;
    f.position = position();
    f.loop = loops_done_;
    f.loops = loop_stats_;
    frames_.publish();
    published_.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace app::viewer

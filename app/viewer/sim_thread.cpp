#include "app/viewer/sim_thread.h"

#include <algorithm>
#include <cmath>

#include <omp.h>

#include "app/viewer/vertex_error.h"
#include "sim/geometry.h"

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

int SimThread::animation() const {
    int a = controls_.animation;
    return a >= 0 && size_t(a) < scene_.animations.size() ? a : -1;
}

double SimThread::duration() const { return animation() >= 0 ? scene_.duration(animation()) : 0.0; }

void SimThread::run() {
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
        if (!loaded_) {
            publish();
            std::unique_lock lk(mu_);
            idle_.store(true, std::memory_order_release);
            cv_.wait(lk, [&] { return stop_ || !pending_cmds_.empty() || pending_serial_ != applied_serial_; });
            continue;
        }
        if (controls_changed || cmds.load) applyControls(controls_.physics_version != applied_physics_ || bool(cmds.load));
        if (cmds.reset) restart();
        if (cmds.seek) seekFrame(int64_t(std::llround(*cmds.seek / double(sim_->params().frame_dt))));
        if (cmds.step_back > 0) seekFrame(std::max<int64_t>(0, frame_ - cmds.step_back));
        for (int i = 0; i < cmds.step; ++i) stepOne();

        bool stepped = false;
        if (controls_.playing) {
            auto now = Clock::now();
            if (now >= next_deadline) {
                stepped = stepOne();
                // Pace to the playback speed; when the sim is slower than real
                // time it simply runs flat out (no catch-up bursts).
                double period = controls_.unthrottled ? 0.0
                                                       : double(sim_->params().frame_dt) / std::max(controls_.speed, 1e-3f);
                next_deadline = std::max(next_deadline + std::chrono::duration_cast<Clock::duration>(
                                                             std::chrono::duration<double>(period)),
                                         Clock::now() - std::chrono::milliseconds(5));
            }
        }
        if (stepped || changed) publish();

        std::unique_lock lk(mu_);
        if (stop_) break;
        if (pending_cmds_.empty() && pending_serial_ == applied_serial_) {
            if (!controls_.playing) {
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
    engine::Scene scene;
    std::string err = engine::loadScene(spec, scene);
    if (err.empty()) {
        // Load into a fresh simulation so a bad scene leaves the old one running.
        auto fresh = std::make_unique<sim::Simulation>();
        err = fresh->load(scene.desc);
        if (err.empty()) {
            fresh->setParams(controls_.params);  // errors are reported by applyControls
            sim_ = std::move(fresh);
        }
    }
    if (!err.empty()) {
        message_ = "cannot load " + spec + ": " + err;
        if (!info_) info_ = std::make_shared<SceneInfo>();
        auto copy = std::make_shared<SceneInfo>(*info_);
        copy->error = message_;
        info_ = copy;
        return;
    }
    scene_ = std::move(scene);
    source_ = spec;
    loaded_ = true;
    message_.clear();
    applied_physics_ = ~uint64_t(0);
    rebuildInfo(true);
}

void SimThread::applyControls(bool physics_changed) {
    sim_->setRecordConvergence(controls_.record_convergence);
    if (!physics_changed) return;
    applied_physics_ = controls_.physics_version;
    if (auto e = sim_->setParams(controls_.params); !e.empty()) message_ = "parameters refused: " + e;
    const auto& M = sim_->world().muscles;
    const bool mine = controls_.scene_load_id == load_id_;
    for (size_t m = 0; m < M.size(); ++m) {
        float kappa = mine && m < controls_.muscles.size() ? controls_.muscles[m].overpressure
                                                   : (m < scene_.desc.muscles.size() ? scene_.desc.muscles[m].overpressure : 0.0f);
        sim_->setOverpressure(m, kappa);
    }
    const auto& p = sim_->params();
    if (p.solver != applied_solver_ || p.hybrid_groups != applied_groups_) rebuildInfo(false);
    // Results computed with the old parameters must not be replayed.
    cache_.clear();
    if (frame_ == 0) cache_.store(SimState::capture(*sim_, 0, 0.0));
}

void SimThread::rebuildInfo(bool new_load) {
    auto info = std::make_shared<SceneInfo>();
    info->generation = ++generation_;
    info->load_id = new_load ? ++load_id_ : load_id_;
    info->source = source_;
    const sim::World& w = sim_->world();
    info->topology = std::make_shared<engine::render::DrawTopology>(
        engine::render::buildDrawTopology(w, &scene_, sim_->distanceColors()));
    for (size_t m = 0; m < w.muscles.size(); ++m) {
        info->muscle_names.push_back(w.muscles[m].name);
        info->muscle_has_sensor.push_back(m < scene_.sensors.size() && !scene_.sensors[m].empty());
        info->muscle_overpressure.push_back(m < scene_.desc.muscles.size() ? scene_.desc.muscles[m].overpressure : 0.0f);
        info->muscle_activation.push_back(m < scene_.desc.muscles.size() ? scene_.desc.muscles[m].initial_activation : 0.0f);
    }
    info->solver = scene_.solver;
    // Only the bones the animation moves: static ones (an invisible torso)
    // are either drawn, and so in the current frame's bounds, or not shown.
    // A property of the scene: a solver rebuild keeps the loaded one's.
    constexpr int kSweepSamples = 48;
    constexpr float kMuscleMargin = 0.03f;  // m: muscles lie on their bones
    if (!new_load && info_) info->motion_bounds = info_->motion_bounds;
    for (size_t a = 0; (new_load || !info_) && a < scene_.animations.size(); ++a) {
        const double d = scene_.duration(int(a));
        std::vector<std::vector<glm::mat4>> samples;
        for (int i = 0; i <= kSweepSamples; ++i) samples.push_back(scene_.bodyTransforms(int(a), d * i / kSweepSamples));
        for (size_t b = 0; b < w.bodies.size(); ++b) {
            const sim::Body& body = w.bodies[b];
            if (!(body.capsule_radius > 0.0f) || b >= samples.front().size()) continue;
            bool moves = false;
            for (const auto& T : samples) moves = moves || T[b] != samples.front()[b];
            if (!moves) continue;
            const glm::vec3 pad(body.capsule_radius + kMuscleMargin);
            for (const auto& T : samples)
                for (const glm::vec3& end : {body.capsule_a, body.capsule_b}) {
                    const glm::vec3 q = glm::vec3(T[b] * glm::vec4(end, 1.0f));
                    info->motion_bounds.add(q - pad);
                    info->motion_bounds.add(q + pad);
                }
        }
    }
    for (size_t a = 0; a < scene_.animations.size(); ++a) {
        info->animations.push_back(scene_.animations[a].name.empty() ? "animation " + std::to_string(a)
                                                                     : scene_.animations[a].name);
        info->durations.push_back(scene_.duration(int(a)));
    }
    info->vertices = w.surfaceVertexCount();
    info->branch_points = w.branchPointCount();
    info->counts = sim_->constraintCounts();
    info->colors = sim_->colorCount();
    info->color_sizes = sim_->colorSizes();
    applied_solver_ = sim_->params().solver;
    applied_groups_ = sim_->params().hybrid_groups;
    info_ = std::move(info);
    if (new_load) restart();
}

void SimThread::restart() {
    sim_->reset();
    frame_ = 0;
    time_ = 0.0;
    // Bones at the animation's first pose, so the first step does not yank the attachments.
    sim_->setBodyTransforms(scene_.bodyTransforms(animation(), 0.0));
    initial_ = SimState::capture(*sim_, 0, 0.0);
    cache_.clear();
    cache_.store(SimState::capture(*sim_, 0, 0.0));
}

bool SimThread::stepOne() {
    const double dt = sim_->params().frame_dt;
    double dur = duration();
    if (dur > 0.0 && time_ + dt > dur + 1e-9) {
        if (!controls_.loop) return false;  // hold the last frame
        seekFrame(0);
        return true;
    }
    const double t = double(frame_ + 1) * dt;
    const int anim = animation();
    sim_->setBodyTransforms(scene_.bodyTransforms(anim, t));
    const size_t nm = sim_->world().muscles.size();
    const bool mine = controls_.scene_load_id == load_id_ && controls_.muscles.size() == nm;
    for (size_t m = 0; m < nm; ++m) {
        float a = mine ? controls_.muscles[m].activation
                       : (m < scene_.desc.muscles.size() ? scene_.desc.muscles[m].initial_activation : 0.0f);
        bool sensor = !mine || controls_.muscles[m].use_sensor;
        if (sensor)
            if (auto s = scene_.sensorActivation(m, anim, t)) a = *s;
        if (controls_.activation_override) a = controls_.global_activation;
        sim_->setActivation(m, a);
    }
    auto t0 = Clock::now();
    sim::StepReport r = sim_->stepFrame();
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    step_ms_ = ms;
    double rtf = ms > 0.0 ? dt * 1000.0 / ms : 0.0;
    rtf_ = rtf_ == 0.0 ? rtf : 0.9 * rtf_ + 0.1 * rtf;
    if (!r.ok) message_ = r.nan.message();
    ++frame_;
    ++steps_;
    time_ = t;
    if (cache_.wants(frame_)) cache_.store(SimState::capture(*sim_, frame_, time_));
    return true;
}

void SimThread::seekFrame(int64_t target) {
    target = std::max<int64_t>(0, target);
    double dur = duration();
    if (dur > 0.0) target = std::min<int64_t>(target, int64_t(std::floor(dur / double(sim_->params().frame_dt) + 1e-6)));
    if (target == frame_) return;
    // Restore the nearest cached state at or before the target when going
    // back, or when it lies ahead of where we are (frame 0 is always
    // available: after a parameter change the cache is empty and the replay
    // starts from the rest pose).
    const SimState* s = cache_.atOrBefore(target);
    if (target < frame_ || (s && s->frame > frame_)) {
        const SimState& from = s ? *s : initial_;
        from.restore(*sim_);
        frame_ = from.frame;
        time_ = from.time;
    }
    bool saved_loop = controls_.loop;
    controls_.loop = false;
    while (frame_ < target) {
        if (!stepOne()) break;
        // A new request (another seek, a reload) cancels a long replay.
        std::lock_guard lk(mu_);
        if (stop_ || !pending_cmds_.empty()) break;
    }
    controls_.loop = saved_loop;
}

void SimThread::publish() {
    SimFrame& f = frames_.writeSlot();
    f.scene = info_;
    f.serial = published_.load(std::memory_order_relaxed) + 1;
    f.message = message_;
    f.steps = steps_;
    f.playing = controls_.playing;
    if (!loaded_) {
        f.x.clear();
        f.frame = 0;
        f.time = 0.0;
        frames_.publish();
        published_.fetch_add(1, std::memory_order_acq_rel);
        return;
    }
    const sim::World& w = sim_->world();
    f.frame = frame_;
    f.time = time_;
    f.duration = duration();
    f.x = w.particles.x;
    f.activation.resize(w.muscles.size());
    f.sensor.resize(w.muscles.size());
    const int anim = animation();
    for (size_t m = 0; m < w.muscles.size(); ++m) {
        f.activation[m] = w.muscles[m].activation;
        auto s = scene_.sensorActivation(m, anim, time_);
        f.sensor[m] = s ? *s : -1.0f;
    }
    if (controls_.want_vertex_error)
        computeVertexError(w, f.vertex_error);
    else
        f.vertex_error.clear();
    f.contact_p.clear();
    f.contact_n.clear();
    for (const auto& c : w.contacts) {
        if (c.particle >= w.particles.size()) continue;
        f.contact_p.push_back(w.particles.x[c.particle]);
        f.contact_n.push_back(sim::contactPlane(w, c, w.particles.x[c.particle]).n);
    }
    scene_.skeleton.globals(scene_.localPoses(anim, time_), f.joint_globals);
    f.body_transforms.clear();
    for (const auto& b : w.bodies) f.body_transforms.push_back(b.curr);
    f.phase_ms = sim_->timers().last_frame_ms;
    f.step_ms = step_ms_;
    f.realtime_factor = rtf_;
    f.residuals = sim_->residuals();
    f.convergence = sim_->convergence();
    f.muscle_stats = sim_->muscleStats();
    f.params = sim_->params();
    f.threads = sim_->params().threads > 0 ? sim_->params().threads : omp_get_num_procs();
    f.cached_frames = cache_.size();
    frames_.publish();
    published_.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace app::viewer

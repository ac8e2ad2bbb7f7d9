#include "app/run/scene_driver.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <stdexcept>

#include "engine/load_scene.h"

namespace app {

float rampActivation(double t, float peak) {
    double a;
    if (t < 0.5) a = 0.0;
    else if (t < 1.5) a = (t - 0.5);
    else if (t < 2.5) a = 1.0;
    else if (t < 3.5) a = 1.0 - (t - 2.5);
    else a = 0.0;
    return float(std::clamp(a, 0.0, 1.0)) * peak;
}

SceneDriver::SceneDriver() : sim_(std::make_unique<sim::Simulation>()) {}
SceneDriver::~SceneDriver() = default;

std::string SceneDriver::load(const std::string& spec, const sim::SolverParams& params, ParamsGiven given) {
    try {
        engine::Scene scene;
        if (auto e = engine::loadScene(spec, scene); !e.empty()) return e;
        // A fresh simulation: a scene that fails to build leaves the old one.
        auto fresh = std::make_unique<sim::Simulation>();
        if (auto e = fresh->load(scene.desc); !e.empty()) return spec + ": " + e;
        sim::SolverParams p = params;
        scene.solver.applyTo(p, given.substeps, given.carry);
        if (auto e = fresh->setParams(p); !e.empty()) return spec + ": " + e;
        scene_ = std::move(scene);
        sim_ = std::move(fresh);
        source_ = spec;
        loaded_ = true;
        if (animation_ >= int(scene_.animations.size())) animation_ = scene_.animations.empty() ? -1 : 0;
        if (animation_ < 0 && !scene_.animations.empty()) animation_ = 0;
        activation_.muscles.clear();
        reset();
        return {};
    } catch (const std::bad_alloc&) {
        return spec + ": out of memory while building the scene (it is too large for this machine)";
    } catch (const std::exception& e) {
        return spec + ": " + e.what();
    }
}

std::string SceneDriver::setParams(const sim::SolverParams& p) {
    try {
        return sim_->setParams(p);
    } catch (const std::bad_alloc&) {
        return "out of memory while rebuilding the solver's data for these parameters";
    }
}

bool SceneDriver::setAnimation(int index) {
    if (index >= int(scene_.animations.size()) && loaded_) return false;
    animation_ = index < 0 ? -1 : index;
    return true;
}

int SceneDriver::animation() const {
    return animation_ >= 0 && size_t(animation_) < scene_.animations.size() ? animation_ : -1;
}

void SceneDriver::setOverpressure(float kappa) {
    for (size_t m = 0; m < sim_->world().muscles.size(); ++m) sim_->setOverpressure(m, kappa);
}

double SceneDriver::duration() const { return animation() >= 0 ? scene_.duration(animation()) : 0.0; }

double SceneDriver::animationTime(double t) const {
    const double d = duration();
    if (isStatic()) return 0.0;  // nothing moves: the clock stays at 0
    if (!(d > 0.0)) return t;  // no animation: the timeline is the simulated time
    if (t <= 0.0) return 0.0;
    if (!loop_) return std::min(t, d);
    // The end of one pass is its last pose (d, not 0): a loop that closes on
    // its first pose shows the same either way. The clock adds a float frame
    // length (1/30 s is 0.0333333351), so after 30 frames it reads 1.00000005
    // s, not 1: a remainder within a thousandth of a frame is that end, not
    // the next pass's start (else a one-second clip showed its first pose at
    // frame 30).
    const double w = t - d * std::floor(t / d);
    const double eps = std::max(1e-9, 1e-3 * double(sim_->params().frame_dt));
    return w <= eps ? d : (d - w <= eps ? d : w);
}

bool SceneDriver::isStatic() const { return animation() < 0 && sim_->world().muscles.empty(); }

bool SceneDriver::atEnd() const {
    const double d = duration();
    return !loop_ && d > 0.0 && time() + double(sim_->params().frame_dt) > d + 1e-9;
}

float SceneDriver::activationAt(size_t m, double t) const {
    const ActivationSource& S = activation_;
    switch (S.kind) {
        case ActivationSource::Kind::Constant: return S.value;
        case ActivationSource::Kind::Ramp: return rampActivation(t, S.value);
        case ActivationSource::Kind::SceneDefault:
        case ActivationSource::Kind::Sensors: break;
    }
    const auto& M = sim_->world().muscles;
    const bool own = S.muscles.size() == M.size() && m < S.muscles.size();
    if (!own || S.muscles[m].use_sensor)
        if (auto a = scene_.sensorActivation(m, animation(), animationTime(t))) return *a;
    return own ? S.muscles[m].value : (m < M.size() ? M[m].a0 : 0.0f);
}

sim::StepReport SceneDriver::step() {
    const double t_end = time() + double(sim_->params().frame_dt);
    if (animation() >= 0) {
        sim_->setBodyTransforms(scene_.bodyTransforms(animation(), animationTime(t_end)));
        if (scene_.envelope_mesh >= 0) {
            scene_.envelopePose(animation(), animationTime(t_end), envelope_pose_);
            sim_->setEnvelopePose(envelope_pose_);
        }
    }
    for (size_t m = 0; m < sim_->world().muscles.size(); ++m) sim_->setActivation(m, activationAt(m, t_end));
    return sim_->stepFrame();
}

// The state a fresh load gives: the world as built (muscles and bones in the
// bind pose the meshes were modelled in), with the bones' first target the
// animation's pose at t = 0. The first step moves them from the bind pose to
// it (and, with carry, the muscles with them); nothing of a run before a
// reset reaches it.
void SceneDriver::reset() {
    sim_->reset();
    sim_->setBodyTransforms(scene_.bodyTransforms(animation(), 0.0));
    for (auto& b : sim_->mutableWorld().bodies) b.prev = b.curr;
    if (scene_.envelope_mesh >= 0) {
        scene_.envelopePose(animation(), 0.0, envelope_pose_);
        sim_->setEnvelopePose(envelope_pose_);
        sim::Envelope& e = sim_->mutableWorld().envelope;
        e.prev = e.now = e.curr;
    }
}

}  // namespace app

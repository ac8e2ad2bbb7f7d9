#include "app/scene_driver.h"

#include <algorithm>
#include <cmath>

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

std::string SceneDriver::load(const std::string& spec) {
    engine::Scene scene;
    if (auto e = engine::loadScene(spec, scene); !e.empty()) return e;
    if (auto e = sim_.load(scene.desc); !e.empty()) return spec + ": " + e;
    scene_ = std::move(scene);
    if (animation_ >= int(scene_.animations.size())) animation_ = 0;
    if (!scene_.animations.empty()) sim_.setBodyTransforms(scene_.bodyTransforms(animation_, 0.0));
    // The first frame starts from the rest pose at t = 0.
    for (auto& b : sim_.mutableWorld().bodies) b.prev = b.curr;
    return {};
}

void SceneDriver::setOverpressure(float kappa) {
    for (size_t m = 0; m < sim_.world().muscles.size(); ++m) sim_.setOverpressure(m, kappa);
}

float SceneDriver::activationAt(size_t m, double t) const {
    switch (source_.kind) {
        case ActivationSource::Kind::Constant: return source_.value;
        case ActivationSource::Kind::Ramp: return rampActivation(t, source_.value);
        case ActivationSource::Kind::Sensors:
        case ActivationSource::Kind::SceneDefault: {
            if (auto a = scene_.sensorActivation(m, animation_, t)) return *a;
            return sim_.world().muscles[m].a0;
        }
    }
    return 0.0f;
}

sim::StepReport SceneDriver::step() {
    const double t_end = sim_.time() + sim_.params().frame_dt;
    if (!scene_.animations.empty()) {
        double d = scene_.duration(animation_);
        double t = d > 0.0 ? std::fmod(t_end, d) : 0.0;
        sim_.setBodyTransforms(scene_.bodyTransforms(animation_, t));
    }
    for (size_t m = 0; m < sim_.world().muscles.size(); ++m) sim_.setActivation(m, activationAt(m, t_end));
    return sim_.stepFrame();
}

void SceneDriver::reset() {
    sim_.reset();
    if (!scene_.animations.empty()) {
        sim_.setBodyTransforms(scene_.bodyTransforms(animation_, 0.0));
        for (auto& b : sim_.mutableWorld().bodies) b.prev = b.now = b.curr;
    }
}

}  // namespace app

#include "app/viewer/study.h"

#include <algorithm>
#include <cmath>

namespace app::viewer {

namespace {
long long keyOf(const StudySettings& s) { return std::llround(s.stiffness * 1000.0); }
}  // namespace

Study::~Study() { stop(); }

void Study::stop() {
    cancel_ = true;
    if (worker_.joinable()) worker_.join();
    cancel_ = false;
}

void Study::start(double stiffness) {
    StudySettings s;
    s.stiffness = std::isfinite(stiffness)
                      ? std::clamp(stiffness, StudySettings::kMinStiffness, StudySettings::kMaxStiffness)
                      : s.stiffness;
    start(s);
}

void Study::start(const StudySettings& settings) {
    const long long key = keyOf(settings);
    {
        std::lock_guard lk(mu_);
        if (key == wanted_ && (running_ || cache_.count(key))) return;  // already shown or on its way
    }
    stop();
    std::lock_guard lk(mu_);
    wanted_ = key;
    stiffness_ = settings.stiffness;
    if (cache_.count(key)) return;
    running_ = true;
    progress_ = 0.0f;
    worker_ = std::thread([this, settings, key] {
        // Each run of the experiment on one thread, and one worker less than
        // the cores: the viewer's own simulation keeps the rest.
        StudySettings s = settings;
        s.threads = std::max(1, int(std::thread::hardware_concurrency()) - 1);
        auto r = std::make_shared<StudyResult>(runStudy(s, &progress_, &cancel_));
        if (!r->cancelled) {
            std::lock_guard lk(mu_);
            cache_[key] = std::move(r);
        }
        running_ = false;
    });
}

double Study::stiffness() const {
    std::lock_guard lk(mu_);
    return stiffness_;
}

std::shared_ptr<const StudyResult> Study::result() const {
    std::lock_guard lk(mu_);
    auto it = cache_.find(wanted_);
    return it == cache_.end() ? nullptr : it->second;
}

}  // namespace app::viewer

#include "app/viewer/bake_job.h"

#include <cstdio>

namespace app::viewer {

BakeJob::~BakeJob() { join(); }

void BakeJob::join() {
    cancel_ = true;
    if (worker_.joinable()) worker_.join();
}

void BakeJob::cancel() { cancel_ = true; }

void BakeJob::start(BakeRequest q) {
    join();
    cancel_ = false;
    progress_ = 0.0f;
    running_ = true;
    worker_ = std::thread([this, q = std::move(q)] {
        BakeResult r = bakeClip(q, [this](int64_t done, int64_t total) {
            progress_ = total > 0 ? float(double(done) / double(total)) : 1.0f;
            return !cancel_.load();
        });
        {
            std::lock_guard lk(mu_);
            failed_ = !r.error.empty();
            if (failed_) {
                message_ = r.error;
            } else {
                char buf[64];
                std::snprintf(buf, sizeof buf, " (%.1f MB, %.1f s)",
                              double(r.report["bake"]["bytes"].get<uint64_t>()) / 1e6, r.seconds);
                message_ = "baked frames " + std::to_string(q.first_frame) + ".." +
                           std::to_string(q.first_frame + q.frames - 1) + " to " + q.out + buf;
            }
        }
        running_ = false;
        ++finished_;
    });
}

std::string BakeJob::message() const {
    std::lock_guard lk(mu_);
    return message_;
}

bool BakeJob::failed() const {
    std::lock_guard lk(mu_);
    return failed_;
}

}  // namespace app::viewer

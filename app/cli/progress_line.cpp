#include "app/cli/progress_line.h"

#include <cstdio>
#include <utility>

namespace app {

ProgressLine::ProgressLine(bool on, std::string label, std::chrono::milliseconds delay)
    : on_(on), label_(std::move(label)), delay_(delay), start_(Clock::now()), last_(start_) {}

void ProgressLine::update(int64_t done, int64_t total, int64_t first) {
    if (!on_) return;
    const auto now = Clock::now();
    if (now - start_ < delay_) return;
    if (done < total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    drawn_ = true;
    const double s = std::chrono::duration<double>(now - start_).count();
    const double frac = total > 0 ? double(done) / double(total) : 1.0;
    const int width = 30, filled = int(frac * width);
    const double rate = s > 0.0 ? double(done) / s : 0.0;
    const double eta = rate > 0.0 ? double(total - done) / rate : 0.0;
    std::fprintf(stderr, "\r%s [%.*s%.*s] %3d%%  frame %lld/%lld%s  %.1f frames/s  ETA %d:%02d ", label_.c_str(),
                 filled, "##############################", width - filled, "..............................",
                 int(frac * 100.0), (long long)done, (long long)total, done < first ? " (warming up)" : "", rate,
                 int(eta) / 60, int(eta) % 60);
    std::fflush(stderr);
}

void ProgressLine::done() {
    if (on_ && drawn_) std::fputs("\r\033[K", stderr);
}

}  // namespace app

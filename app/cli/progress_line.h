// A progress line on stderr for the long headless commands (`bake`, `run`):
// "\rLABEL [####......]  42%  frame 84/200  12.3 frames/s  ETA 0:09",
// redrawn at most ten times a second and cleared at the end, so the
// summary that follows starts on a clean line. Off unless stderr is a
// terminal (a log file or a pipe gets no carriage returns).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace app {

class ProgressLine {
public:
    // `on`: draw at all (the caller checks --quiet and isatty). `delay`: stay
    // silent until the work has taken that long (short runs print nothing).
    ProgressLine(bool on, std::string label, std::chrono::milliseconds delay = std::chrono::milliseconds(0));
    // `first`: the first frame that counts (earlier frames are a warm-up).
    void update(int64_t done, int64_t total, int64_t first = 0);
    void done();

private:
    using Clock = std::chrono::steady_clock;
    bool on_;
    bool drawn_ = false;
    std::string label_;
    std::chrono::milliseconds delay_;
    Clock::time_point start_, last_;
};

}  // namespace app

// Cached simulation states for scrubbing backwards (docs/architecture.md: "scrubbing
// backwards replays from a frame cache, cleared when a parameter changes").
// Under a memory budget: when full, only every 2nd (4th, ...) frame is kept,
// and a seek restores the nearest earlier state and steps forward from it.
// The states are sim::State, the same snapshot the NaN guard and reset use.
#pragma once

#include <cstdint>
#include <map>

#include "sim/state.h"

namespace app::viewer {

class FrameCache {
public:
    explicit FrameCache(size_t budget_bytes = size_t(256) << 20) : budget_(budget_bytes) {}
    void clear();
    bool wants(int64_t frame) const { return frame % stride_ == 0; }
    void store(sim::State&& s);
    // The cached state with the largest frame ≤ `frame`, or null.
    const sim::State* atOrBefore(int64_t frame) const;
    size_t size() const { return states_.size(); }
    size_t bytes() const { return bytes_; }
    int64_t stride() const { return stride_; }

private:
    size_t budget_;
    size_t bytes_ = 0;
    int64_t stride_ = 1;
    std::map<int64_t, sim::State> states_;
};

}  // namespace app::viewer

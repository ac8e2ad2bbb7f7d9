// The viewer's frame cache (docs/architecture.md "Playback from the cache"):
// every simulated frame's sim::State, so that playing a frame again (the
// next loop, a scrub, a step back) restores it instead of simulating it.
// Memory is bounded: past the budget the frames stored longest ago go
// first, so a run that does not fit keeps its most recent frames. Every
// state held belongs to one run under the current settings (the sim thread
// clears it when the settings change), so any of them may be restored and
// stepped on from.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "sim/state.h"

namespace app::viewer {

class FrameCache {
public:
    static constexpr size_t kDefaultBudgetMb = 1024;
    explicit FrameCache(size_t budget_bytes = kDefaultBudgetMb << 20) : budget_(budget_bytes) {}
    void clear();
    // Stores (or replaces) the state of s.frame, then evicts the oldest
    // stored frames while over the budget (never the one just stored).
    void store(sim::State&& s);
    void setBudget(size_t bytes);
    const sim::State* at(int64_t frame) const;
    // The cached state with the largest frame ≤ `frame`, or null.
    const sim::State* atOrBefore(int64_t frame) const;
    bool has(int64_t frame) const { return states_.count(frame) > 0; }
    size_t size() const { return states_.size(); }
    size_t bytes() const { return bytes_; }
    size_t budget() const { return budget_; }
    // One byte per frame 0..last (1: cached), for the timeline.
    void mask(int64_t last, std::vector<uint8_t>& out) const;

private:
    void evict();
    struct Entry {
        sim::State state;
        uint64_t order = 0;  // when it was stored
    };
    size_t budget_;
    size_t bytes_ = 0;
    uint64_t next_order_ = 0;
    std::map<int64_t, Entry> states_;
    std::map<uint64_t, int64_t> by_order_;  // store order → frame
};

}  // namespace app::viewer

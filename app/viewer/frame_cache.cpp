#include "app/viewer/frame_cache.h"

#include <iterator>

namespace app::viewer {

void FrameCache::clear() {
    states_.clear();
    by_order_.clear();
    bytes_ = 0;
}

void FrameCache::store(sim::State&& s) {
    const int64_t f = s.frame;
    if (auto it = states_.find(f); it != states_.end()) {
        bytes_ -= it->second.state.bytes();
        by_order_.erase(it->second.order);
        states_.erase(it);
    }
    bytes_ += s.bytes();
    const uint64_t order = next_order_++;
    states_.emplace(f, Entry{std::move(s), order});
    by_order_.emplace(order, f);
    evict();
}

void FrameCache::setBudget(size_t bytes) {
    budget_ = bytes;
    evict();
}

void FrameCache::evict() {
    while (bytes_ > budget_ && states_.size() > 1) {
        auto oldest = by_order_.begin();
        auto it = states_.find(oldest->second);
        bytes_ -= it->second.state.bytes();
        states_.erase(it);
        by_order_.erase(oldest);
    }
}

const sim::State* FrameCache::at(int64_t frame) const {
    auto it = states_.find(frame);
    return it == states_.end() ? nullptr : &it->second.state;
}

const sim::State* FrameCache::atOrBefore(int64_t frame) const {
    auto it = states_.upper_bound(frame);
    if (it == states_.begin()) return nullptr;
    return &std::prev(it)->second.state;
}

void FrameCache::mask(int64_t last, std::vector<uint8_t>& out) const {
    out.assign(last >= 0 ? size_t(last) + 1 : 0, 0);
    for (const auto& [f, e] : states_)
        if (f >= 0 && f <= last) out[size_t(f)] = 1;
}

}  // namespace app::viewer

#include "app/viewer/frame_cache.h"

#include <iterator>

namespace app::viewer {

void FrameCache::clear() {
    states_.clear();
    bytes_ = 0;
    stride_ = 1;
}

void FrameCache::store(sim::State&& s) {
    if (!wants(s.frame)) return;
    const int64_t f = s.frame;
    if (auto it = states_.find(f); it != states_.end()) bytes_ -= it->second.bytes();
    bytes_ += s.bytes();
    states_.insert_or_assign(f, std::move(s));
    while (bytes_ > budget_ && states_.size() > 1) {
        // Thin out: keep frame 0 and every (2·stride)-th frame.
        stride_ *= 2;
        for (auto it = states_.begin(); it != states_.end();) {
            if (it->first % stride_ != 0) {
                bytes_ -= it->second.bytes();
                it = states_.erase(it);
            } else {
                ++it;
            }
        }
    }
}

const sim::State* FrameCache::atOrBefore(int64_t frame) const {
    auto it = states_.upper_bound(frame);
    if (it == states_.begin()) return nullptr;
    return &std::prev(it)->second;
}

}  // namespace app::viewer

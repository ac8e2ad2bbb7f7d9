// Fixed-size history for the Stats plots (ImGui's PlotLines takes an offset
// into a circular array, so no copying per frame).
#pragma once

#include <algorithm>
#include <vector>

namespace app::viewer {

class RingBuffer {
public:
    explicit RingBuffer(size_t n = 240) : v_(n, 0.0f) {}
    void push(float x) {
        v_[head_] = x;
        head_ = (head_ + 1) % v_.size();
        count_ = std::min(count_ + 1, v_.size());
    }
    const float* data() const { return v_.data(); }
    int size() const { return int(v_.size()); }
    int offset() const { return int(head_); }  // oldest sample
    float last() const { return v_[(head_ + v_.size() - 1) % v_.size()]; }
    float max() const { return *std::max_element(v_.begin(), v_.end()); }
    float mean() const {
        if (!count_) return 0.0f;
        float s = 0.0f;
        for (size_t i = 0; i < count_; ++i) s += v_[(head_ + v_.size() - 1 - i) % v_.size()];
        return s / float(count_);
    }

private:
    std::vector<float> v_;
    size_t head_ = 0, count_ = 0;
};

}  // namespace app::viewer

// Cached simulation states for scrubbing backwards (DESIGN.md: "scrubbing
// backwards replays from a frame cache, cleared when a parameter changes").
// Under a memory budget: when full, only every 2nd (4th, ...) frame is kept,
// and a seek restores the nearest earlier state and steps forward from it.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace sim {
class Simulation;
}

namespace app::viewer {

struct SimState {
    int64_t frame = 0;
    double time = 0.0;
    std::vector<glm::vec3> x, v;
    std::vector<float> activation, target_activation;
    std::vector<glm::mat4> bodies;  // transforms at the end of the frame
    std::vector<glm::mat4> step_motion;  // each body's motion over the frame's last substep (sim::Body)
    size_t bytes() const;
    static SimState capture(const sim::Simulation& s, int64_t frame, double time);
    void restore(sim::Simulation& s) const;
};

class FrameCache {
public:
    explicit FrameCache(size_t budget_bytes = size_t(256) << 20) : budget_(budget_bytes) {}
    void clear();
    bool wants(int64_t frame) const { return frame % stride_ == 0; }
    void store(SimState&& s);
    // The cached state with the largest frame ≤ `frame`, or null.
    const SimState* atOrBefore(int64_t frame) const;
    size_t size() const { return states_.size(); }
    size_t bytes() const { return bytes_; }
    int64_t stride() const { return stride_; }

private:
    size_t budget_;
    size_t bytes_ = 0;
    int64_t stride_ = 1;
    std::map<int64_t, SimState> states_;
};

}  // namespace app::viewer

#include "app/viewer/frame_cache.h"

#include "sim/simulation.h"

namespace app::viewer {

size_t SimState::bytes() const {
    return (x.size() + v.size()) * sizeof(glm::vec3) + (activation.size() + target_activation.size()) * sizeof(float) +
           (bodies.size() + step_motion.size()) * sizeof(glm::mat4) + sizeof(SimState);
}

SimState SimState::capture(const sim::Simulation& s, int64_t frame, double time) {
    const sim::World& w = s.world();
    SimState st;
    st.frame = frame;
    st.time = time;
    st.x = w.particles.x;
    st.v = w.particles.v;
    for (const auto& m : w.muscles) {
        st.activation.push_back(m.activation);
        st.target_activation.push_back(m.target_activation);
    }
    for (const auto& b : w.bodies) {
        st.bodies.push_back(b.curr);
        st.step_motion.push_back(b.step_motion);
    }
    return st;
}

void SimState::restore(sim::Simulation& s) const {
    sim::World& w = s.mutableWorld();
    if (w.particles.size() != x.size()) return;
    w.particles.x = x;
    w.particles.p = x;
    w.particles.v = v;
    for (size_t m = 0; m < w.muscles.size() && m < activation.size(); ++m) {
        w.muscles[m].activation = activation[m];
        w.muscles[m].target_activation = target_activation[m];
    }
    for (size_t b = 0; b < w.bodies.size() && b < bodies.size(); ++b) {
        w.bodies[b].prev = w.bodies[b].curr = w.bodies[b].now = bodies[b];
        // The next step's bone acceleration (SolverParams::carry) continues
        // from the motion it had, as in the run that stored this state.
        if (b < step_motion.size()) w.bodies[b].step_motion = step_motion[b];
    }
}

void FrameCache::clear() {
    states_.clear();
    bytes_ = 0;
    stride_ = 1;
}

void FrameCache::store(SimState&& s) {
    if (!wants(s.frame)) return;
    bytes_ += s.bytes();
    int64_t f = s.frame;
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

const SimState* FrameCache::atOrBefore(int64_t frame) const {
    auto it = states_.upper_bound(frame);
    if (it == states_.begin()) return nullptr;
    return &std::prev(it)->second;
}

}  // namespace app::viewer

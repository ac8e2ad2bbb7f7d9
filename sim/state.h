// Everything one step of the simulation reads from the past and writes for
// the future (docs/model.md "State"): with it a run can be undone (the NaN
// guard), cached and replayed (the viewer's frame cache, scrubbing), reset,
// and compared. Derived data (constraints, colours, contact lists, λ, which
// are zeroed every substep) is not part of it: it is rebuilt from the scene
// and the parameters, or recomputed from the positions, every substep.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace sim {

struct BodyState {
    glm::mat4 prev{1.0f}, curr{1.0f}, now{1.0f};
    glm::mat4 step_motion{1.0f}, last_step_motion{1.0f};
};

struct SlidingState {
    glm::vec3 q{0.0f}, n{0.0f};  // the target point a connection last slid to
};

struct State {
    int64_t frame = 0;
    double time = 0.0;  // s, simulated time at the end of `frame`
    std::vector<glm::vec3> x, v;
    std::vector<float> activation, target_activation;
    std::vector<BodyState> bodies;
    std::vector<SlidingState> sliding;
    // The fascia envelope (sim/envelope.h): its pose at the end of `frame`
    // and the triangle each vertex's walk starts from (empty: no envelope).
    std::vector<glm::vec3> envelope;
    std::vector<int32_t> envelope_tri;

    size_t bytes() const {
        return sizeof(State) + (x.capacity() + v.capacity()) * sizeof(glm::vec3) +
               (activation.capacity() + target_activation.capacity()) * sizeof(float) +
               bodies.capacity() * sizeof(BodyState) + sliding.capacity() * sizeof(SlidingState) +
               envelope.capacity() * sizeof(glm::vec3) + envelope_tri.capacity() * sizeof(int32_t);
    }
};

}  // namespace sim

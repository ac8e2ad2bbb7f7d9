// glTF animation channels and their sampling (STEP, LINEAR with short-path
// quaternion slerp, CUBICSPLINE with (in, value, out) tangents); morph
// target weights are sampled component by component.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace engine {

enum class Interpolation { Step, Linear, CubicSpline };
enum class ChannelPath { Translation, Rotation, Scale, Weights };

struct AnimationChannel {
    int joint = -1;  // index into Skeleton::joints
    ChannelPath path = ChannelPath::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;       // strictly increasing
    // Translation/scale: xyz (w unused). Rotation: quaternion as (x, y, z, w).
    // CUBICSPLINE: three entries per key: in-tangent, value, out-tangent.
    std::vector<glm::vec4> values;
    // Weights (morph targets): `width` weights per key (per entry for
    // CUBICSPLINE), one after the other; `values` stays empty.
    int width = 0;
    std::vector<float> weights;
};

struct Animation {
    std::string name;
    std::vector<AnimationChannel> channels;
    double duration() const;  // last key time over all channels
};

// Samples one channel at time t (clamped to the key range: before the first
// key → first value, after the last → last value).
glm::vec4 sampleChannel(const AnimationChannel& c, double t);
// Samples a Weights channel at time t into `out` (min(width, out.size())
// entries; the rest untouched), with the same clamping.
void sampleWeights(const AnimationChannel& c, double t, std::span<float> out);

}  // namespace engine

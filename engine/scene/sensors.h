// MSXPBD sensors (docs/model.md §5): a joint's rotation angle about an axis relative to
// the rest pose, its angular velocity and acceleration, mapped through gains
// and clamped to [0, 1].
#pragma once

#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

namespace engine {

struct Sensor {
    int joint = -1;               // skeleton joint whose local rotation is read
    glm::vec3 axis{1, 0, 0};      // joint-local rotation axis (unit)
    float angle_offset = 0.0f;    // rad: angle at which activation starts
    float angle_gain = 0.0f;      // activation per rad beyond the offset
    float velocity_gain = 0.0f;   // activation per rad/s (signed: flexion +)
    float acceleration_gain = 0.0f;  // activation per rad/s² (magnitude)
};

struct MuscleSensors {
    std::vector<Sensor> sensors;  // summed, then clamped to [0, 1]
    bool empty() const { return sensors.empty(); }
};

// Signed rotation angle (rad, in (−π, π]) about `axis` of `rotation` relative
// to `rest` (swing-twist decomposition of rest⁻¹·rotation, twist part).
float twistAngle(const glm::quat& rest, const glm::quat& rotation, const glm::vec3& axis);

// One sensor's contribution for a joint angle (rad), angular velocity (rad/s)
// and angular acceleration (rad/s²) — not clamped:
//   angle_gain·max(0, angle − angle_offset) + velocity_gain·velocity
//   + acceleration_gain·|acceleration|
float sensorTerm(const Sensor& s, float angle, float velocity, float acceleration);

// Stateless evaluation: angle(t) is sampled at t − h, t, t + h (central
// differences), so scrubbing to any time gives the same value. The sum of the
// terms is clamped to [0, 1]. `angle_at(sensor, time)` returns the sensor's
// joint angle at a time.
template <class AngleAt>
float evaluateSensors(const MuscleSensors& ms, AngleAt&& angle_at, double t, double h = 1.0 / 120.0) {
    float sum = 0.0f;
    for (const Sensor& s : ms.sensors) {
        const double a0 = angle_at(s, t - h), a1 = angle_at(s, t), a2 = angle_at(s, t + h);
        const float vel = float((a2 - a0) / (2.0 * h));
        const float acc = float((a2 - 2.0 * a1 + a0) / (h * h));
        sum += sensorTerm(s, float(a1), vel, acc);
    }
    if (!(sum > 0.0f)) return 0.0f;  // also maps NaN to 0
    return sum > 1.0f ? 1.0f : sum;
}

}  // namespace engine

// MSXPBD sensors (docs/model.md §5): joint angle / velocity / acceleration → activation.
#include "engine/scene/sensors.h"

#include <cmath>

namespace engine {

float twistAngle(const glm::quat& rest, const glm::quat& rotation, const glm::vec3& axis) {
    glm::vec3 n = axis;
    float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    if (!(len > 0.0f)) return 0.0f;
    n /= len;
    glm::quat rel = glm::inverse(rest) * rotation;
    float proj = rel.x * n.x + rel.y * n.y + rel.z * n.z;  // twist = (proj·n, w)
    float w = rel.w;
    if (w < 0.0f) {  // same rotation, keeps the angle in (−π, π]
        w = -w;
        proj = -proj;
    }
    if (proj == 0.0f && w == 0.0f) return 0.0f;
    return 2.0f * std::atan2(proj, w);
}

float sensorTerm(const Sensor& s, float angle, float velocity, float acceleration) {
    float a = angle - s.angle_offset;
    float term = s.angle_gain * (a > 0.0f ? a : 0.0f);
    term += s.velocity_gain * velocity;
    term += s.acceleration_gain * std::fabs(acceleration);
    return std::isfinite(term) ? term : 0.0f;
}

}  // namespace engine

#include "engine/render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/geometric.hpp>

namespace engine::render {

void Bounds::add(const glm::vec3& p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
}

float Bounds::radius() const { return valid() ? 0.5f * glm::length(hi - lo) : 0.0f; }

void OrbitCamera::orbit(float dx_px, float dy_px) {
    constexpr float kRadPerPx = 0.008f;
    yaw -= dx_px * kRadPerPx;
    // Stop short of the poles: the view matrix uses +Y as up.
    pitch = std::clamp(pitch + dy_px * kRadPerPx, -1.5f, 1.5f);
}

void OrbitCamera::pan(float dx_px, float dy_px, float window_height_px) {
    // One pixel moves the target by the world size of a pixel at the target's
    // depth, so the point under the cursor stays under the cursor.
    float world_per_px = 2.0f * distance * std::tan(0.5f * fov_y) / std::max(window_height_px, 1.0f);
    glm::mat4 v = view();
    glm::vec3 right(v[0][0], v[1][0], v[2][0]);
    glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    target += (-dx_px * right + dy_px * up) * world_per_px;
}

void OrbitCamera::zoom(float wheel_steps) {
    distance = std::clamp(distance * std::pow(0.88f, wheel_steps), 1e-4f, 1e5f);
}

void OrbitCamera::frame(const Bounds& b, float aspect, float fill_x, float fill_y) {
    if (!b.valid()) return;
    target = b.center();
    // The view axes for the current angles (they do not depend on distance).
    const glm::vec3 back(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    const glm::vec3 right = glm::normalize(glm::cross(glm::vec3(0, 1, 0), back));
    const glm::vec3 up = glm::cross(back, right);
    const float margin = 0.92f;
    const float tan_y = std::tan(0.5f * fov_y) * std::clamp(fill_y, 0.1f, 1.0f) * margin;
    const float tan_x = std::tan(0.5f * fov_y) * std::max(aspect, 1e-3f) * std::clamp(fill_x, 0.1f, 1.0f) * margin;
    // Each corner at view depth (d − z) must satisfy |x| ≤ tan_x (d − z) and
    // |y| ≤ tan_y (d − z): the smallest d that holds for all of them.
    float d = 1e-3f;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 c((i & 1) ? b.hi.x : b.lo.x, (i & 2) ? b.hi.y : b.lo.y, (i & 4) ? b.hi.z : b.lo.z);
        const glm::vec3 q = c - target;
        const float x = std::abs(glm::dot(q, right)), y = std::abs(glm::dot(q, up)), z = glm::dot(q, back);
        d = std::max({d, z + x / tan_x, z + y / tan_y});
    }
    // Not inside the box's own bounding sphere (the near plane would cut it).
    distance = std::max(d, 1.05f * std::max(b.radius(), 1e-3f));
}

glm::vec3 OrbitCamera::eye() const {
    glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    return target + distance * dir;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
    return glm::perspective(fov_y, std::max(aspect, 1e-3f), nearPlane(), farPlane());
}

}  // namespace engine::render

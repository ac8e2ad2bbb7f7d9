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

void Bounds::appendCorners(std::vector<glm::vec4>& spheres) const {
    if (!valid()) return;
    for (int i = 0; i < 8; ++i)
        spheres.emplace_back((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z, 0.0f);
}

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
    std::vector<glm::vec4> corners;
    b.appendCorners(corners);
    frame(corners, aspect, fill_x, fill_y);
}

void OrbitCamera::frame(const std::vector<glm::vec4>& given, float aspect, float fill_x, float fill_y) {
    // The finite samples (a NaN one, from a broken animation, is skipped),
    // radii at least 0.
    std::vector<glm::vec4> spheres;
    spheres.reserve(given.size());
    Bounds box;
    float largest = 0.0f;
    for (const glm::vec4& s : given) {
        if (!std::isfinite(s.x) || !std::isfinite(s.y) || !std::isfinite(s.z) || !std::isfinite(s.w)) continue;
        const float r = std::max(s.w, 0.0f);
        spheres.emplace_back(glm::vec3(s), r);
        box.add(glm::vec3(s) - r);
        box.add(glm::vec3(s) + r);
        largest = std::max(largest, r);
    }
    if (!box.valid()) return;
    target = box.center();
    // The view axes for the current angles (they do not depend on distance).
    const glm::vec3 back(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    const glm::vec3 right = glm::normalize(glm::cross(glm::vec3(0, 1, 0), back));
    const glm::vec3 up = glm::cross(back, right);
    const float margin = 0.92f;
    const float tan_y = std::tan(0.5f * fov_y) * std::clamp(fill_y, 0.1f, 1.0f) * margin;
    const float tan_x = std::tan(0.5f * fov_y) * std::max(aspect, 1e-3f) * std::clamp(fill_x, 0.1f, 1.0f) * margin;
    // Each sphere, at view depth (d − z), must satisfy |x| + r ≤ tan_x (d − z − r)
    // and the same in y (its bounding square moved to its nearest depth: a
    // little conservative): the smallest d that holds for all of them. Then
    // the target moves to the middle of what the spheres cover on screen and
    // the distance is fitted again, a few times (a figure deep along the
    // view, seen from steeply above, needs several: perspective moves its
    // screen centre as the camera comes closer).
    constexpr int kPasses = 4;
    for (int pass = 0; pass < kPasses; ++pass) {
        float d = 1e-3f;
        for (const glm::vec4& s : spheres) {
            const float r = s.w;
            const glm::vec3 q = glm::vec3(s) - target;
            const float x = std::abs(glm::dot(q, right)) + r, y = std::abs(glm::dot(q, up)) + r, z = glm::dot(q, back) + r;
            d = std::max({d, z + x / tan_x, z + y / tan_y});
        }
        distance = d;
        if (pass == kPasses - 1) break;
        // Centre what the spheres cover on screen at this distance: moving
        // the target by δ along an axis moves each sphere's screen extent
        // by −δ / depth, so the sum of the two sides' extremes falls
        // monotonically with δ and is zero at one δ, found by bisection.
        auto centre = [&](const glm::vec3& axis) {
            auto sides = [&](float delta) {
                float lo = 1e30f, hi = -1e30f;
                for (const glm::vec4& s : spheres) {
                    const float r = s.w;
                    const glm::vec3 q = glm::vec3(s) - target;
                    const float depth = std::max(d - glm::dot(q, back) - r, 1e-6f);
                    const float a = glm::dot(q, axis) - delta;
                    lo = std::min(lo, (a - r) / depth), hi = std::max(hi, (a + r) / depth);
                }
                return lo + hi;
            };
            float a = -d, b = d;  // the shift stays within the distance
            for (int i = 0; i < 40 && b - a > 1e-6f * d; ++i) {
                const float m = 0.5f * (a + b);
                (sides(m) > 0.0f ? a : b) = m;
            }
            return 0.5f * (a + b);
        };
        const float dx = centre(right), dy = centre(up);
        target += dx * right + dy * up;
    }
    // Every sphere lies in front of the camera (d − z − r > 0 above); the
    // largest one must not reach the near plane either.
    distance = std::max(distance, 1.05f * std::max(largest, 1e-3f));
}

glm::vec3 OrbitCamera::eye() const {
    glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    return target + distance * dir;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
    glm::mat4 shift(1.0f);
    shift[3] = glm::vec4(shift_x, shift_y, 0.0f, 1.0f);  // x' = x + shift_x · w: NDC moved by shift
    return shift * glm::perspective(fov_y, std::max(aspect, 1e-3f), nearPlane(), farPlane());
}

}  // namespace engine::render

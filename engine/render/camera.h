// Orbit camera: a target point, a distance and two angles. Pure math (no GL)
// so the viewer's mouse handling and "frame all" can be unit-tested.
#pragma once

#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace engine::render {

struct Bounds {
    glm::vec3 lo{1e30f}, hi{-1e30f};
    bool valid() const { return lo.x <= hi.x; }
    void add(const glm::vec3& p);
    glm::vec3 center() const { return 0.5f * (lo + hi); }
    float radius() const;  // half the diagonal
    // Appends the box's eight corners as spheres of radius 0 (for
    // OrbitCamera::frame); nothing when the box is empty.
    void appendCorners(std::vector<glm::vec4>& spheres) const;
};

class OrbitCamera {
public:
    glm::vec3 target{0.0f};
    float distance = 1.0f;
    float yaw = 0.6f;     // rad, about +Y
    float pitch = 0.35f;  // rad, above the horizon
    float fov_y = 0.7f;   // rad
    // Where the view's centre sits on screen (NDC, −1..1): the viewer puts it
    // in the middle of what its panels leave free, so the figure is framed
    // there rather than in the middle of the window (an off-axis projection).
    float shift_x = 0.0f, shift_y = 0.0f;

    // Mouse deltas in window pixels (not framebuffer pixels, so HiDPI feels the same).
    void orbit(float dx_px, float dy_px);
    void pan(float dx_px, float dy_px, float window_height_px);
    void zoom(float wheel_steps);
    // Fits the bounds into the view, keeping the current angles: every corner
    // of the box inside the frustum of a viewport of `aspect` (width/height),
    // of which only the central `fill_x` × `fill_y` share is free (the rest is
    // covered by panels), with a small margin.
    void frame(const Bounds& b, float aspect = 16.0f / 9.0f, float fill_x = 1.0f, float fill_y = 1.0f);
    // The same for a set of spheres (xyz centre, w radius): each one inside
    // the free region, the view centred on what they cover on screen (not on
    // the centre of their box), so a figure fills the region more tightly
    // than its axis-aligned box would let it.
    void frame(const std::vector<glm::vec4>& spheres, float aspect = 16.0f / 9.0f, float fill_x = 1.0f,
               float fill_y = 1.0f);

    glm::vec3 eye() const;
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    float nearPlane() const { return distance * 0.01f; }
    float farPlane() const { return distance * 100.0f; }
};

}  // namespace engine::render

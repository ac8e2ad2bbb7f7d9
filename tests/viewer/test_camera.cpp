// "Frame all": the scene fills the part of the window the panels leave free,
// whatever the angle, without anything leaving it.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <glm/vec4.hpp>

#include "engine/render/camera.h"

namespace {

using engine::render::Bounds;
using engine::render::OrbitCamera;

TEST(OrbitCamera, FrameFillsTheFreeRegionWithEveryCornerInside) {
    Bounds b;
    b.add({-0.23f, 0.68f, -0.11f});  // T5's arm over its whole flexion
    b.add({-0.02f, 1.48f, 0.43f});
    const float aspect = 1280.0f / 720.0f, fill_x = 0.42f, fill_y = 0.82f;
    for (float yaw : {0.0f, 0.6f, 1.6f, 3.0f})
        for (float pitch : {-0.3f, 0.0f, 0.35f, 1.0f}) {
            OrbitCamera c;
            c.yaw = yaw;
            c.pitch = pitch;
            c.frame(b, aspect, fill_x, fill_y);
            const glm::mat4 vp = c.projection(aspect) * c.view();
            float max_x = 0.0f, max_y = 0.0f;
            for (int i = 0; i < 8; ++i) {
                const glm::vec4 p = vp * glm::vec4((i & 1) ? b.hi.x : b.lo.x, (i & 2) ? b.hi.y : b.lo.y,
                                                   (i & 4) ? b.hi.z : b.lo.z, 1.0f);
                ASSERT_GT(p.w, 0.0f) << "a corner behind the camera";
                max_x = std::max(max_x, std::abs(p.x / p.w));
                max_y = std::max(max_y, std::abs(p.y / p.w));
            }
            EXPECT_LE(max_x, fill_x * 1.001f);
            EXPECT_LE(max_y, fill_y * 1.001f);
            // Tight in one direction at least (the bounding sphere left 40% of the view empty).
            EXPECT_GT(std::max(max_x / fill_x, max_y / fill_y), 0.85f);
        }
}

// The viewer fits spheres sampled along the bones' motion: every sphere
// stays inside the free region, the figure is centred on screen (not on its
// box's centre), and it comes closer than its box would let it.
TEST(OrbitCamera, FrameFitsSpheresTighterThanTheirBoxAndCentresThem) {
    // A diagonal limb: spheres along a line from the shoulder down and forward.
    std::vector<glm::vec4> spheres;
    Bounds box;
    for (int i = 0; i <= 20; ++i) {
        const float t = float(i) / 20.0f;
        const glm::vec4 s(-0.1f + 0.05f * t, 1.45f - 0.75f * t, 0.4f * t * t, 0.05f);
        spheres.push_back(s);
        box.add(glm::vec3(s) - s.w);
        box.add(glm::vec3(s) + s.w);
    }
    const float aspect = 1280.0f / 720.0f, fill_x = 0.42f, fill_y = 0.82f;
    for (float yaw : {-1.25f, 0.0f, 0.6f, 1.6f, 3.0f})
        for (float pitch : {-0.3f, 0.12f, 0.35f, 1.0f}) {
            OrbitCamera by_box, c;
            SCOPED_TRACE(testing::Message() << "yaw " << yaw << " pitch " << pitch);
            by_box.yaw = c.yaw = yaw;
            by_box.pitch = c.pitch = pitch;
            by_box.frame(box, aspect, fill_x, fill_y);
            c.frame(spheres, aspect, fill_x, fill_y);
            EXPECT_LE(c.distance, by_box.distance * 1.001f);
            const glm::mat4 v = c.view(), vp = c.projection(aspect) * v;
            float lo_x = 1e9f, hi_x = -1e9f, lo_y = 1e9f, hi_y = -1e9f;
            for (const glm::vec4& s : spheres) {
                // The sphere's extreme points along the screen axes.
                const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
                for (const glm::vec3& e : {right, -right, up, -up}) {
                    const glm::vec4 p = vp * glm::vec4(glm::vec3(s) + s.w * e, 1.0f);
                    ASSERT_GT(p.w, 0.0f) << "a sphere behind the camera";
                    lo_x = std::min(lo_x, p.x / p.w), hi_x = std::max(hi_x, p.x / p.w);
                    lo_y = std::min(lo_y, p.y / p.w), hi_y = std::max(hi_y, p.y / p.w);
                }
            }
            EXPECT_LE(std::max(-lo_x, hi_x), fill_x * 1.001f);
            EXPECT_LE(std::max(-lo_y, hi_y), fill_y * 1.001f);
            // Centred: the two sides' margins differ by little of the free region.
            EXPECT_LT(std::abs(lo_x + hi_x), 0.1f * fill_x);
            EXPECT_LT(std::abs(lo_y + hi_y), 0.1f * fill_y);
            EXPECT_GT(std::max((hi_x - lo_x) / (2.0f * fill_x), (hi_y - lo_y) / (2.0f * fill_y)), 0.75f);
        }
    // A sample blown up to NaN (a broken animation) is skipped, not followed.
    OrbitCamera c, with_nan;
    c.frame(spheres, aspect, fill_x, fill_y);
    spheres.emplace_back(std::nanf(""), 1.0f, 0.0f, 0.1f);
    with_nan.frame(spheres, aspect, fill_x, fill_y);
    EXPECT_EQ(with_nan.distance, c.distance);
    EXPECT_EQ(with_nan.target, c.target);
}

}  // namespace

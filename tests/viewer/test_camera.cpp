// "Frame all": the scene fills the part of the window the panels leave free,
// whatever the angle, without anything leaving it.
#include <algorithm>
#include <cmath>

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
            EXPECT_LE(max_x, fill_x * 1.001f) << "yaw " << yaw << " pitch " << pitch;
            EXPECT_LE(max_y, fill_y * 1.001f) << "yaw " << yaw << " pitch " << pitch;
            // Tight in one direction at least (the bounding sphere left 40% of the view empty).
            EXPECT_GT(std::max(max_x / fill_x, max_y / fill_y), 0.85f) << "yaw " << yaw << " pitch " << pitch;
        }
}

}  // namespace

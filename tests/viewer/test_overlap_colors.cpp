// The overlap map's colours (engine/render/colormap.h): what a user reads off
// it — grey wherever a vertex is outside every neighbour, a colour that gets
// brighter the deeper it is inside one, and the top colour for anything past
// the full scale; the legend and the muscles use the same function.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "engine/render/colormap.h"

namespace {

using engine::render::kOverlapFullScale;
using engine::render::overlapColor;

float luminance(glm::vec3 c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }
bool grey(glm::vec3 c) { return c.x == c.y && c.y == c.z; }

TEST(OverlapColors, OutsideIsGreyInsideIsColouredAndBrighterWhenDeeper) {
    EXPECT_TRUE(grey(overlapColor(0.0f)));
    EXPECT_TRUE(grey(overlapColor(-0.001f)));
    EXPECT_TRUE(grey(overlapColor(std::numeric_limits<float>::quiet_NaN())));
    // Just past the radius already stands out from the grey (a dark purple).
    const glm::vec3 shallow = overlapColor(1e-5f);
    EXPECT_FALSE(grey(shallow));
    EXPECT_GT(shallow.z, shallow.y);
    float last = luminance(shallow);
    for (float mm : {1.0f, 3.0f, 6.0f, 9.0f}) {
        const float l = luminance(overlapColor(mm * 1e-3f));
        EXPECT_GT(l, last) << mm << " mm";
        last = l;
    }
    EXPECT_EQ(overlapColor(kOverlapFullScale), overlapColor(0.05f)) << "past the full scale: the top colour";
    EXPECT_EQ(overlapColor(kOverlapFullScale), overlapColor(std::numeric_limits<float>::infinity()));
}

}  // namespace

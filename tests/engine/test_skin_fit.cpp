// The generator's skin fit (engine/anatomy/skin_fit.h): the skin is pushed
// out over the points that reach past it, and only there.
#include <algorithm>

#include <gtest/gtest.h>

#include "engine/anatomy/skin_fit.h"
#include "engine/mesh/mesh_builders.h"
#include "sim/envelope.h"

namespace {

TEST(SkinFit, EveryPointEndsInsideByTheClearance) {
    // A 2 cm skin box and points reaching 6 mm past its +x face.
    const engine::MeshData box = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.01f, 0.01f, 0.01f}, 8);
    std::vector<glm::vec3> skin = box.vertices;
    std::vector<glm::vec3> points;
    for (float y = -0.005f; y <= 0.005f; y += 0.0025f)
        for (float z = -0.005f; z <= 0.005f; z += 0.0025f) points.push_back({0.016f, y, z});
    auto farthestOut = [&](const std::vector<glm::vec3>& V) {
        sim::Envelope e;
        sim::EnvelopeDesc d;
        d.vertices = V;
        d.triangles = box.triangles;
        EXPECT_EQ(sim::buildEnvelopeGeometry(d, e), "");
        const sim::EnvelopeGrid grid(e, e.rest);
        float worst = -1.0f;
        for (glm::vec3 p : points) {
            sim::ClosestPoint c;
            grid.closest(p, c);
            worst = std::max(worst, c.signed_distance);
        }
        return worst;
    };
    EXPECT_GT(farthestOut(skin), 0.005f) << "the points start outside";
    const float clearance = 0.003f;
    EXPECT_EQ(engine::fitSkinAround(skin, box.triangles, points, clearance), 0.0f);
    EXPECT_LE(farthestOut(skin), -clearance + 2e-4f);
    // Only the skin near the points moved: the −x face stays where it was.
    for (size_t v = 0; v < skin.size(); ++v)
        if (box.vertices[v].x < -0.0099f) {
            EXPECT_EQ(skin[v], box.vertices[v]);
        }
}

}  // namespace

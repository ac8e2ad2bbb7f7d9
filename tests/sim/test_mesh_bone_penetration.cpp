// Penetration into a bone given as a collision mesh is measured (issue 14:
// it read 0 mm whatever happened; only capsule bones were measured): a
// muscle lying on a box-shaped bone, one of its vertices pushed 6 mm into
// the box, reads 6 mm less the contact radius.
#include <gtest/gtest.h>

#include "engine/mesh/mesh_builders.h"
#include "sim/simulation.h"

namespace {

TEST(MeshBonePenetration, AVertexInsideABoneMeshIsMeasured) {
    sim::SceneDesc d;
    const engine::MeshData box = engine::makeBox(glm::vec3(0.0f, -0.05f, 0.0f), glm::vec3(0.2f, 0.05f, 0.2f), 2);
    sim::BodyDesc bone;
    bone.name = "box bone";
    bone.vertices = box.vertices;
    bone.triangles = box.triangles;
    d.bodies.push_back(bone);
    const engine::MeshData oval = engine::makeOval(glm::vec3(0.0f, 0.0205f, 0.0f), glm::vec3(1, 0, 0), 0.08f, 0.02f, 8, 12);
    sim::MuscleDesc m;
    m.name = "lying";
    m.vertices = oval.vertices;
    m.triangles = oval.triangles;
    m.origin_sets = oval.origin_sets;
    m.insertion_sets = oval.insertion_sets;
    m.contact_targets.push_back({sim::TargetDesc::Kind::Body, 0});
    d.muscles.push_back(m);
    d.gravity_scale = 0.0f;  // it lies 0.5 mm above the box, within the contact radius
    sim::Simulation s;
    ASSERT_EQ(s.load(d), "");
    // Contacts with the box appear.
    for (int f = 0; f < 10; ++f) ASSERT_TRUE(s.stepFrame().ok);
    const float before = s.bonePenetration().depth;
    EXPECT_LT(before, 0.002f);
    // The lowest vertex in contact, pushed 6 mm below the box's top (y = 0).
    const sim::World& w = s.world();
    uint32_t lowest = UINT32_MAX;
    for (const sim::Contact& c : w.contacts)
        if (c.tissue == 0 && (lowest == UINT32_MAX || w.particles.x[c.particle].y < w.particles.x[lowest].y))
            lowest = c.particle;
    float ymin = 1e30f;
    for (const glm::vec3& x : w.particles.x) ymin = std::min(ymin, x.y);
    ASSERT_NE(lowest, UINT32_MAX) << "no contact with the box bone: " << w.contacts.size() << " contacts, lowest y " << ymin;
    s.mutableWorld().particles.x[lowest].y = -0.006f;
    const sim::Simulation::BonePenetration p = s.bonePenetration();
    EXPECT_NEAR(p.depth, 0.006f - s.params().contact_radius, 1e-5f);
    EXPECT_EQ(p.body, 0);
    EXPECT_EQ(p.muscle, 0);
    EXPECT_EQ(p.particle, int(lowest));
}

}  // namespace

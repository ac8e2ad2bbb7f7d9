// Penetration into a bone given as a collision mesh is measured (issue 14:
// it read 0 mm whatever happened; only capsule bones were measured): a
// muscle lying on a box-shaped bone, one of its vertices pushed 6 mm into
// the box, reads 6 mm less the contact radius.
#include <gtest/gtest.h>

#include "engine/mesh/mesh_builders.h"
#include "sim/contact_search.h"
#include "sim/simulation.h"
#include "tests/sim/box_muscle.h"

namespace {

// A muscle lying on a box-shaped bone given as a collision mesh (the way an
// artist models bones in Blender: an unskinned mesh on each bone).
sim::SceneDesc muscleOnABoxBone() {
    sim::SceneDesc d;
    const engine::MeshData box = engine::makeBox(glm::vec3(0.0f, -0.05f, 0.0f), glm::vec3(0.2f, 0.05f, 0.2f), 2);
    sim::BodyDesc bone;
    bone.name = "box bone";
    bone.vertices = box.vertices;
    bone.triangles = box.triangles;
    d.bodies.push_back(bone);
    sim::MuscleDesc m =
        sim_test::meshMuscle("lying", engine::makeOval(glm::vec3(0.0f, 0.0205f, 0.0f), glm::vec3(1, 0, 0), 0.08f, 0.02f, 8, 12));
    m.contact_targets.push_back({sim::TargetDesc::Kind::Body, 0});
    d.muscles.push_back(m);
    d.gravity_scale = 0.0f;  // it lies 0.5 mm above the box, within the contact radius
    return d;
}

// The lowest vertex holding a contact with the box (UINT32_MAX: none).
uint32_t lowestOnTheBox(const sim::World& w) {
    uint32_t lowest = UINT32_MAX;
    for (const sim::Contact& c : w.contacts)
        if (c.tissue == 0 && (lowest == UINT32_MAX || w.particles.x[c.particle].y < w.particles.x[lowest].y))
            lowest = c.particle;
    return lowest;
}

TEST(MeshBonePenetration, AVertexInsideABoneMeshIsMeasured) {
    sim::Simulation s;
    ASSERT_EQ(s.load(muscleOnABoxBone()), "");
    // Contacts with the box appear.
    for (int f = 0; f < 10; ++f) ASSERT_TRUE(s.stepFrame().ok);
    const float before = s.bonePenetration().depth;
    EXPECT_LT(before, 0.002f);
    // The lowest vertex in contact, pushed 6 mm below the box's top (y = 0).
    const sim::World& w = s.world();
    const uint32_t lowest = lowestOnTheBox(w);
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

// A vertex more than the search band (5 mm at one substep) inside a bone
// mesh still finds the bone (and is pushed out), as it would a capsule: a
// fast bend or a coarse muscle can put vertices that deep within one step,
// and a vertex the search does not see stays inside (issue 31 item 7: scenes
// authored in Blender, whose bones are meshes, read 8–19 mm inside after the
// search band narrowed from 1 cm to 5 mm).
TEST(MeshBonePenetration, AVertexDeeperInsideABoneMeshThanTheSearchBandFindsTheBone) {
    sim::Simulation s;
    ASSERT_EQ(s.load(muscleOnABoxBone()), "");
    // The whole muscle sunk 14 mm into the box (top at y = 0): its lowest
    // vertices 13.5 mm deep, past the 5 mm band, within the 15 mm bone band.
    sim::World w = s.world();
    for (size_t i = 0; i < w.particles.size(); ++i) w.particles.p[i] = w.particles.rest[i] - glm::vec3(0.0f, 0.014f, 0.0f);
    sim::ContactSearch search;
    search.prepare(w);
    search.findContacts(w, 0.005f, 0.004f, false);
    const sim::Muscle& m = w.muscles[0];
    int deep = 0;
    for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
        if (w.particles.w[i] == 0.0f || !(w.particles.p[i].y < -0.006f)) continue;
        ++deep;
        bool found = false;
        for (const sim::Contact& c : w.contacts) found = found || (c.particle == i && c.tissue == 0);
        EXPECT_TRUE(found) << "vertex " << i << " " << -1000.0f * w.particles.p[i].y << " mm inside the box finds no contact";
    }
    EXPECT_GT(deep, 5);
}

}  // namespace

// Contacts between muscles and bones as a user measures them (docs/model.md
// §3.6, §8): the muscle-into-muscle figure sees every vertex, also the ones
// too deep for a contact; a contact found at a frame's first substep follows
// its bone through the frame's later substeps.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/mesh/mesh_builders.h"
#include "sim/geometry.h"
#include "sim/simulation.h"
#include "tests/sim/box_muscle.h"

namespace {

using sim_test::boxMuscle;

// Two boxes, B around the origin and A pushed 8 mm into B's +x face: the
// deepest vertex is 8 mm inside, whichever of the two it belongs to.
sim::SceneDesc overlappingBoxes(float overlap) {
    sim::SceneDesc s;
    s.name = "boxes";
    s.muscles.push_back(boxMuscle("a", {0.04f - overlap, 0.0f, 0.0f}, {0.02f, 0.015f, 0.015f}));
    s.muscles.push_back(boxMuscle("b", {0.0f, 0.0f, 0.0f}, {0.02f, 0.02f, 0.02f}));
    s.muscles[0].contact_targets.push_back({sim::TargetDesc::Kind::Muscle, 1});
    s.muscles[1].contact_targets.push_back({sim::TargetDesc::Kind::Muscle, 0});
    return s;
}

TEST(ContactMeasures, MuscleIntoMuscleIsMeasuredOverEveryVertex) {
    sim::Simulation s;
    ASSERT_EQ(s.load(overlappingBoxes(0.008f)), "");
    // No step: no contact search has run, so a measure over the tissue
    // contacts would see nothing; this one must see the 8 mm.
    const auto mp = s.musclePenetration();
    const float r = s.params().contact_radius;
    EXPECT_NEAR(mp.depth, 0.008f - r, 2e-6f);
    ASSERT_GE(mp.muscle, 0);
    EXPECT_EQ(mp.into, 1 - mp.muscle) << "a vertex of one box inside the other";
    // Past r + 3 mm: the face vertices more than 5 mm inside, on both boxes.
    EXPECT_GT(mp.vertices_past_3mm, 2);

    sim::Simulation apart;
    ASSERT_EQ(apart.load(overlappingBoxes(-0.005f)), "");
    EXPECT_EQ(apart.musclePenetration().depth, 0.0f);
    EXPECT_EQ(apart.musclePenetration().vertices_past_3mm, 0);
    EXPECT_TRUE(apart.musclePenetration().pairs_past_3mm.empty());
}

// Which neighbour sinks into which: the vertices past 3 mm split by ordered
// pair — both boxes' face vertices, each pair's count and deepest, and
// together exactly the total.
TEST(ContactMeasures, VerticesPast3mmAreSplitByPair) {
    sim::Simulation s;
    ASSERT_EQ(s.load(overlappingBoxes(0.008f)), "");
    const auto mp = s.musclePenetration();
    ASSERT_EQ(mp.pairs_past_3mm.size(), 2u) << "a into b and b into a";
    EXPECT_EQ(mp.pairs_past_3mm[0].muscle, 0);
    EXPECT_EQ(mp.pairs_past_3mm[0].into, 1);
    EXPECT_EQ(mp.pairs_past_3mm[1].muscle, 1);
    EXPECT_EQ(mp.pairs_past_3mm[1].into, 0);
    int sum = 0;
    float deepest = 0.0f;
    for (const auto& q : mp.pairs_past_3mm) {
        EXPECT_GT(q.vertices, 0);
        EXPECT_GT(q.deepest, 0.003f) << "only vertices past 3 mm are counted";
        sum += q.vertices;
        deepest = std::max(deepest, q.deepest);
    }
    EXPECT_EQ(sum, mp.vertices_past_3mm);
    EXPECT_EQ(deepest, mp.depth) << "the deepest pair holds the deepest vertex";
}

// The viewer's overlap map reads the same measure vertex by vertex: its
// deepest vertex is the run report's, its vertices past 3 mm are the
// report's count, and apart boxes are all zero.
TEST(ContactMeasures, PerVertexOverlapIsTheSameMeasure) {
    sim::Simulation s;
    ASSERT_EQ(s.load(overlappingBoxes(0.008f)), "");
    const auto mp = s.musclePenetration();
    std::vector<float> depth;
    s.musclePenetrationPerVertex(depth);
    ASSERT_EQ(depth.size(), s.world().particles.size());
    const auto deepest = std::max_element(depth.begin(), depth.end());
    EXPECT_EQ(*deepest, mp.depth);
    EXPECT_EQ(int(deepest - depth.begin()), mp.particle);
    EXPECT_EQ(std::count_if(depth.begin(), depth.end(), [](float d) { return d > 0.003f; }), mp.vertices_past_3mm);
    // Only surface vertices of one box inside the other: the far faces and
    // the branch points read 0.
    const sim::World& w = s.world();
    for (size_t i = 0; i < depth.size(); ++i) {
        const sim::Muscle& m = w.muscles[w.particles.muscle[i]];
        if (i >= m.first + m.surface_count) {
            EXPECT_EQ(depth[i], 0.0f) << "branch point " << i;
        }
    }
    EXPECT_GT(std::count(depth.begin(), depth.end(), 0.0f), std::ptrdiff_t(depth.size() / 2));

    sim::Simulation apart;
    ASSERT_EQ(apart.load(overlappingBoxes(-0.005f)), "");
    apart.musclePenetrationPerVertex(depth);
    EXPECT_EQ(std::count(depth.begin(), depth.end(), 0.0f), std::ptrdiff_t(depth.size()));
}

// A vertex outside its neighbour whose test ray runs through an edge two of
// the neighbour's triangles share: the parity of float crossings counts both
// triangles and calls it inside, as deep as its distance to the surface (T7's
// run read 71 mm that way: a trunk-sheet vertex "inside" a biceps); the
// measure counts signed crossings exactly (sim::skewRaySignedCrossing) and
// reads nothing.
TEST(ContactMeasures, AVertexWhoseRayGrazesAnEdgeIsNotInside) {
    // b: an oval, so that points outside it lie inside its bounds.
    const sim::MuscleDesc b =
        sim_test::meshMuscle("b", engine::makeOval({0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, 0.05f, 0.02f, 12, 16));
    auto winding = [&](glm::vec3 p) {  // solid angles: no ray, no edge to graze
        double solid = 0.0;
        for (const glm::uvec3& u : b.triangles) {
            const glm::dvec3 x = glm::dvec3(b.vertices[u.x]) - glm::dvec3(p), y = glm::dvec3(b.vertices[u.y]) - glm::dvec3(p),
                             z = glm::dvec3(b.vertices[u.z]) - glm::dvec3(p);
            const double lx = glm::length(x), ly = glm::length(y), lz = glm::length(z);
            solid += 2.0 * std::atan2(glm::dot(x, glm::cross(y, z)), lx * ly * lz + glm::dot(x, y) * lz + glm::dot(y, z) * lx + glm::dot(z, x) * ly);
        }
        return solid / (4.0 * 3.14159265358979323846);
    };
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (const glm::vec3& v : b.vertices) lo = glm::min(lo, v), hi = glm::max(hi, v);
    // Points outside b but inside its bounds on rays through its edges'
    // midpoints, where parity gets it wrong.
    const glm::vec3 d = sim::skewRayDirection();
    std::vector<glm::vec3> grazing;
    for (const glm::uvec3& t : b.triangles)
        for (int k = 0; k < 3 && grazing.size() < 4; ++k) {
            const glm::vec3 mid = 0.5f * (b.vertices[t[k]] + b.vertices[t[(k + 1) % 3]]);
            for (float along : {0.002f, 0.004f, 0.011f}) {
                const glm::vec3 p = mid - along * d;
                const bool in_bounds = glm::all(glm::greaterThan(p, lo + 0.0005f)) && glm::all(glm::lessThan(p, hi - 0.0005f));
                if (in_bounds && std::fabs(winding(p)) < 0.01 && sim::insideByCrossings(p, b.vertices, b.triangles))
                    grazing.push_back(p);
            }
        }
    ASSERT_FALSE(grazing.empty()) << "no ray through a shared edge fooled the parity test";
    size_t tested = 0;
    for (const glm::vec3& p : grazing) {
        // A small box on the ray's near side, the middle of one of its
        // edges along z exactly on p (its z ends are its attachments).
        sim::SceneDesc s;
        s.name = "graze";
        s.muscles.push_back(sim_test::boxMuscle("a", p - glm::vec3(0.001f, 0.001f, 0.0f), glm::vec3(0.001f)));
        s.muscles.push_back(b);
        size_t corner = 0;
        for (size_t i = 0; i < s.muscles[0].vertices.size(); ++i)
            if (glm::length(s.muscles[0].vertices[i] - p) < glm::length(s.muscles[0].vertices[corner] - p)) corner = i;
        s.muscles[0].vertices[corner] = p;
        bool clear = true;
        for (const glm::vec3& v : s.muscles[0].vertices) clear = clear && std::fabs(winding(v)) < 0.01;
        if (!clear) continue;  // the box reaches into b
        s.muscles[0].contact_targets.push_back({sim::TargetDesc::Kind::Muscle, 1});
        s.muscles[1].contact_targets.push_back({sim::TargetDesc::Kind::Muscle, 0});
        sim::Simulation sim;
        ASSERT_EQ(sim.load(s), "");
        EXPECT_EQ(sim.musclePenetration().deepest_raw, 0.0f) << "p " << p.x << " " << p.y << " " << p.z;
        ++tested;
    }
    EXPECT_GT(tested, 0u);
}

// A muscle slab lying on a bone given as a mesh (not a capsule), the bone
// thrown up 12 mm per frame of 6 substeps: with the search once per frame the
// contact planes move with the bone, so the slab is lifted as with a search at
// every substep (with the planes left where the search found them, the bone
// passed 6.5 mm into the slab in the first frame).
float slabDepthInBone(int search_every) {
    sim::SceneDesc s;
    s.name = "slab";
    const engine::MeshData bone = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.05f, 0.01f, 0.05f}, 4);
    sim::BodyDesc b;
    b.name = "bone";
    b.vertices = bone.vertices;
    b.triangles = bone.triangles;
    s.bodies.push_back(b);
    s.muscles.push_back(boxMuscle("slab", {0.0f, 0.0185f, 0.0f}, {0.03f, 0.006f, 0.03f}));
    s.muscles[0].contact_targets.push_back({sim::TargetDesc::Kind::Body, 0});
    sim::Simulation sim;
    EXPECT_EQ(sim.load(s), "");
    sim::SolverParams p;
    p.substeps = 6;
    p.threads = 1;
    p.search_every = search_every;
    p.gravity = glm::vec3(0.0f);
    EXPECT_EQ(sim.setParams(p), "");
    float deepest = 0.0f;
    for (int f = 1; f <= 3; ++f) {
        sim.setBodyTransforms({glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 0.012f * float(f), 0.0f))});
        EXPECT_TRUE(sim.stepFrame().ok);
        const float top = 0.01f + 0.012f * float(f);
        for (const auto& x : sim.world().particles.x) deepest = std::max(deepest, top - x.y);
    }
    return deepest;
}

TEST(ContactMeasures, ContactsFollowTheirBoneBetweenSearches) {
    const float every_substep = slabDepthInBone(1);
    const float once_per_frame = slabDepthInBone(0);
    EXPECT_LT(every_substep, 0.003f);
    EXPECT_LT(once_per_frame, every_substep + 0.0005f) << "the contact planes stay on the moving bone's face";
}

}  // namespace

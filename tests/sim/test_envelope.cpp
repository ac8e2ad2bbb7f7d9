// The fascia envelope (docs/model.md §3.8) as a user sees it: a muscle flung
// against it stays inside the skin, and without it (the specification's
// contacts) leaves; the binding knows inside from outside around corners.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "engine/mesh/mesh_builders.h"
#include "sim/envelope.h"
#include "sim/skew_ray_grid.h"
#include "sim/simulation.h"
#include "tests/sim/box_muscle.h"

namespace {

using sim_test::boxMuscle;

// A skin of two closed pieces that cross (as a skinned character's do where
// linear-blend skinning folds it, or where its limbs were brought back from a
// spread pose); returns the index of piece b's first vertex.
uint32_t twoPieceSkin(const engine::MeshData& a, const engine::MeshData& b, sim::EnvelopeDesc& skin) {
    skin.name = "skin";
    skin.vertices = a.vertices;
    skin.triangles = a.triangles;
    const uint32_t base = uint32_t(a.vertices.size());
    skin.vertices.insert(skin.vertices.end(), b.vertices.begin(), b.vertices.end());
    for (const glm::uvec3& t : b.triangles) skin.triangles.push_back(t + glm::uvec3(base));
    return base;
}

// A 4 × 3 × 3 cm box muscle inside a skin box 1 cm larger on every side.
sim::SceneDesc boxInSkin() {
    sim::SceneDesc s;
    s.name = "box in skin";
    s.gravity_scale = 0.0f;
    s.muscles.push_back(boxMuscle("box", {0.0f, 0.0f, 0.0f}, {0.02f, 0.015f, 0.015f}));
    const engine::MeshData skin = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.03f, 0.025f, 0.025f}, 6);
    s.envelope.name = "skin";
    s.envelope.vertices = skin.vertices;
    s.envelope.triangles = skin.triangles;
    return s;
}

// Flings every vertex of the muscle along +x at `speed` and runs `frames`;
// returns how far the muscle got outside the skin (m).
float flungOutside(sim::ContactModel model, float speed, int frames, float stiffness_scale = 1.0f) {
    sim::Simulation s;
    sim::SceneDesc d = boxInSkin();
    d.envelope.stiffness_scale = stiffness_scale;
    EXPECT_EQ(s.load(d), "");
    sim::SolverParams p;
    p.contacts = model;
    p.threads = 1;
    p.substeps = 3;  // as the arm scenes
    EXPECT_EQ(s.setParams(p), "");
    for (auto& v : s.mutableWorld().particles.v) v = glm::vec3(speed, 0.0f, 0.0f);
    float worst = 0.0f;
    for (int f = 0; f < frames; ++f) {
        EXPECT_TRUE(s.stepFrame().ok);
        worst = std::max(worst, s.envelopeOutside().deepest);
    }
    return worst;
}

TEST(Envelope, HoldsAMuscleFlungAgainstIt) {
    // 2 m/s: the box would cross the 1 cm gap in 5 ms and be 20 cm out after
    // ten frames. The envelope holds it inside, up to the solver's tolerance
    // at the impact.
    EXPECT_LT(flungOutside(sim::ContactModel::Limb, 2.0f, 10), 0.002f);
    // The mechanism, not the setting: without it the muscle leaves.
    EXPECT_GT(flungOutside(sim::ContactModel::Spec, 2.0f, 10), 0.05f);
}

// A skin whose layer is softer (msxpbd_envelope.stiffness_scale) gives
// more: at 10⁻⁶ of the family's stiffness the flung box goes centimetres
// out, then comes back in; a scale outside its range is refused.
TEST(Envelope, ItsStiffnessScaleSoftensItAndIsChecked) {
    const float firm = flungOutside(sim::ContactModel::Limb, 2.0f, 10);
    const float soft = flungOutside(sim::ContactModel::Limb, 2.0f, 10, 1e-6f);
    EXPECT_GT(soft, firm + 0.01f);
    for (float bad : {0.0f, -1.0f, 1e7f, std::nanf("")}) {
        sim::SceneDesc d = boxInSkin();
        d.envelope.stiffness_scale = bad;
        sim::Simulation s;
        EXPECT_NE(s.load(d).find("stiffness_scale"), std::string::npos) << bad;
    }
}

TEST(Envelope, BindsEveryFreeSurfaceVertexInsideItWithItsRestDepth) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxInSkin()), "");
    const sim::World& w = s.world();
    ASSERT_TRUE(w.envelope.active());
    const sim::Muscle& m = w.muscles[0];
    for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
        ASSERT_GE(w.envelope.tri[i], 0) << "vertex " << i;
        // The box lies 1 cm inside the skin on every side: held at the
        // subcutaneous thickness, not deeper.
        EXPECT_FLOAT_EQ(w.envelope.margin[i], sim::kDefaultEnvelopeThickness);
    }
    for (uint32_t i = m.first + m.surface_count; i < m.particleEnd(); ++i) EXPECT_EQ(w.envelope.tri[i], -1);
    EXPECT_EQ(s.envelopeOutside().deepest, 0.0f);
    EXPECT_EQ(s.envelopeOutside().vertices_past_2mm, 0);
}

TEST(Envelope, TellsInsideFromOutsideAtEdgesAndCorners) {
    sim::Envelope e;
    sim::EnvelopeDesc d;
    const engine::MeshData box = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.01f, 0.01f, 0.01f}, 3);
    d.vertices = box.vertices;
    d.triangles = box.triangles;
    ASSERT_EQ(sim::buildEnvelopeGeometry(d, e), "");
    const sim::EnvelopeGrid grid(e, e.rest);
    // Just outside and just inside a corner and an edge: the closest point is
    // a vertex or an edge, where a face normal alone can give either sign.
    for (glm::vec3 dir : {glm::vec3(1, 1, 1), glm::vec3(1, 1, 0), glm::vec3(-1, 0, 1)}) {
        const glm::vec3 corner = 0.01f * dir;
        sim::ClosestPoint out, in;
        ASSERT_NE(grid.closest(corner * 1.2f, out), ~0u);
        ASSERT_NE(grid.closest(corner * 0.8f, in), ~0u);
        EXPECT_GT(out.signed_distance, 0.0f);
        EXPECT_LT(in.signed_distance, 0.0f);
        // The walk from any triangle finds the same closest distance.
        sim::ClosestPoint walked;
        sim::envelopeWalk(e, e.rest, 0, corner * 1.2f, walked);
        EXPECT_NEAR(walked.distance, out.distance, 1e-6f);
    }
}

TEST(Envelope, APoseWithANonFiniteVertexIsIgnored) {
    sim::Simulation s;
    ASSERT_EQ(s.load(boxInSkin()), "");
    std::vector<glm::vec3> pose = s.world().envelope.rest;
    pose[3].x = std::nanf("");
    s.setEnvelopePose(pose);
    EXPECT_EQ(s.world().envelope.curr, s.world().envelope.rest);
    EXPECT_TRUE(s.stepFrame().ok);
}

}  // namespace

namespace {

// A skin of 19 200 small triangles plus one a kilometre wide (a hostile
// file): the grid is built and answers at once. Cells of the mean edge
// (5 cm here) would list the big triangle in 4·10⁸ of them.
TEST(Envelope, OneHugeTriangleDoesNotBlowUpTheGrid) {
    sim::SceneDesc s = boxInSkin();
    const engine::MeshData fine = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.03f, 0.025f, 0.025f}, 40);
    s.envelope.vertices = fine.vertices;
    s.envelope.triangles = fine.triangles;
    const uint32_t base = uint32_t(s.envelope.vertices.size());
    s.envelope.vertices.push_back({-500.0f, -500.0f, 3.0f});
    s.envelope.vertices.push_back({500.0f, -500.0f, 3.0f});
    s.envelope.vertices.push_back({0.0f, 500.0f, 3.0f});
    s.envelope.triangles.push_back({base, base + 1, base + 2});
    sim::Simulation sim;
    ASSERT_EQ(sim.load(s), "");
    EXPECT_TRUE(sim.stepFrame().ok);
    EXPECT_EQ(sim.envelopeOutside().vertices_past_2mm, 0);
}

}  // namespace

namespace {

// Where linear-blend skinning folds a skin through itself (a flexed elbow:
// the forearm's skin passes into the upper arm's), a muscle vertex can lie
// outside the closest triangle yet inside another piece of the skin: it is
// covered, not outside. Here the skin is two overlapping boxes and the
// muscle sits in the second, 5 mm past the first one's face.
TEST(Envelope, AVertexInsideAnotherPieceOfAFoldedSkinIsNotOutside) {
    sim::SceneDesc s;
    s.name = "folded skin";
    s.gravity_scale = 0.0f;
    s.muscles.push_back(boxMuscle("box", {0.045f, 0.0f, 0.0f}, {0.01f, 0.01f, 0.01f}));
    const engine::MeshData a = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.03f, 0.025f, 0.025f}, 6);
    const engine::MeshData b = engine::makeBox({0.04f, 0.0f, 0.0f}, {0.025f, 0.02f, 0.02f}, 6);
    twoPieceSkin(a, b, s.envelope);
    sim::Simulation sim;
    ASSERT_EQ(sim.load(s), "");
    const sim::World& w = sim.world();
    // The closest triangle of the box's face nearest the first piece is
    // that piece's face, which it lies 5 mm outside of ...
    const sim::EnvelopeGrid grid(w.envelope, w.envelope.rest);
    sim::ClosestPoint c;
    ASSERT_NE(grid.closest({0.035f, 0.0f, 0.0f}, c), ~0u);
    EXPECT_NEAR(c.signed_distance, 0.005f, 1e-5f);
    // ... but it is inside the second piece: nothing is outside the skin.
    sim::SkewRayGrid rays;
    rays.build(w.envelope.rest, w.envelope.triangles, 0, uint32_t(w.envelope.triangles.size()));
    EXPECT_EQ(rays.winding(w.envelope.rest, w.envelope.triangles, {0.035f, 0.0f, 0.0f}), 1);
    EXPECT_EQ(sim.envelopeOutside().deepest, 0.0f);
    // A vertex beyond both pieces is outside.
    EXPECT_EQ(rays.winding(w.envelope.rest, w.envelope.triangles, {0.08f, 0.0f, 0.0f}), 0);
}

}  // namespace

namespace {

// Where a character's skin pieces cross (an arm's skin through the trunk's,
// a hand's through a thigh's), the surface nearest a muscle vertex can be
// another limb's. Bound to it, the vertex would be carried off when that
// limb swings. Here the muscle hangs on bone A inside skin A; a piece of
// skin carried by bone B crosses it, its face 5 mm from the muscle's side
// (closer than skin A's, 10 mm), then swings 4 cm away.
// `bodies_known`: the skin says which bone carries each vertex.
float carriedOffByAnotherLimbsSkin(bool bodies_known) {
    sim::SceneDesc s;
    s.name = "crossing skins";
    s.gravity_scale = 0.0f;
    for (const char* name : {"A", "B"}) {
        sim::BodyDesc b;
        b.name = name;
        b.capsule_a = {-0.02f, 0.0f, -0.06f};
        b.capsule_b = {0.02f, 0.0f, -0.06f};
        b.capsule_radius = 0.002f;
        s.bodies.push_back(b);
    }
    sim::MuscleDesc m = boxMuscle("muscle", {0.0f, 0.0f, 0.0f}, {0.02f, 0.015f, 0.015f});
    for (uint32_t v : m.origin_sets[0]) m.attachments.push_back({v, 0});
    s.muscles.push_back(m);
    const engine::MeshData a = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.03f, 0.025f, 0.025f}, 6);
    const engine::MeshData b = engine::makeBox({0.035f, 0.0f, 0.0f}, {0.02f, 0.03f, 0.03f}, 6);
    const uint32_t base = twoPieceSkin(a, b, s.envelope);
    if (bodies_known) {
        s.envelope.vertex_body.assign(a.vertices.size(), 0);
        s.envelope.vertex_body.resize(s.envelope.vertices.size(), 1);
    }
    sim::Simulation sim;
    EXPECT_EQ(sim.load(s), "");
    sim::SolverParams p;
    p.threads = 1;
    EXPECT_EQ(sim.setParams(p), "");
    // Limb B swings 4 cm along +x; bone A and its skin stay.
    std::vector<glm::vec3> pose = sim.world().envelope.rest;
    for (size_t v = base; v < pose.size(); ++v) pose[v].x += 0.04f;
    float farthest = 0.0f;
    for (int f = 0; f < 10; ++f) {
        sim.setEnvelopePose(pose);
        EXPECT_TRUE(sim.stepFrame().ok);
        for (const glm::vec3& x : sim.world().particles.x) farthest = std::max(farthest, x.x);
    }
    return farthest;
}

TEST(Envelope, AMuscleIsHeldOnlyByTheSkinOfItsOwnBones) {
    // Held by skin A: the muscle's side (x = 2 cm) stays inside it (3 cm).
    EXPECT_LT(carriedOffByAnotherLimbsSkin(true), 0.03f);
    // The mechanism, not the setting: bound to the nearest skin whatever
    // carries it, the side follows limb B out of skin A.
    EXPECT_GT(carriedOffByAnotherLimbsSkin(false), 0.05f);
}

}  // namespace

// The winding number the skin's inside test reads is exact where the ray
// runs through an edge two triangles share (a deep muscle vertex on such a
// ray read as outside a closed skin: 63 mm out in a T7 frame): for points
// whose ray passes through the midpoint of an edge of a closed box or oval,
// the count is 1 inside and 0 outside, every time.
TEST(Envelope, TheWindingNumberIsExactForARayThroughASharedEdge) {
    const glm::vec3 d = sim::skewRayDirection();
    size_t tried = 0;
    for (const engine::MeshData& m : {engine::makeBox({0.001f, -0.002f, 0.0f}, {0.03f, 0.025f, 0.025f}, 6),
                                      engine::makeOval({0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, 0.05f, 0.02f, 12, 16)}) {
        sim::SkewRayGrid rays;
        rays.build(m.vertices, m.triangles, 0, uint32_t(m.triangles.size()));
        for (const glm::uvec3& t : m.triangles)
            for (int k = 0; k < 3; ++k) {
                const glm::vec3 mid = 0.5f * (m.vertices[t[k]] + m.vertices[t[(k + 1) % 3]]);
                for (float s : {0.004f, 0.011f, 0.023f, 0.047f}) {
                    const glm::vec3 p = mid - s * d;
                    // Inside or not by the generalised winding number (solid
                    // angles: no ray, no edge to graze).
                    double solid = 0.0;
                    for (const glm::uvec3& u : m.triangles) {
                        const glm::dvec3 a = glm::dvec3(m.vertices[u.x]) - glm::dvec3(p), b = glm::dvec3(m.vertices[u.y]) - glm::dvec3(p),
                                         c = glm::dvec3(m.vertices[u.z]) - glm::dvec3(p);
                        const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
                        solid += 2.0 * std::atan2(glm::dot(a, glm::cross(b, c)),
                                                  la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb);
                    }
                    const double wn = solid / (4.0 * 3.14159265358979323846);
                    if (std::fabs(wn - std::round(wn)) > 0.01) continue;  // on the surface itself
                    ++tried;
                    ASSERT_EQ(rays.winding(m.vertices, m.triangles, p), int(std::lround(wn)))
                        << "p " << p.x << " " << p.y << " " << p.z << " (ray through an edge's midpoint)";
                }
            }
    }
    EXPECT_GT(tried, 1000u);
}

// The contact search against brute force (docs/model.md §3.6): whatever the
// grid, the candidate pruning and the thread count, every contact it reports
// lies on the closest point of its target, and every target within reach of a
// vertex is found. The scene packs muscles closely — the case the pruning is
// for — around a bone given as a mesh (rotated and moved) and one given as a
// capsule, with the positions jittered off the rest pose.
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <omp.h>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/mesh/mesh_builders.h"
#include "sim/contact_search.h"
#include "sim/geometry.h"
#include "sim/world.h"
#include "tests/sim/box_muscle.h"

namespace {

constexpr float kSearch = 0.01f;       // Simulation's wide band (max(4r, 1 cm), a search kept over substeps)
constexpr float kMuscleDepth = 0.004f;  // max(2r, 2 mm)

sim::MuscleDesc ovalMuscle(const std::string& name, glm::vec3 centre, glm::vec3 axis, float half, float radius) {
    return sim_test::meshMuscle(name, engine::makeOval(centre, axis, half, radius, 14, 16));
}

sim::BodyDesc capsuleBone(const std::string& name, glm::vec3 a, glm::vec3 b, float radius) {
    sim::BodyDesc capsule;
    capsule.name = name;
    capsule.capsule_a = a;
    capsule.capsule_b = b;
    capsule.capsule_radius = radius;
    return capsule;
}

// Five spindles side by side and crossing, 2–6 mm apart or overlapping, each
// touching every other one, a mesh bone and a capsule bone.
sim::SceneDesc packedScene() {
    sim::SceneDesc s;
    s.name = "packed";
    s.muscles.push_back(ovalMuscle("a", {0.000f, 0.0f, 0.0f}, {0, 0, 1}, 0.05f, 0.012f));
    s.muscles.push_back(ovalMuscle("b", {0.026f, 0.0f, 0.004f}, {0, 0.1f, 1}, 0.05f, 0.012f));
    s.muscles.push_back(ovalMuscle("c", {0.012f, 0.021f, 0.0f}, {0.3f, 0, 1}, 0.045f, 0.011f));
    s.muscles.push_back(ovalMuscle("d", {0.013f, -0.018f, -0.01f}, {1, 0, 0.4f}, 0.04f, 0.009f));
    s.muscles.push_back(ovalMuscle("e", {0.013f, 0.004f, 0.03f}, {0, 1, 0.2f}, 0.04f, 0.008f));
    sim::BodyDesc mesh;
    mesh.name = "mesh bone";
    const engine::MeshData box = engine::makeBox({0.0f, 0.0f, 0.0f}, {0.03f, 0.006f, 0.006f}, 6);
    mesh.vertices = box.vertices;
    mesh.triangles = box.triangles;
    mesh.transform = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(0.013f, 0.002f, -0.035f)), 0.4f,
                                 glm::vec3(0.2f, 1.0f, 0.1f));
    s.bodies.push_back(mesh);
    s.bodies.push_back(capsuleBone("capsule bone", {0.013f, -0.03f, 0.015f}, {0.013f, 0.03f, 0.015f}, 0.005f));
    for (size_t m = 0; m < s.muscles.size(); ++m) {
        for (size_t o = 0; o < s.muscles.size(); ++o)
            if (o != m) s.muscles[m].contact_targets.push_back({sim::TargetDesc::Kind::Muscle, int(o)});
        s.muscles[m].contact_targets.push_back({sim::TargetDesc::Kind::Body, 0});
        s.muscles[m].contact_targets.push_back({sim::TargetDesc::Kind::Body, 1});
    }
    return s;
}

sim::World jitteredWorld(const sim::SceneDesc& scene = packedScene()) {
    sim::World w;
    EXPECT_EQ(sim::buildWorld(scene, w), "");
    // Deterministic jitter up to ~1.5 mm, so the surfaces are not the smooth rest ones.
    for (size_t i = 0; i < w.particles.size(); ++i) {
        const float t = float(i);
        w.particles.p[i] = w.particles.x[i] + 0.0015f * glm::vec3(std::sin(1.7f * t), std::sin(2.3f * t + 1.0f),
                                                                 std::sin(3.1f * t + 2.0f));
    }
    return w;
}

std::vector<sim::Contact> searchWith(int threads, sim::World& w) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    sim::ContactSearch search;
    search.prepare(w);
    search.findContacts(w, kSearch, kMuscleDepth);
    omp_set_num_threads(before);
    return w.contacts;
}

sim::TargetDesc targetOf(const sim::Contact& c) {
    if (c.tissue) return {sim::TargetDesc::Kind::Muscle, int(c.tissue) - 1};
    return {sim::TargetDesc::Kind::Body, c.capsule_body >= 0 ? c.capsule_body : 0};  // the one mesh bone is body 0
}

TEST(ContactSearch, EveryContactIsItsTargetsClosestPointAndNoneWithinReachIsMissed) {
    sim::World w = jitteredWorld();
    const std::vector<sim::Contact> contacts = searchWith(1, w);
    ASSERT_GT(contacts.size(), 500u) << "the scene is meant to be packed";
    size_t tissue = 0, mesh = 0, capsule = 0;
    std::vector<std::vector<sim::TargetDesc>> found(w.particles.size());
    for (const sim::Contact& c : contacts) {
        const sim::TargetDesc t = targetOf(c);
        found[c.particle].push_back(t);
        (c.tissue ? tissue : c.capsule_body >= 0 ? capsule : mesh)++;
        const glm::vec3 p = w.particles.p[c.particle];
        const sim::ClosestPoint brute = sim::closestPointOnTarget(w, t, p, false);
        ASSERT_TRUE(brute.valid);
        EXPECT_LT(glm::length(brute.point - c.q), 1e-6f)
            << "particle " << c.particle << ": the search's point is not the closest on its target (distance "
            << glm::length(p - c.q) << " against " << brute.distance << ")";
    }
    EXPECT_GT(tissue, 100u);
    EXPECT_GT(mesh, 10u);
    EXPECT_GT(capsule, 10u);

    // Completeness: a target closer than the muscle depth is accepted from
    // either side, so it must be among the vertex's contacts (when it has no
    // more such targets than its 3 slots).
    size_t checked = 0;
    for (const sim::Muscle& m : w.muscles) {
        for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
            if (w.particles.w[i] == 0.0f) continue;
            std::vector<sim::TargetDesc> near;
            for (const sim::TargetDesc& t : m.contact_targets)
                if (sim::closestPointOnTarget(w, t, w.particles.p[i], false).distance < 0.9f * kMuscleDepth)
                    near.push_back(t);
            if (near.empty() || near.size() > 3) continue;
            ++checked;
            for (const sim::TargetDesc& t : near) {
                bool hit = false;
                for (const sim::TargetDesc& f : found[i]) hit = hit || (f.kind == t.kind && f.index == t.index);
                EXPECT_TRUE(hit) << "particle " << i << " has no contact with target " << int(t.kind) << "/" << t.index
                                 << " " << sim::closestPointOnTarget(w, t, w.particles.p[i], false).distance << " m away";
            }
        }
    }
    EXPECT_GT(checked, 300u);
}

TEST(ContactSearch, TheSameContactsForAnyThreadCount) {
    sim::World a = jitteredWorld(), b = jitteredWorld();
    const std::vector<sim::Contact> one = searchWith(1, a), two = searchWith(2, b), three = searchWith(3, b);
    ASSERT_EQ(one.size(), two.size());
    ASSERT_EQ(one.size(), three.size());
    for (size_t k = 0; k < one.size(); ++k) {
        for (const auto* other : {&two, &three}) {
            const sim::Contact& c = (*other)[k];
            EXPECT_EQ(one[k].particle, c.particle);
            EXPECT_EQ(one[k].tissue, c.tissue);
            EXPECT_EQ(one[k].capsule_body, c.capsule_body);
            EXPECT_EQ(0, std::memcmp(&one[k].q, &c.q, sizeof c.q)) << "contact " << k;
            EXPECT_EQ(0, std::memcmp(&one[k].n, &c.n, sizeof c.n)) << "contact " << k;
        }
    }
}

// A search at every substep uses the narrow band (max(2.5r, 5 mm)), but a
// sliding connection may hold its vertex up to the scene's sliding radius
// (1 cm by default) from its surface: its q must still be the closest point
// on the target, not the stale point of the last time it was near.
TEST(ContactSearch, SlidingConnectionsFindTheirSurfaceBeyondTheNarrowBand) {
    constexpr float kNarrow = 0.005f, kReach = 0.01f;
    sim::World w = jitteredWorld();
    const sim::TargetDesc target{sim::TargetDesc::Kind::Muscle, 1};
    const sim::Muscle& a = w.muscles[0];
    size_t beyond = 0, within = 0;
    for (uint32_t i = a.first; i < a.first + a.surface_count; ++i) {
        if (w.particles.w[i] == 0.0f) continue;
        const float d = sim::closestPointOnTarget(w, target, w.particles.p[i], false).distance;
        if (d > kReach) continue;
        (d > kNarrow ? beyond : within)++;
        w.sliding.push_back({i, target, d, glm::vec3(1.0f), glm::vec3(0.0f, 1.0f, 0.0f)});
    }
    ASSERT_GT(beyond, 20u) << "the scene must hold connections beyond the narrow band";
    ASSERT_GT(within, 5u);
    sim::ContactSearch search;
    search.prepare(w);
    search.findContacts(w, kNarrow, kMuscleDepth);
    search.updateSliding(w, kReach);
    for (const sim::SlidingConnection& s : w.sliding) {
        const sim::ClosestPoint brute = sim::closestPointOnTarget(w, target, w.particles.p[s.particle], false);
        EXPECT_LT(glm::length(brute.point - s.q), 1e-6f)
            << "particle " << s.particle << " " << brute.distance << " m from its surface";
        EXPECT_GT(glm::dot(brute.normal, s.n), 0.999f) << "particle " << s.particle;
    }
}

// Between searches (refresh, a search kept over substeps) a bone capsule the
// vertex held stays, however far the vertex is now: within a substep the
// solver can pull a vertex that the prediction flung past the bone band
// straight back through the bone (T7's vastus medialis at the knee while
// running went 3.2 cm off the femur before the solve and 1.2 cm into it
// after, with no contact left to stop it). A capsule held so far away is
// the least urgent contact: a bone that comes within the band takes its
// slot before a muscle's.
TEST(ContactSearch, ACapsuleHeldAtTheSearchStaysWhenItsVertexIsFlungPastTheBand) {
    sim::World w = jitteredWorld();
    sim::ContactSearch search;
    search.prepare(w);
    search.findContacts(w, kSearch, kMuscleDepth);
    const float bone_band = 3.0f * kSearch;  // docs/model.md §3.6
    auto contactsOf = [&](uint32_t i) {
        std::vector<sim::Contact> out;
        for (const sim::Contact& c : w.contacts)
            if (c.particle == i) out.push_back(c);
        return out;
    };
    // Vertices holding the capsule (body 1) and at least one other contact.
    std::vector<uint32_t> flung;
    for (uint32_t i = 0; i < w.particles.size() && flung.size() < 20; ++i) {
        const auto cs = contactsOf(i);
        bool capsule = false;
        for (const auto& c : cs) capsule = capsule || c.capsule_body == 1;
        if (capsule && cs.size() >= 2) flung.push_back(i);
    }
    ASSERT_GE(flung.size(), 5u);
    std::vector<std::vector<sim::Contact>> before;
    for (uint32_t i : flung) {
        before.push_back(contactsOf(i));
        // 2 cm past the bone band, straight away from the capsule's axis.
        const sim::ClosestPoint q = sim::closestOnBodyCapsule(w.particles.p[i], w.bodies[1]);
        w.particles.p[i] = q.point + (bone_band + 0.02f) * q.normal;
    }
    search.refresh(w);
    for (size_t k = 0; k < flung.size(); ++k) {
        const auto after = contactsOf(flung[k]);
        bool capsule = false;
        for (const auto& c : after) capsule = capsule || c.capsule_body == 1;
        EXPECT_TRUE(capsule) << "particle " << flung[k] << " lost its bone capsule";
        EXPECT_EQ(after.size(), before[k].size()) << "particle " << flung[k] << " lost a contact";
    }
}

// A vertex holding two muscles and a capsule (its three slots full) flung
// past that capsule's band to within the band of a second capsule: the far
// capsule gives its slot to the near one; the muscles' planes stay.
TEST(ContactSearch, AFarHeldCapsuleGivesWayToABoneWithinTheBand) {
    sim::SceneDesc s = packedScene();
    s.bodies.push_back(capsuleBone("second capsule", {0.2f, -0.03f, 0.0f}, {0.2f, 0.03f, 0.0f}, 0.005f));
    for (auto& m : s.muscles) m.contact_targets.push_back({sim::TargetDesc::Kind::Body, 2});
    sim::World w = jitteredWorld(s);
    sim::ContactSearch search;
    search.prepare(w);
    search.findContacts(w, kSearch, kMuscleDepth);
    auto kinds = [&](uint32_t i, int& tissue, bool& first, bool& second) {
        tissue = 0, first = second = false;
        for (const sim::Contact& c : w.contacts) {
            if (c.particle != i) continue;
            tissue += c.tissue != 0;
            first = first || c.capsule_body == 1;
            second = second || c.capsule_body == 2;
        }
    };
    size_t checked = 0;
    std::vector<uint32_t> full;
    for (uint32_t i = 0; i < w.particles.size(); ++i) {
        int tissue;
        bool first, second;
        kinds(i, tissue, first, second);
        if (tissue == 2 && first) full.push_back(i);
    }
    ASSERT_GE(full.size(), 3u) << "the packed scene must hold vertices with two muscles and the capsule";
    for (uint32_t i : full) w.particles.p[i] = glm::vec3(0.2f + 0.005f + 0.003f, 0.0f, 0.0f);  // 3 mm off the second
    search.refresh(w);
    for (uint32_t i : full) {
        int tissue;
        bool first, second;
        kinds(i, tissue, first, second);
        EXPECT_TRUE(second) << "particle " << i << ": the capsule within the band was refused";
        EXPECT_FALSE(first) << "particle " << i;
        EXPECT_EQ(tissue, 2) << "particle " << i << ": a muscle's plane gave way to a far bone";
        ++checked;
    }
    EXPECT_EQ(checked, full.size());
}

}  // namespace

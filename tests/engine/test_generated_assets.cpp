// The committed scenes (assets/scenes): they load, their muscles are closed
// manifolds with positive volume, the counts match docs/anatomy.md, attachments
// and targets are valid, and regenerating them gives the same bytes.
#include <algorithm>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "engine/load_scene.h"
#include "engine/scene/scene.h"
#include "engine/anatomy/scene_generator.h"
#include "gltf_test_util.h"
#include "sim/envelope.h"
#include "sim/mesh_topology.h"
#include "sim/world.h"

using namespace engine;
namespace fs = std::filesystem;

namespace {

fs::path assetDir() { return fs::path(MSXPBD_SOURCE_DIR) / "assets" / "scenes"; }

std::map<std::string, fs::path> committed() {
    std::map<std::string, fs::path> out;
    if (!fs::exists(assetDir())) return out;
    for (const auto& e : fs::directory_iterator(assetDir()))
        if (e.path().extension() == ".glb") out[e.path().filename().string().substr(0, 2)] = e.path();
    return out;
}

size_t heads(const Scene& s) {
    size_t n = 0;
    for (const auto& m : s.desc.muscles) n += m.origin_sets.size();
    return n;
}

}  // namespace

TEST(GeneratedAssets, EveryIdIsCommitted) {
    auto files = committed();
    for (const std::string& id : generatedSceneIds()) {
        ASSERT_TRUE(files.count(id)) << id << " missing in " << assetDir();
        EXPECT_EQ(files[id].filename().string().rfind(id + "-", 0), 0u) << files[id];
    }
}

TEST(GeneratedAssets, LoadAndEveryMuscleIsAClosedManifold) {
    for (const auto& [id, path] : committed()) {
        Scene s;
        ASSERT_EQ(loadScene(path.string(), s), "") << path;
        ASSERT_FALSE(s.desc.muscles.empty()) << id;
        EXPECT_FALSE(s.skeleton.joints.empty()) << id;
        EXPECT_FALSE(s.meshes.empty()) << id;  // the skinned bone mesh
        for (const sim::MuscleDesc& m : s.desc.muscles) {
            EXPECT_EQ(sim::checkClosedManifold(m.vertices, m.triangles), "") << id << " " << m.name;
            EXPECT_GT(sim::signedVolume(m.vertices, m.triangles), 0.0) << id << " " << m.name;
            EXPECT_FALSE(m.origin_sets.empty());
            EXPECT_EQ(m.insertion_sets.size(), 1u) << m.name;
            EXPECT_FALSE(m.attachments.empty()) << m.name;
            for (const auto& a : m.attachments) {
                EXPECT_LT(a.vertex, m.vertices.size());
                ASSERT_GE(a.body, 0);
                EXPECT_LT(size_t(a.body), s.desc.bodies.size());
            }
            for (const auto& t : m.contact_targets) {
                if (t.kind == sim::TargetDesc::Kind::Body)
                    EXPECT_LT(size_t(t.index), s.desc.bodies.size());
                else
                    EXPECT_LT(size_t(t.index), s.desc.muscles.size());
            }
        }
        EXPECT_EQ(s.body_joint.size(), s.desc.bodies.size());
        // Body transforms at rest equal the bodies' rest transforms.
        auto bt = s.bodyTransforms(-1, 0.0);
        for (size_t b = 0; b < bt.size(); ++b)
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r) EXPECT_NEAR(bt[b][c][r], s.desc.bodies[b].transform[c][r], 1e-5f);
    }
}

TEST(GeneratedAssets, CountsMatchAnatomy) {
    auto files = committed();
    for (const char* id : {"t5", "t6"}) {
        Scene s;
        ASSERT_EQ(loadScene(files[id].string(), s), "");
        // 23 muscles of docs/anatomy.md (17 of the arm, 6 of the forearm): the
        // biceps' two heads are one manifold with two origin sets (22 meshes).
        EXPECT_EQ(s.desc.muscles.size(), 22u) << id;
        EXPECT_EQ(heads(s), 23u) << id;
        EXPECT_TRUE(s.hasSensors()) << id;
        ASSERT_EQ(s.animations.size(), 1u);
        EXPECT_GT(s.duration(0), 3.0);
    }
    // T7: 86 leg, 46 arm and 24 trunk muscles (heads); the biceps are one
    // mesh each, so 154 meshes. Every trunk muscle of docs/anatomy.md is there.
    Scene t7;
    ASSERT_EQ(loadScene(files["t7"].string(), t7), "");
    EXPECT_EQ(heads(t7), 156u);
    EXPECT_EQ(t7.desc.muscles.size(), 154u);
    for (const char* trunk : {"rect_abd", "ext_oblique", "int_oblique", "transversus", "serratus_ant", "pec_major",
                              "lat_dorsi", "trapezius1", "trapezius2", "trapezius3", "erector_spinae",
                              "sternocleidomastoid"})
        for (const char* side : {"_r", "_l"}) {
            const std::string name = std::string(trunk) + side;
            EXPECT_TRUE(std::any_of(t7.desc.muscles.begin(), t7.desc.muscles.end(),
                                    [&](const sim::MuscleDesc& m) { return m.name == name; }))
                << name;
        }
    Scene t2;
    ASSERT_EQ(loadScene(files["t2"].string(), t2), "");
    ASSERT_EQ(t2.desc.muscles.size(), 1u);
    EXPECT_EQ(t2.desc.muscles[0].origin_sets.size(), 2u);  // two-headed, one manifold
}

TEST(GeneratedAssets, BicepsSensorRisesWithElbowFlexion) {
    Scene s;
    ASSERT_EQ(loadScene(committed()["t5"].string(), s), "");
    size_t b = 0;
    while (b < s.desc.muscles.size() && s.desc.muscles[b].name != "biceps_r") ++b;
    ASSERT_LT(b, s.desc.muscles.size());
    float a0 = *s.sensorActivation(b, 0, 0.0), a1 = *s.sensorActivation(b, 0, 1.0), a2 = *s.sensorActivation(b, 0, 2.0);
    EXPECT_NEAR(a0, 0.0f, 1e-6f);
    EXPECT_GT(a1, a0);
    EXPECT_GT(a2, a1);
}

TEST(GeneratedAssets, AnimatedBonesCarryTheirAttachments) {
    // At mid-flexion the ulna body moves; its attached biceps/brachialis
    // vertices' targets move with it (target = T(t)·T(rest)⁻¹·rest).
    Scene s;
    ASSERT_EQ(loadScene(committed()["t5"].string(), s), "");
    auto rest = s.bodyTransforms(0, 0.0);
    auto mid = s.bodyTransforms(0, 2.0);
    int ulna = -1;
    for (size_t i = 0; i < s.desc.bodies.size(); ++i)
        if (s.desc.bodies[i].name == "ulna_r") ulna = int(i);
    ASSERT_GE(ulna, 0);
    glm::vec3 tip = s.desc.bodies[size_t(ulna)].capsule_b;
    glm::vec3 p0 = glm::vec3(rest[size_t(ulna)] * glm::vec4(tip, 1)), p1 = glm::vec3(mid[size_t(ulna)] * glm::vec4(tip, 1));
    EXPECT_GT(p1.y - p0.y, 0.2f);  // forearm raised by ~130° of flexion
    EXPECT_GT(p1.z, p0.z);         // forward
}

// Each scene is generated once (`msxpbd gen` writes the same bytes: the
// smallest scene checks that); T7's generation alone takes about a minute.
TEST(GeneratedAssets, RegenerationIsByteIdentical) {
    auto dir = gltf_test::tempDir("regen");
    ASSERT_EQ(writeGeneratedScenes(dir.string()), "");
    auto files = committed();
    for (const std::string& id : generatedSceneIds()) {
        ASSERT_TRUE(files.count(id)) << id;
        const fs::path fresh_path = dir / files[id].filename();
        ASSERT_TRUE(fs::exists(fresh_path)) << fresh_path << " not written";
        EXPECT_TRUE(gltf_test::readFile(fresh_path) == gltf_test::readFile(files[id]))
            << files[id].filename() << " differs from the committed asset (run `msxpbd gen`)";
    }
    GeneratedScene t1;
    ASSERT_EQ(generateScene("t1", t1), "");
    EXPECT_TRUE(gltf_test::readFile(dir / t1.file) == t1.glb) << t1.file;
    fs::remove_all(dir);
}

// The arm's skin is the fascia envelope (docs/model.md §3.8), fitted so that
// no muscle starts outside it.
TEST(GeneratedAssets, TheArmSkinIsTheEnvelopeAndEveryMuscleStartsUnderIt) {
    for (const char* id : {"t5", "t6"}) {
        Scene s;
        ASSERT_EQ(loadScene(id, s), "") << id;
        ASSERT_GE(s.envelope_mesh, 0) << id;
        EXPECT_EQ(s.desc.envelope.name, "skin") << id;
        sim::World w;
        ASSERT_EQ(sim::buildWorld(s.desc, w), "") << id;
        const sim::EnvelopeOutside o = sim::measureOutside(w, w.particles.rest, w.envelope.rest);
        EXPECT_GT(o.vertices, 7000) << id;
        EXPECT_EQ(o.vertices_past_1mm, 0) << id << ": deepest " << o.deepest;
    }
}

// The body's skin is its envelope too, and says which bone carries each of
// its vertices, so a muscle is held only by its own limb's skin where the
// pieces cross (a hand's skin through the thigh's as the arm swings).
TEST(GeneratedAssets, TheBodySkinIsTheEnvelopeAndKnowsWhichBoneCarriesEachVertex) {
    Scene body;
    ASSERT_EQ(loadScene("t7", body), "");
    ASSERT_GE(body.envelope_mesh, 0);
    const sim::EnvelopeDesc& e = body.desc.envelope;
    ASSERT_EQ(e.vertex_body.size(), e.vertices.size());
    // The skin vertex nearest each wrist and each ankle is carried by that
    // limb's bones (the side's suffix), not the trunk's.
    for (const char* joint_name : {"hand_r", "hand_l", "foot_r", "foot_l"}) {
        const int j = body.skeleton.find(joint_name);
        ASSERT_GE(j, 0) << joint_name;
        std::vector<glm::mat4> globals;
        body.skeleton.globals(body.skeleton.restLocals(), globals);
        const glm::vec3 at(globals[size_t(j)][3]);
        size_t nearest = 0;
        for (size_t v = 1; v < e.vertices.size(); ++v)
            if (glm::length(e.vertices[v] - at) < glm::length(e.vertices[nearest] - at)) nearest = v;
        const int b = e.vertex_body[nearest];
        ASSERT_GE(b, 0) << joint_name;
        const std::string& name = body.desc.bodies[size_t(b)].name;
        const std::string side = std::string(joint_name).substr(std::string(joint_name).size() - 2);
        EXPECT_EQ(name.substr(name.size() - 2), side) << joint_name << " carried by " << name;
    }
}

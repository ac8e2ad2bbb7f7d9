// The glTF loader against hand-built files: skinning per the glTF formula,
// sparse / normalized / integer accessors, the msxpbd extras schema, and
// clean errors for bad input.
#include <cmath>

#include <gtest/gtest.h>
#include <array>
#include <algorithm>

#include "engine/gltf/gltf_loader.h"
#include "engine/load_scene.h"
#include "engine/scene/scene.h"
#include "gltf_test_util.h"

using namespace engine;
using gltf_test::Builder;
using gltf_test::json;

namespace {

// Two joints (J0 at the origin, J1 one metre up), one skinned triangle whose
// vertex 1 (bind position (1, 1, 0), weights 128/255 J0 + 127/255 J1) comes
// from a sparse accessor. The skinned node has its own translation (100, 0, 0),
// which glTF says to ignore. Animation: J0 moves to (0, 0, 2), J1 turns 90°
// about z.
Builder skinnedFile(bool inverse_bind) {
    Builder b;
    int pos_view = b.view(std::vector<float>{0, 0, 0, 5, 5, 5, 0, 1, 0});
    int pos = b.accessor(pos_view, 5126, 3, "VEC3");
    int sp_idx = b.view(std::vector<uint8_t>{1, 0, 0, 0});
    int sp_val = b.view(std::vector<float>{1, 1, 0});
    b.doc["accessors"][size_t(pos)]["sparse"] = {{"count", 1},
                                                 {"indices", {{"bufferView", sp_idx}, {"componentType", 5121}}},
                                                 {"values", {{"bufferView", sp_val}}}};
    b.doc["accessors"][size_t(pos)]["min"] = {0, 0, 0};
    b.doc["accessors"][size_t(pos)]["max"] = {1, 1, 0};
    int joints = b.accessor(b.view(std::vector<uint8_t>{0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}), 5121, 3, "VEC4");
    int weights = b.accessor(b.view(std::vector<uint8_t>{255, 0, 0, 0, 128, 127, 0, 0, 255, 0, 0, 0}), 5121, 3,
                             "VEC4", true);
    int idx = b.accessor(b.view(std::vector<uint16_t>{0, 1, 2, 0}), 5123, 3, "SCALAR");
    int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", pos}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}}},
                                         {"indices", idx}}}}});
    b.node({{"name", "J0"}, {"children", {1}}});
    b.node({{"name", "J1"}, {"translation", {0, 1, 0}}});
    b.node({{"name", "skinned"}, {"mesh", mesh}, {"skin", 0}, {"translation", {100, 0, 0}}});
    json skin = {{"joints", {0, 1}}};
    if (inverse_bind) {
        std::vector<float> ib(32, 0.0f);
        for (int k = 0; k < 2; ++k)
            for (int d = 0; d < 4; ++d) ib[size_t(16 * k + 5 * d)] = 1.0f;
        ib[16 + 13] = -1.0f;  // J1: translate(0, −1, 0), column-major
        skin["inverseBindMatrices"] = b.accessor(b.view(ib), 5126, 2, "MAT4");
    }
    b.doc["skins"] = json::array({skin});
    b.doc["scenes"] = json::array({{{"nodes", {0, 2}}}});
    b.doc["scene"] = 0;
    int t_in = b.floats({0.0f}, "SCALAR", 1);
    b.doc["accessors"][size_t(t_in)]["min"] = {0};
    b.doc["accessors"][size_t(t_in)]["max"] = {0};
    int t_out = b.floats({0, 0, 2}, "VEC3", 3);
    const float s = std::sqrt(0.5f);
    int r_out = b.floats({0, 0, s, s}, "VEC4", 4);
    b.doc["animations"] = json::array(
        {{{"name", "pose"},
          {"samplers", {{{"input", t_in}, {"output", t_out}}, {{"input", t_in}, {"output", r_out}, {"interpolation", "STEP"}}}},
          {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}},
                        {{"sampler", 1}, {"target", {{"node", 1}, {"path", "rotation"}}}}}}}});
    return b;
}

glm::vec3 skinnedVertex(const Scene& s, size_t v) {
    std::vector<glm::mat4> g;
    s.skeleton.globals(s.localPoses(0, 0.0), g);
    return posedPositions(s.meshes.at(0), g).at(v);
}

std::string loadBytes(const std::vector<uint8_t>& bytes, const std::string& name, Scene& s) {
    return loadGltfSceneFromMemory(bytes, name, ".", s);
}


using gltf_test::muscleFile;
using gltf_test::TetraMesh;

json goodExtras() {
    return {{"origins", {{0}}},
            {"insertions", {{"near", {0, 0, 1}}, {"radius", 0.01}}},
            {"origin_bone", "bone"},
            {"insertion_bone", "hand"},
            {"contacts", {"bone"}},
            {"initial_activation", 0.1},
            {"overpressure", 0.5},
            {"stiffness", {{"fiber", 2000.0}, {"volume", "inf"}}},
            {"sensors", {{{"joint", "bone"}, {"axis", {2, 0, 0}}, {"angle_gain", 1.5}}}}};
}

}  // namespace

TEST(GltfLoader, TwoJointSkinFollowsTheGltfFormula) {
    Scene s;
    ASSERT_EQ(loadBytes(skinnedFile(true).glb(), "skin.glb", s), "");
    ASSERT_EQ(s.meshes.size(), 1u);
    ASSERT_TRUE(s.meshes[0].skinned());
    // Sparse accessor applied: vertex 1 is (1, 1, 0), not (5, 5, 5).
    EXPECT_EQ(s.meshes[0].positions[1], glm::vec3(1, 1, 0));
    // J0·IB0·p = (1, 1, 2); J1·IB1·p = T(0,0,2)·T(0,1,0)·Rz90·T(0,−1,0)·p = (0, 2, 2).
    const float w0 = 128.0f / 255.0f, w1 = 127.0f / 255.0f;
    glm::vec3 expect = w0 * glm::vec3(1, 1, 2) + w1 * glm::vec3(0, 2, 2);
    glm::vec3 got = skinnedVertex(s, 1);
    EXPECT_NEAR(got.x, expect.x, 1e-5f);
    EXPECT_NEAR(got.y, expect.y, 1e-5f);
    EXPECT_NEAR(got.z, expect.z, 1e-5f);  // node translation (100, 0, 0) ignored
    // Rest pose (animation −1): vertex at its bind position.
    std::vector<glm::mat4> g;
    s.skeleton.globals(s.localPoses(-1, 0.0), g);
    glm::vec3 rest = posedPositions(s.meshes[0], g)[1];
    EXPECT_NEAR(glm::length(rest - glm::vec3(1, 1, 0)), 0.0f, 1e-5f);
}

TEST(GltfLoader, MissingInverseBindMatricesMeanIdentity) {
    Scene s;
    ASSERT_EQ(loadBytes(skinnedFile(false).glb(), "skin.glb", s), "");
    // J1 global = T(0,0,2)·T(0,1,0)·Rz90: (1,1,0) → (−1, 2, 2); J0 gives (1, 1, 2).
    const float w0 = 128.0f / 255.0f, w1 = 127.0f / 255.0f;
    glm::vec3 expect = w0 * glm::vec3(1, 1, 2) + w1 * glm::vec3(-1, 2, 2);
    glm::vec3 got = skinnedVertex(s, 1);
    EXPECT_NEAR(glm::length(got - expect), 0.0f, 1e-5f);
}

TEST(GltfLoader, GltfWithEmbeddedAndExternalBuffers) {
    auto dir = gltf_test::tempDir("loader");
    Builder b = skinnedFile(true);
    gltf_test::writeFile(dir / "embedded.gltf", b.gltf());
    gltf_test::writeFile(dir / "external.gltf", b.gltf("external.bin"));
    gltf_test::writeFile(dir / "external.bin", b.bin);
    for (const char* f : {"embedded.gltf", "external.gltf"}) {
        Scene s;
        ASSERT_EQ(loadScene((dir / f).string(), s), "") << f;
        EXPECT_EQ(s.source, (dir / f).string());
        EXPECT_EQ(s.skeleton.joints.size(), 3u);
        EXPECT_EQ(s.animations.size(), 1u);
        EXPECT_NEAR(glm::length(skinnedVertex(s, 0) - glm::vec3(0, 0, 2)), 0.0f, 1e-5f);
    }
    Scene s;
    std::string err = loadScene((dir / "missing.glb").string(), s);
    EXPECT_NE(err.find("missing.glb"), std::string::npos) << err;
    std::filesystem::remove_all(dir);
}

TEST(GltfLoader, MuscleExtrasFillTheSceneDesc) {
    Scene s;
    ASSERT_EQ(loadBytes(muscleFile(goodExtras()).glb(), "m.glb", s), "");
    ASSERT_EQ(s.desc.muscles.size(), 1u);
    const sim::MuscleDesc& m = s.desc.muscles[0];
    EXPECT_EQ(m.name, "muscle");
    ASSERT_EQ(m.vertices.size(), 4u);
    EXPECT_EQ(m.vertices[1], glm::vec3(1.5f, 0, 0));  // node translation applied (world rest)
    ASSERT_EQ(m.origin_sets.size(), 1u);
    EXPECT_EQ(m.origin_sets[0], std::vector<uint32_t>{0});
    ASSERT_EQ(m.insertion_sets.size(), 1u);
    EXPECT_EQ(m.insertion_sets[0], std::vector<uint32_t>{3});
    ASSERT_EQ(s.desc.bodies.size(), 2u);
    EXPECT_EQ(s.desc.bodies[0].name, "bone");
    EXPECT_FLOAT_EQ(s.desc.bodies[0].capsule_radius, 0.05f);
    EXPECT_EQ(s.desc.bodies[1].name, "hand");
    EXPECT_GT(s.desc.bodies[1].capsule_radius, 0.0f);  // default capsule
    ASSERT_EQ(m.attachments.size(), 2u);
    EXPECT_EQ(m.attachments[0].vertex, 0u);
    EXPECT_EQ(m.attachments[0].body, 0);
    EXPECT_EQ(m.attachments[1].vertex, 3u);
    EXPECT_EQ(m.attachments[1].body, 1);
    ASSERT_EQ(m.contact_targets.size(), 1u);
    EXPECT_EQ(m.contact_targets[0].kind, sim::TargetDesc::Kind::Body);
    EXPECT_FLOAT_EQ(m.initial_activation, 0.1f);
    EXPECT_FLOAT_EQ(m.overpressure, 0.5f);
    EXPECT_FLOAT_EQ(m.stiffness[sim::Family::Fiber], 2000.0f);
    EXPECT_TRUE(std::isinf(m.stiffness[sim::Family::Volume]));
    EXPECT_LT(m.stiffness[sim::Family::Contact], 0.0f);  // unset
    ASSERT_EQ(s.sensors.size(), 1u);
    ASSERT_EQ(s.sensors[0].sensors.size(), 1u);
    EXPECT_EQ(s.sensors[0].sensors[0].joint, s.skeleton.find("bone"));
    EXPECT_FLOAT_EQ(s.sensors[0].sensors[0].axis.x, 1.0f);
    ASSERT_EQ(s.desc.planes.size(), 1u);
    EXPECT_FLOAT_EQ(s.desc.planes[0].normal.y, 1.0f);
    // Body transforms follow their joints.
    auto bt = s.bodyTransforms(-1, 0.0);
    ASSERT_EQ(bt.size(), 2u);
    EXPECT_FLOAT_EQ(bt[0][3].y, 1.0f);
    EXPECT_FLOAT_EQ(bt[1][3].y, 0.0f);
}

TEST(GltfLoader, ExtrasAsAJsonStringAreAccepted) {
    Scene s;
    ASSERT_EQ(loadBytes(muscleFile(goodExtras().dump()).glb(), "m.glb", s), "");
    EXPECT_EQ(s.desc.muscles.size(), 1u);
}

TEST(GltfLoader, PlainFileWithoutMusclesLoadsAsRenderGeometry) {
    Builder b = muscleFile(goodExtras());
    b.doc["nodes"][2].erase("extras");
    Scene s;
    ASSERT_EQ(loadBytes(b.glb(), "plain.glb", s), "");
    EXPECT_TRUE(s.desc.muscles.empty());
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_FALSE(s.meshes[0].skinned());
    EXPECT_EQ(s.meshes[0].joint, s.skeleton.find("muscle"));
}

// Material alphaMode (docs/scene-format.md, "Translucent meshes"): BLEND
// keeps the base colour's alpha and marks the mesh translucent; OPAQUE
// ignores alpha; MASK keeps or cuts the whole mesh by alphaCutoff.
TEST(GltfLoader, MaterialAlphaModeAndAlphaAreRead) {
    struct Case {
        const char* mode;
        double alpha;
        double cutoff;  // < 0: not written (0.5)
        size_t meshes;
        bool blend;
        float read_alpha;
    };
    for (const Case& c : {Case{"BLEND", 0.3, -1, 1, true, 0.3f}, Case{"OPAQUE", 0.3, -1, 1, false, 1.0f},
                          Case{"MASK", 0.3, -1, 0, false, 1.0f}, Case{"MASK", 0.3, 0.2, 1, false, 1.0f},
                          Case{"MASK", 0.8, -1, 1, false, 1.0f}, Case{nullptr, 0.3, -1, 1, false, 1.0f}}) {
        Builder b = muscleFile(goodExtras());
        b.doc["nodes"][2].erase("extras");
        json mat = {{"pbrMetallicRoughness", {{"baseColorFactor", {0.9, 0.7, 0.6, c.alpha}}}}};
        if (c.mode) mat["alphaMode"] = c.mode;
        if (c.cutoff >= 0) mat["alphaCutoff"] = c.cutoff;
        b.doc["materials"] = json::array({mat});
        b.doc["meshes"][0]["primitives"][0]["material"] = 0;
        Scene s;
        const std::string what = std::string(c.mode ? c.mode : "(none)") + " alpha " + std::to_string(c.alpha);
        ASSERT_EQ(loadBytes(b.glb(), "alpha.glb", s), "") << what;
        ASSERT_EQ(s.meshes.size(), c.meshes) << what;
        if (c.meshes == 0) continue;
        EXPECT_EQ(s.meshes[0].blend, c.blend) << what;
        EXPECT_FLOAT_EQ(s.meshes[0].alpha, c.read_alpha) << what;
        EXPECT_NEAR(s.meshes[0].color.x, 0.9f, 1e-6f) << what;
    }
}

namespace {
std::string errorFor(const std::vector<uint8_t>& bytes, const std::string& name = "bad.glb") {
    Scene s;
    std::string e = loadBytes(bytes, name, s);
    EXPECT_TRUE(s.desc.muscles.empty());
    return e;
}
}  // namespace

TEST(GltfLoaderErrors, TruncatedAndWrongMagic) {
    auto good = muscleFile(goodExtras()).glb();
    auto trunc = good;
    trunc.resize(good.size() / 2);
    std::string e = errorFor(trunc);
    EXPECT_NE(e.find("bad.glb"), std::string::npos) << e;
    EXPECT_NE(e.find("truncated"), std::string::npos) << e;
    auto magic = good;
    magic[0] = 'X';
    e = errorFor(magic);
    EXPECT_NE(e.find("magic"), std::string::npos) << e;
    e = errorFor({});
    EXPECT_FALSE(e.empty());
}

TEST(GltfLoaderErrors, JsonSyntaxError) {
    std::string txt = muscleFile(goodExtras()).gltf();
    txt.insert(txt.size() / 2, "{,,");
    std::string e = errorFor(std::vector<uint8_t>(txt.begin(), txt.end()), "bad.gltf");
    EXPECT_NE(e.find("bad.gltf"), std::string::npos) << e;
    EXPECT_FALSE(e.empty());
}

TEST(GltfLoaderErrors, AccessorOutOfRange) {
    Builder b = muscleFile(goodExtras());
    b.doc["accessors"][0]["count"] = 1000;  // POSITION reads past its view
    std::string e = errorFor(b.glb());
    EXPECT_NE(e.find("accessor 0"), std::string::npos) << e;
    EXPECT_NE(e.find("out of range"), std::string::npos) << e;
    EXPECT_NE(e.find("'muscle'"), std::string::npos) << e;
    Builder c = muscleFile(goodExtras());
    c.doc["meshes"][0]["primitives"][0]["indices"] = 42;
    e = errorFor(c.glb());
    EXPECT_NE(e.find("accessor"), std::string::npos) << e;  // tinygltf or our check names it
    EXPECT_NE(e.find("out of"), std::string::npos) << e;
    Builder d = muscleFile(goodExtras());
    d.doc["bufferViews"][0]["byteOffset"] = 100000;
    e = errorFor(d.glb());
    EXPECT_FALSE(e.empty());
}

TEST(GltfLoaderErrors, MuscleMeshNotClosed) {
    std::string e = errorFor(muscleFile(goodExtras(), TetraMesh::Open).glb());
    EXPECT_NE(e.find("node 2 'muscle'"), std::string::npos) << e;
    EXPECT_NE(e.find("closed"), std::string::npos) << e;
}

TEST(GltfLoaderErrors, ExtrasWithWrongTypes) {
    struct Case {
        const char* key;
        json value;
        const char* expect;
    };
    std::vector<Case> cases = {
        {"initial_activation", "high", "'initial_activation' must be a number"},
        {"initial_activation", 2.0, "[0, 0.95]"},
        {"origins", 7, "'origins'"},
        {"origins", json::array({json::array({99})}), "out of range"},
        {"origin_bone", 3.5, "'origin_bone'"},
        {"origin_bone", "nobody", "no node named 'nobody'"},
        {"contacts", "bone", "'contacts' must be an array"},
        {"stiffness", {{"fibre", 1.0}}, "unknown family"},
        {"sensors", {{{"axis", {1, 0, 0}}}}, "'joint'"},
        {"overpressure", json::array({1}), "'overpressure' must be a number"},
    };
    for (const Case& c : cases) {
        json x = goodExtras();
        x[c.key] = c.value;
        std::string e = errorFor(muscleFile(x).glb());
        EXPECT_NE(e.find(c.expect), std::string::npos) << c.key << ": " << e;
        EXPECT_NE(e.find("'muscle'"), std::string::npos) << c.key << ": " << e;
    }
    std::string e = errorFor(muscleFile(json::array({1, 2})).glb());
    EXPECT_NE(e.find("must be an object"), std::string::npos) << e;
}

TEST(GltfLoader, SceneGravityScaleIsReadAndRangeChecked) {
    Builder b = muscleFile(goodExtras());
    b.doc["scenes"][0]["extras"]["msxpbd_scene"]["gravity_scale"] = 0.25;
    Scene s;
    ASSERT_EQ(loadBytes(b.glb(), "g.glb", s), "");
    EXPECT_FLOAT_EQ(s.desc.gravity_scale, 0.25f);
    for (json bad : {json(-1.0), json(11.0), json("heavy")}) {
        b.doc["scenes"][0]["extras"]["msxpbd_scene"]["gravity_scale"] = bad;
        std::string e = errorFor(b.glb());
        EXPECT_NE(e.find("gravity_scale"), std::string::npos) << bad << ": " << e;
    }
}

// A scene may ask for its own solver settings (T6: 2 substeps, carry 1);
// absent means no preference, out of range is refused by name.
TEST(GltfLoader, SceneSolverSettingsAreReadAndRangeChecked) {
    Builder b = muscleFile(goodExtras());
    Scene plain;
    ASSERT_EQ(loadBytes(b.glb(), "s.glb", plain), "");
    EXPECT_EQ(plain.solver.substeps, 0);
    EXPECT_LT(plain.solver.carry, 0.0f);
    b.doc["scenes"][0]["extras"]["msxpbd_scene"]["substeps"] = 3;
    b.doc["scenes"][0]["extras"]["msxpbd_scene"]["carry"] = 0.5;
    Scene s;
    ASSERT_EQ(loadBytes(b.glb(), "s.glb", s), "");
    EXPECT_EQ(s.solver.substeps, 3);
    EXPECT_FLOAT_EQ(s.solver.carry, 0.5f);
    for (json bad : {json(0), json(101), json(1.5), json("two")}) {
        b.doc["scenes"][0]["extras"]["msxpbd_scene"]["substeps"] = bad;
        std::string e = errorFor(b.glb());
        EXPECT_NE(e.find("substeps"), std::string::npos) << bad << ": " << e;
    }
    b.doc["scenes"][0]["extras"]["msxpbd_scene"]["substeps"] = 2;
    for (json bad : {json(-0.1), json(1.01), json("all")}) {
        b.doc["scenes"][0]["extras"]["msxpbd_scene"]["carry"] = bad;
        std::string e = errorFor(b.glb());
        EXPECT_NE(e.find("carry"), std::string::npos) << bad << ": " << e;
    }
}

namespace {
// The tetrahedron muscle as an editor writes it back: every face corner its
// own vertex (flat shading splits them) and the vertices in another order.
gltf_test::Builder editedMuscleFile(json extras) {
    std::vector<float> p;
    std::vector<uint16_t> idx;
    gltf_test::tetra(p, idx);
    std::vector<float> split;
    std::vector<uint16_t> order;
    for (size_t c = idx.size(); c-- > 0;) {  // corners in reverse
        const uint16_t v = idx[c];
        split.insert(split.end(), {p[3 * v], p[3 * v + 1], p[3 * v + 2]});
    }
    // Triangles over the reversed corners, winding kept.
    const uint16_t n = uint16_t(idx.size());
    for (uint16_t t = 0; t < n; t += 3) order.insert(order.end(), {uint16_t(n - 1 - t), uint16_t(n - 2 - t), uint16_t(n - 3 - t)});
    gltf_test::Builder b;
    int pos = b.floats(split, "VEC3", 3);
    int ind = b.accessor(b.view(order), 5123, order.size(), "SCALAR");
    int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", pos}}}, {"indices", ind}}}}});
    b.node({{"name", "bone"}, {"translation", {0, 1, 0}}, {"children", {1}}});
    b.node({{"name", "hand"}, {"translation", {0, -1, 0}}});
    b.node({{"name", "muscle"}, {"mesh", mesh}, {"translation", {0.5, 0, 0}}, {"extras", {{"msxpbd_muscle", extras}}}});
    b.doc["scenes"] = json::array({{{"nodes", {0, 2}}}});
    return b;
}
}  // namespace

// Vertex sets given by rest positions (what `msxpbd gen` writes) select the
// same vertices after an editor splits and reorders them; the index form
// selects other vertices there (the failure the points form exists for).
TEST(GltfLoader, PointVertexSetsSurviveAnEditorRoundTrip) {
    json extras = goodExtras();
    extras["origins"] = {{{"points", {{0, 0, 0}}}}};
    extras["insertions"] = {{{"points", {{0, 0, 1}, {0, 1, 0}}}}};
    Scene orig, edited;
    ASSERT_EQ(loadBytes(muscleFile(extras).glb(), "m.glb", orig), "");
    ASSERT_EQ(loadBytes(editedMuscleFile(extras).glb(), "edited.glb", edited), "");
    auto positions = [](const sim::MuscleDesc& m, const std::vector<uint32_t>& set) {
        std::vector<std::array<float, 3>> out;
        for (uint32_t i : set) out.push_back({m.vertices[i].x, m.vertices[i].y, m.vertices[i].z});
        std::sort(out.begin(), out.end());
        return out;
    };
    const sim::MuscleDesc &a = orig.desc.muscles.at(0), &b = edited.desc.muscles.at(0);
    ASSERT_EQ(b.vertices.size(), 4u) << "the split corners weld back to four vertices";
    EXPECT_EQ(positions(a, a.origin_sets.at(0)), positions(b, b.origin_sets.at(0)));
    EXPECT_EQ(positions(a, a.insertion_sets.at(0)), positions(b, b.insertion_sets.at(0)));
    EXPECT_EQ(positions(b, b.insertion_sets.at(0)).size(), 2u);

    // A point on no vertex is refused, naming the set and the distance.
    extras["origins"] = {{{"points", {{0.2, 0, 0}}}}};
    Scene bad;
    const std::string e = loadBytes(muscleFile(extras).glb(), "m.glb", bad);
    EXPECT_NE(e.find("'origins'[0] 'points'[0] matches no vertex"), std::string::npos) << e;
    EXPECT_NE(e.find("200"), std::string::npos) << "the nearest vertex is 200 mm away: " << e;
}

// Any glTF character drawn as its author made it (issue 14): morph targets
// (default, node and animated weights), any number of JOINTS_n/WEIGHTS_n
// sets, one material per primitive, base colour textures, strips and fans,
// and a clear word for what is skipped. Small files written here.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "engine/gltf/gltf_loader.h"
#include "engine/scene/scene.h"
#include "gltf_test_util.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

using namespace engine;
using gltf_test::Builder;
using gltf_test::json;

namespace {

std::string load(const Builder& b, Scene& s, const std::string& name = "character.glb") {
    return loadGltfSceneFromMemory(b.glb(), name, ".", s);
}

std::vector<glm::vec3> posed(const Scene& s, size_t mesh, int animation, double t) {
    std::vector<glm::mat4> g;
    s.skeleton.globals(s.localPoses(animation, t), g);
    std::vector<float> w;
    s.morphWeights(animation, t, w);
    size_t first = 0;
    for (size_t i = 0; i < mesh; ++i) first += s.meshes[i].morph_targets.size();
    const size_t n = s.meshes[mesh].morph_targets.size();
    return posedPositions(s.meshes[mesh], g, n ? std::span<const float>(w).subspan(first, n) : std::span<const float>());
}

bool hasWarning(const Scene& s, const std::string& part) {
    return std::any_of(s.warnings.begin(), s.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

// A triangle (0,0,0), (1,0,0), (0,1,0) with one morph target moving vertex 0
// by (0, 0, 0.5) and vertex 2 by (0.25, 0, 0); `mesh_weight` as the mesh's
// default weight, `node_weight` (when ≥ 0) as the node's.
Builder morphFile(float mesh_weight, float node_weight = -1.0f) {
    Builder b;
    int pos = b.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
    b.doc["accessors"][size_t(pos)]["min"] = {0, 0, 0};
    b.doc["accessors"][size_t(pos)]["max"] = {1, 1, 0};
    int target = b.floats({0, 0, 0.5f, 0, 0, 0, 0.25f, 0, 0}, "VEC3", 3);
    b.doc["accessors"][size_t(target)]["min"] = {0, 0, 0};
    b.doc["accessors"][size_t(target)]["max"] = {0.25, 0, 0.5};
    int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", pos}}}, {"targets", {{{"POSITION", target}}}}}}},
                       {"weights", {mesh_weight}}});
    json n = {{"name", "face"}, {"mesh", mesh}};
    if (node_weight >= 0.0f) n["weights"] = {node_weight};
    b.node(n);
    return b;
}

TEST(GltfCharacters, AMorphTargetAtWeightOneMovesTheVerticesByItsOffsets) {
    Scene s;
    ASSERT_EQ(load(morphFile(1.0f), s), "");
    ASSERT_EQ(s.meshes.size(), 1u);
    ASSERT_EQ(s.meshes[0].morph_targets.size(), 1u);
    const std::vector<glm::vec3> p = posed(s, 0, -1, 0.0);
    EXPECT_EQ(p[0], glm::vec3(0, 0, 0.5f));
    EXPECT_EQ(p[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(p[2], glm::vec3(0.25f, 1, 0));
    // Half a weight: half the offset; the node's weights win over the mesh's.
    ASSERT_EQ(load(morphFile(1.0f, 0.5f), s), "");
    EXPECT_EQ(posed(s, 0, -1, 0.0)[0], glm::vec3(0, 0, 0.25f));
    ASSERT_EQ(load(morphFile(0.0f), s), "");
    EXPECT_EQ(posed(s, 0, -1, 0.0)[0], glm::vec3(0, 0, 0));
}

// An animation that drives only the weights: 0 at t = 0, 1 at t = 2 s.
TEST(GltfCharacters, AnAnimatedWeightChangesTheBoundsOverTimeAndEndsTheClip) {
    Builder b = morphFile(0.0f);
    int t_in = b.floats({0.0f, 2.0f}, "SCALAR", 1);
    b.doc["accessors"][size_t(t_in)]["min"] = {0};
    b.doc["accessors"][size_t(t_in)]["max"] = {2};
    int w_out = b.floats({0.0f, 1.0f}, "SCALAR", 1);
    b.doc["animations"] = json::array({{{"name", "smile"},
                                        {"samplers", {{{"input", t_in}, {"output", w_out}}}},
                                        {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}}}});
    Scene s;
    ASSERT_EQ(load(b, s), "");
    ASSERT_EQ(s.animations.size(), 1u);
    // The clip lasts as long as its weight keys: the clock loops there.
    EXPECT_DOUBLE_EQ(s.duration(0), 2.0);
    auto maxZ = [&](double t) {
        float z = -1e30f;
        for (const glm::vec3& p : posed(s, 0, 0, t)) z = std::max(z, p.z);
        return z;
    };
    EXPECT_FLOAT_EQ(maxZ(0.0), 0.0f);
    EXPECT_FLOAT_EQ(maxZ(1.0), 0.25f);
    EXPECT_FLOAT_EQ(maxZ(2.0), 0.5f);
    // A channel on weights of a node without morph targets is reported.
    b.doc["animations"][0]["channels"][0]["target"]["node"] = b.node({{"name", "empty"}});
    ASSERT_EQ(load(b, s), "");
    EXPECT_TRUE(hasWarning(s, "no morph targets")) << (s.warnings.empty() ? "" : s.warnings[0]);
}

// Eight joints, each turned about z by 10° · k and moved to (k, 2k, 0); a
// vertex influenced by all eight (JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1)
// lands at Σ w_k · M_k · p (identity inverse binds), computed here
// independently. A second vertex whose weights sum to 0.5 lands where the
// renormalised weights put it.
TEST(GltfCharacters, AVertexInfluencedByEightJointsLandsWhereTheGltfFormulaSays) {
    Builder b;
    const glm::vec3 p0(0.3f, -0.2f, 0.1f), p1(-0.5f, 0.4f, 0.2f), p2(0.1f, 0.1f, 0.1f);
    int pos = b.floats({p0.x, p0.y, p0.z, p1.x, p1.y, p1.z, p2.x, p2.y, p2.z}, "VEC3", 3);
    b.doc["accessors"][size_t(pos)]["min"] = {-0.5, -0.2, 0.1};
    b.doc["accessors"][size_t(pos)]["max"] = {0.3, 0.4, 0.2};
    const std::vector<float> w0 = {0.05f, 0.1f, 0.15f, 0.2f}, w1 = {0.1f, 0.15f, 0.2f, 0.05f};
    int j0 = b.accessor(b.view(std::vector<uint8_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 0, 0}), 5121, 3, "VEC4");
    int j1 = b.accessor(b.view(std::vector<uint8_t>{4, 5, 6, 7, 4, 5, 6, 7, 0, 0, 0, 0}), 5121, 3, "VEC4");
    std::vector<float> wa, wb;
    for (int v = 0; v < 2; ++v)
        for (int k = 0; k < 4; ++k) {
            wa.push_back(v == 0 ? w0[size_t(k)] : 0.5f * w0[size_t(k)]);
            wb.push_back(v == 0 ? w1[size_t(k)] : 0.5f * w1[size_t(k)]);
        }
    wa.insert(wa.end(), {1, 0, 0, 0});
    wb.insert(wb.end(), {0, 0, 0, 0});
    int wa_acc = b.floats(wa, "VEC4", 4);
    int wb_acc = b.floats(wb, "VEC4", 4);
    int mesh = b.mesh({{"primitives",
                        {{{"attributes",
                           {{"POSITION", pos}, {"JOINTS_0", j0}, {"WEIGHTS_0", wa_acc}, {"JOINTS_1", j1}, {"WEIGHTS_1", wb_acc}}}}}}});
    std::vector<int> joints;
    std::vector<glm::mat4> M;
    for (int k = 0; k < 8; ++k) {
        const float a = glm::radians(10.0f * float(k));
        const glm::quat q = glm::angleAxis(a, glm::vec3(0, 0, 1));
        std::string name = "J";
        name += std::to_string(k);
        joints.push_back(b.node({{"name", name},
                                 {"translation", {k, 2 * k, 0}},
                                 {"rotation", {q.x, q.y, q.z, q.w}}}));
        M.push_back(composeTRS(glm::vec3(float(k), float(2 * k), 0.0f), q, glm::vec3(1.0f)));
    }
    b.node({{"name", "body"}, {"mesh", mesh}, {"skin", 0}});
    b.doc["skins"] = json::array({{{"joints", joints}}});
    Scene s;
    ASSERT_EQ(load(b, s), "");
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].influence_sets, 2);
    const std::vector<glm::vec3> got = posed(s, 0, -1, 0.0);
    auto expected = [&](glm::vec3 p) {
        glm::dvec3 x(0.0);
        for (int k = 0; k < 8; ++k) {
            const double w = k < 4 ? w0[size_t(k)] : w1[size_t(k - 4)];
            x += w * glm::dvec3(M[size_t(k)] * glm::vec4(p, 1.0f));
        }
        return glm::vec3(x);
    };
    const glm::vec3 e0 = expected(p0), e1 = expected(p1);
    for (int c = 0; c < 3; ++c) {
        EXPECT_NEAR(got[0][c], e0[c], 1e-5f) << c;
        EXPECT_NEAR(got[1][c], e1[c], 1e-5f) << c;
    }
    // With only the first set (the old loader) the vertex would have lain
    // at half the weight: far from here.
    EXPECT_GT(glm::length(e0), 1.0f);
}

// One mesh, two primitives with their own materials: red and blue.
TEST(GltfCharacters, TwoPrimitivesKeepTheirColours) {
    Builder b;
    int pa = b.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
    int pb = b.floats({2, 0, 0, 3, 0, 0, 2, 1, 0}, "VEC3", 3);
    for (int a : {pa, pb}) {
        b.doc["accessors"][size_t(a)]["min"] = {a == pa ? 0 : 2, 0, 0};
        b.doc["accessors"][size_t(a)]["max"] = {a == pa ? 1 : 3, 1, 0};
    }
    b.doc["materials"] = json::array({{{"pbrMetallicRoughness", {{"baseColorFactor", {0.9, 0.1, 0.1, 1}}}}},
                                      {{"pbrMetallicRoughness", {{"baseColorFactor", {0.1, 0.2, 0.9, 1}}}}}});
    int mesh = b.mesh({{"primitives",
                        {{{"attributes", {{"POSITION", pa}}}, {"material", 0}}, {{"attributes", {{"POSITION", pb}}}, {"material", 1}}}}});
    b.node({{"name", "two"}, {"mesh", mesh}});
    Scene s;
    ASSERT_EQ(load(b, s), "");
    ASSERT_EQ(s.meshes.size(), 2u);
    EXPECT_EQ(s.meshes[0].color, glm::vec3(0.9f, 0.1f, 0.1f));
    EXPECT_EQ(s.meshes[1].color, glm::vec3(0.1f, 0.2f, 0.9f));
    EXPECT_EQ(s.meshes[1].positions[0], glm::vec3(2, 0, 0));
}

// Strips and fans become the triangles glTF 2.0 (3.7.2.1) lists; points and
// lines are skipped with a word.
TEST(GltfCharacters, StripsAndFansGiveTheRightTrianglesAndLinesAreReported) {
    Builder b;
    int pos = b.floats({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 0, 0}, "VEC3", 3);
    b.doc["accessors"][size_t(pos)]["min"] = {0, 0, 0};
    b.doc["accessors"][size_t(pos)]["max"] = {2, 1, 0};
    int strip_idx = b.accessor(b.view(std::vector<uint16_t>{0, 1, 2, 3, 4, 0}), 5123, 5, "SCALAR");
    int mesh = b.mesh({{"primitives",
                        {{{"attributes", {{"POSITION", pos}}}, {"indices", strip_idx}, {"mode", 5}},
                         {{"attributes", {{"POSITION", pos}}}, {"mode", 6}},
                         {{"attributes", {{"POSITION", pos}}}, {"mode", 1}}}}});
    b.node({{"name", "shapes"}, {"mesh", mesh}});
    Scene s;
    ASSERT_EQ(load(b, s), "");
    ASSERT_EQ(s.meshes.size(), 2u);
    // Strip 0 1 2 3 4: (0 1 2), (1 3 2), (2 3 4).
    EXPECT_EQ(s.meshes[0].indices, (std::vector<uint32_t>{0, 1, 2, 1, 3, 2, 2, 3, 4}));
    // Fan over the 5 vertices: (1 2 0), (2 3 0), (3 4 0).
    EXPECT_EQ(s.meshes[1].indices, (std::vector<uint32_t>{1, 2, 0, 2, 3, 0, 3, 4, 0}));
    EXPECT_TRUE(hasWarning(s, "primitive 2: mode LINES is skipped")) << (s.warnings.empty() ? "" : s.warnings[0]);
}

// A 2 × 2 PNG: red, green / blue, white (top row first).
std::vector<uint8_t> checkerPng() {
    const uint8_t px[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    int len = 0;
    unsigned char* png = stbi_write_png_to_mem(px, 8, 2, 2, 4, &len);
    std::vector<uint8_t> out(png, png + len);
    STBIW_FREE(png);
    return out;
}

using gltf_test::texturedQuad;

TEST(GltfCharacters, BaseColourTexturesAreDecodedFromEveryKindOfSource) {
    const std::vector<uint8_t> png = checkerPng();
    const auto dir = gltf_test::tempDir("textures");
    gltf_test::writeFile(dir / "checker.png", png);
    for (const std::string source : {"bufferView", "data", "checker.png"}) {
        Scene s;
        std::string e;
        if (source == "checker.png") {
            gltf_test::writeFile(dir / "quad.gltf", texturedQuad(source, png).gltf());
            e = loadGltfScene((dir / "quad.gltf").string(), s);
        } else {
            e = load(texturedQuad(source, png), s);
        }
        ASSERT_EQ(e, "") << source;
        ASSERT_EQ(s.textures.size(), 1u) << source;
        ASSERT_EQ(s.meshes.size(), 1u) << source;
        EXPECT_EQ(s.meshes[0].texture, 0) << source;
        ASSERT_EQ(s.meshes[0].uvs.size(), 4u) << source;
        EXPECT_EQ(s.meshes[0].uvs[2], glm::vec2(1, 0)) << source;
        const Texture& t = s.textures[0];
        EXPECT_EQ(t.width, 2);
        EXPECT_EQ(t.height, 2);
        EXPECT_EQ(t.mag_filter, 9728);
        EXPECT_EQ(t.wrap_s, 33071);
        // Top-left red, top-right green, bottom-left blue.
        EXPECT_EQ((std::vector<uint8_t>(t.rgba.begin(), t.rgba.begin() + 12)),
                  (std::vector<uint8_t>{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255}))
            << source;
    }
    // An image that is not a PNG/JPEG, or outside the folder: drawn without
    // it, with a warning naming the texture.
    Scene s;
    ASSERT_EQ(load(texturedQuad("bufferView", std::vector<uint8_t>(64, 7)), s), "");
    EXPECT_EQ(s.meshes.at(0).texture, -1);
    EXPECT_TRUE(hasWarning(s, "texture 0")) << (s.warnings.empty() ? "" : s.warnings[0]);
    gltf_test::writeFile(dir / "escape.gltf", texturedQuad("../checker.png", png).gltf());
    ASSERT_EQ(loadGltfScene((dir / "escape.gltf").string(), s), "");
    EXPECT_EQ(s.meshes.at(0).texture, -1);
    EXPECT_TRUE(hasWarning(s, "inside the scene's folder")) << (s.warnings.empty() ? "" : s.warnings[0]);
    std::filesystem::remove_all(dir);
}

TEST(GltfCharacters, KhrTextureTransformMovesTheCoordinates) {
    Builder b = texturedQuad("bufferView", checkerPng());
    b.doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"] = {
        {"KHR_texture_transform", {{"offset", {0.5, 0.25}}, {"scale", {2, 3}}}}};
    b.doc["extensionsUsed"] = {"KHR_texture_transform"};
    Scene s;
    ASSERT_EQ(load(b, s), "");
    ASSERT_EQ(s.meshes.at(0).uvs.size(), 4u);
    // (1, 1) → (2·1 + 0.5, 3·1 + 0.25).
    EXPECT_EQ(s.meshes[0].uvs[1], glm::vec2(2.5f, 3.25f));
}

// Authoring mistakes get a word (issue 14, Blender): properties that did
// not export, a skinned muscle, a bone without a shape.
TEST(GltfCharacters, AuthoringMistakesAreReported) {
    Scene s;
    // Meshes but no muscle property anywhere: 0 muscles, said.
    ASSERT_EQ(load(morphFile(0.0f), s), "");
    EXPECT_TRUE(s.desc.muscles.empty());
    EXPECT_TRUE(hasWarning(s, "0 muscles: no node has extras.msxpbd_muscle")) << (s.warnings.empty() ? "" : s.warnings[0]);
    // The property on the mesh (Blender's Mesh data properties), not the node.
    Builder onMesh = morphFile(0.0f);
    onMesh.doc["meshes"][0]["extras"] = {{"msxpbd_muscle", {{"origins", {0}}}}};
    ASSERT_EQ(load(onMesh, s), "");
    EXPECT_TRUE(hasWarning(s, "mesh 0 carries 'msxpbd_muscle'")) << (s.warnings.empty() ? "" : s.warnings[0]);

    const json extras = {{"origins", {0}}, {"insertions", {3}}, {"origin_bone", "bone"}, {"insertion_bone", "hand"}};
    // A skinned muscle (Armature Deform): named as such.
    Builder skinned = gltf_test::muscleFile(extras);
    skinned.doc["nodes"][2]["skin"] = 0;
    skinned.doc["skins"] = json::array({{{"joints", {0}}}});
    const std::string e = load(skinned, s);
    EXPECT_NE(e.find("node 2 'muscle': muscle is skinned"), std::string::npos) << e;
    // Bones without a shape: what they collide as, said. "hand" has no
    // child: a 2 cm sphere; "bone" (capsule removed) reaches its child
    // 1 m away: a capsule of radius 12 cm.
    Builder bare = gltf_test::muscleFile(extras);
    bare.doc["nodes"][0].erase("extras");
    ASSERT_EQ(load(bare, s), "");
    EXPECT_TRUE(hasWarning(s, "node 1 'hand': no shape")) << (s.warnings.empty() ? "" : s.warnings[0]);
    EXPECT_TRUE(hasWarning(s, "a 2 cm sphere"));
    EXPECT_TRUE(hasWarning(s, "node 0 'bone': no shape (extras.msxpbd_body.capsule or an unskinned mesh): collides as a "
                              "capsule to its first child, radius 0.12 m (12% of the bone's 1 m"));
    // The muscle property as one line of JSON text (Blender's text field).
    Builder oneLine = gltf_test::muscleFile(json());
    oneLine.doc["nodes"][2]["extras"]["msxpbd_muscle"] = extras.dump();
    ASSERT_EQ(load(oneLine, s), "");
    EXPECT_EQ(s.desc.muscles.size(), 1u);
}

// A bone's collision mesh parented to the bone (Blender: a bone cannot hold
// a mesh, so the artist parents one to it with Ctrl+P > Bone, and it
// exports as a child node of the joint): the bone collides as that mesh,
// placed in the bone's frame, with no "no shape" warning (before, the bone
// fell back to a fat capsule to its first child — that mesh node — and the
// muscle beside it started inside the bone).
TEST(GltfCharacters, AMeshParentedToABoneIsItsShape) {
    const json extras = {{"origins", {0}}, {"insertions", {3}}, {"origin_bone", "bone"}, {"insertion_bone", "hand"},
                         {"contacts", {"bone"}}};
    Builder b = gltf_test::muscleFile(extras);
    b.doc["nodes"][0].erase("extras");
    const int shape = b.node({{"name", "bone mesh"}, {"mesh", 0}, {"translation", {0, -0.5, 0}}});
    b.doc["nodes"][0]["children"] = {1, shape};
    Scene s;
    ASSERT_EQ(load(b, s), "");
    EXPECT_FALSE(hasWarning(s, "node 0 'bone': no shape")) << (s.warnings.empty() ? "" : s.warnings[0]);
    const sim::BodyDesc* bone = nullptr;
    for (const sim::BodyDesc& d : s.desc.bodies)
        if (d.name == "bone") bone = &d;
    ASSERT_NE(bone, nullptr);
    ASSERT_FALSE(bone->triangles.empty());
    // The child's mesh (the tetrahedron) half a metre down the bone's frame.
    const Builder plain = gltf_test::muscleFile(extras);
    Scene m;
    ASSERT_EQ(load(plain, m), "");
    float bone_low = 1e30f, muscle_low = 1e30f;
    for (const glm::vec3& v : bone->vertices) bone_low = std::min(bone_low, v.y);
    for (const glm::vec3& v : m.desc.muscles[0].vertices) muscle_low = std::min(muscle_low, v.y);
    EXPECT_NEAR(bone_low, muscle_low - 0.5f, 1e-5f);
}

// Vertex sets that survive an editor's round trip: named marker nodes
// (Blender empties parented to the muscle) with a radius, in place of
// vertex indices an editor reorders.
TEST(GltfCharacters, MarkerNodesSelectTheVerticesAroundThem) {
    Builder b = gltf_test::muscleFile({{"origins", {{"marker", "origin marker"}, {"radius", 0.1}}},
                                       {"insertions", {{"marker", "insertion marker"}, {"radius", 0.1}}},
                                       {"origin_bone", "bone"},
                                       {"insertion_bone", "hand"}});
    // Children of the muscle node (at (0.5, 0, 0) in the world): the
    // tetrahedron's vertex 0 is at its origin, vertex 3 at (0, 0, 1).
    const int o = b.node({{"name", "origin marker"}, {"translation", {0.01, 0, 0}}});
    const int i = b.node({{"name", "insertion marker"}, {"translation", {0, 0.02, 1}}});
    b.doc["nodes"][2]["children"] = {o, i};
    Scene s;
    ASSERT_EQ(load(b, s), "");
    ASSERT_EQ(s.desc.muscles.size(), 1u);
    EXPECT_EQ(s.desc.muscles[0].origin_sets, (std::vector<std::vector<uint32_t>>{{0}}));
    EXPECT_EQ(s.desc.muscles[0].insertion_sets, (std::vector<std::vector<uint32_t>>{{3}}));
    // A marker that is not there is named.
    b.doc["nodes"][size_t(i)]["name"] = "renamed";
    const std::string e = load(b, s);
    EXPECT_NE(e.find("'insertions' 'marker': no node named 'insertion marker'"), std::string::npos) << e;
}

}  // namespace

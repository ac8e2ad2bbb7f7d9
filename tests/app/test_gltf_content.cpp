// `msxpbd run` on a character without muscles (issue 14): it says what it
// loaded, and `--json` reports the meshes, skins, animations and where the
// skinned geometry is at the final time, which a test (or a user) can check
// against the glTF skinning formula.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <glm/common.hpp>
#include <glm/gtc/constants.hpp>
#include <nlohmann/json.hpp>

#include "../engine/gltf_test_util.h"
#include "test_helpers.h"

namespace {

nlohmann::json runJson(const std::string& scene, int frames, std::string* output = nullptr) {
    const std::string out = test::tempPath("content.json");
    auto r = test::runCli("run --scene " + scene + " --frames " + std::to_string(frames) + " --json " + out);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    if (output) *output = r.output;
    std::ifstream f(out);
    nlohmann::json j = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(f), {}), nullptr, false);
    std::remove(out.c_str());
    return j;
}

void expectVec(const nlohmann::json& v, glm::vec3 e, const std::string& what) {
    ASSERT_TRUE(v.is_array() && v.size() == 3) << what << ": " << v.dump();
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(v[size_t(c)].get<double>(), e[c], 1e-5) << what << " [" << c << "]";
}

TEST(GltfContent, RunReportsTheSkinnedBoundsAtTheFinalTime) {
    const auto dir = gltf_test::tempDir("content");
    const std::string scene = (dir / "bar.glb").string();
    gltf_test::writeFile(scene, gltf_test::riggedBar().glb());
    // The bar's corners by the skinning formula, by hand: the levels y = 1
    // and 2 turn by θ about (0, 1, 0), the level y = 0 stays.
    auto expected = [](double theta, glm::dvec3& lo, glm::dvec3& hi) {
        lo = glm::dvec3(1e30);
        hi = glm::dvec3(-1e30);
        for (int level = 0; level < 3; ++level)
            for (double x : {-0.1, 0.1})
                for (double z : {-0.1, 0.1}) {
                    const double dy = level - 1.0, a = level == 0 ? 0.0 : theta;
                    const glm::dvec3 p = level == 0 ? glm::dvec3(x, 0, z)
                                                    : glm::dvec3(x * std::cos(a) - dy * std::sin(a),
                                                                 1.0 + x * std::sin(a) + dy * std::cos(a), z);
                    lo = glm::min(lo, p);
                    hi = glm::max(hi, p);
                }
    };
    // 15 and 27 frames of 1/30 s: J1 turned 45° and 81° (the clip's slerp).
    for (int frames : {15, 27}) {
        std::string text;
        const nlohmann::json j = runJson(scene, frames, &text);
        ASSERT_TRUE(j.contains("content")) << j.dump();
        const auto& c = j["content"];
        ASSERT_EQ(c["meshes"].size(), 1u);
        EXPECT_EQ(c["meshes"][0]["skinned"], true);
        EXPECT_EQ(c["meshes"][0]["vertices"], 12);
        EXPECT_EQ(c["skins"][0]["joints"], 2);
        EXPECT_EQ(c["animations"][0]["name"], "bend");
        EXPECT_DOUBLE_EQ(c["animations"][0]["duration"].get<double>(), 1.0);
        const double t = c["posed"]["time"].get<double>();
        EXPECT_NEAR(t, frames / 30.0, 1e-6);
        glm::dvec3 lo, hi;
        expected(t * glm::half_pi<double>(), lo, hi);
        expectVec(c["posed"]["bounds"]["min"], glm::vec3(lo), "min at frame " + std::to_string(frames));
        expectVec(c["posed"]["bounds"]["max"], glm::vec3(hi), "max at frame " + std::to_string(frames));
        // The human summary says what was loaded.
        EXPECT_NE(text.find("no muscles: loaded 1 mesh (1 skinned"), std::string::npos) << text;
        EXPECT_NE(text.find("1 animation (bend 1"), std::string::npos) << text;
    }
    std::filesystem::remove_all(dir);
}

TEST(GltfContent, AnAnimatedMorphWeightChangesTheReportedBounds) {
    gltf_test::Builder b;
    int pos = b.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
    b.doc["accessors"][size_t(pos)]["min"] = {0, 0, 0};
    b.doc["accessors"][size_t(pos)]["max"] = {1, 1, 0};
    int target = b.floats({0, 0, 1, 0, 0, 0, 0, 0, 0}, "VEC3", 3);
    b.doc["accessors"][size_t(target)]["min"] = {0, 0, 0};
    b.doc["accessors"][size_t(target)]["max"] = {0, 0, 1};
    int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", pos}}}, {"targets", {{{"POSITION", target}}}}}}}});
    b.node({{"name", "face"}, {"mesh", mesh}});
    int t_in = b.floats({0.0f, 2.0f}, "SCALAR", 1);
    b.doc["accessors"][size_t(t_in)]["min"] = {0};
    b.doc["accessors"][size_t(t_in)]["max"] = {2};
    int w_out = b.floats({0.0f, 1.0f}, "SCALAR", 1);
    b.doc["animations"] = gltf_test::json::array(
        {{{"name", "open"},
          {"samplers", {{{"input", t_in}, {"output", w_out}}}},
          {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}}}});
    const auto dir = gltf_test::tempDir("morph");
    const std::string scene = (dir / "face.glb").string();
    gltf_test::writeFile(scene, b.glb());
    // 0.5 s, 1 s, and 2.5 s (the 2 s clip looped: 0.5 s again).
    auto maxZ = [&](int frames) { return runJson(scene, frames)["content"]["posed"]["bounds"]["max"][2].get<double>(); };
    EXPECT_NEAR(maxZ(15), 0.25, 1e-5);
    EXPECT_NEAR(maxZ(30), 0.5, 1e-5);
    EXPECT_NEAR(maxZ(75), 0.25, 1e-5);
    std::filesystem::remove_all(dir);
}

}  // namespace

// A glTF character's base colour texture as a user sees it: a quad whose 2 × 2
// texture (red, green / blue, white, nearest filtering) is an external PNG
// next to the scene, drawn by `msxpbd view` and read back from the
// screenshot (issue 14).
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "../app/test_helpers.h"
#include "../engine/gltf_test_util.h"
#include "engine/gltf/image_decode.h"
#include "engine/render/png_writer.h"

namespace {

TEST(GltfTextures, ATexturedQuadShowsItsTexturesColoursInAScreenshot) {
    const auto dir = gltf_test::tempDir("texview");
    const std::vector<uint8_t> rgba = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    ASSERT_EQ(engine::render::writePng((dir / "checker.png").string(), 2, 2, rgba), "");
    gltf_test::writeFile(dir / "quad.gltf", gltf_test::texturedQuad("checker.png", gltf_test::readFile((dir / "checker.png").string())).gltf());
    // Straight at the quad (the eye on +z), the UI hidden.
    gltf_test::writeFile(dir / "front.json",
                         std::string(R"({"ui": false, "camera": {"target": [0, 0, 0], "distance": 3.2, "yaw": 0, "pitch": 0}})"));
    const std::string shot = (dir / "quad.png").string();
    auto r = test::runCli("view --scene " + (dir / "quad.gltf").string() + " --frames 3 --width 400 --height 400 --preset " +
                          (dir / "front.json").string() + " --screenshot " + shot);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    engine::DecodedImage im;
    const std::vector<uint8_t> png = gltf_test::readFile(shot);
    ASSERT_EQ(engine::decodeImage(png, im), "");
    ASSERT_EQ(im.width, 400);
    // The middle of each quarter of the quad (it covers about the middle
    // 60% of the image): which channel dominates, and by how much.
    auto at = [&](float fx, float fy) {
        const size_t i = (size_t(fy * float(im.height)) * size_t(im.width) + size_t(fx * float(im.width))) * 4;
        return glm::ivec3(im.rgba[i], im.rgba[i + 1], im.rgba[i + 2]);
    };
    const glm::ivec3 tl = at(0.38f, 0.38f), tr = at(0.62f, 0.38f), bl = at(0.38f, 0.62f), br = at(0.62f, 0.62f);
    auto dominant = [](glm::ivec3 c, int k) { return c[k] > c[(k + 1) % 3] + 60 && c[k] > c[(k + 2) % 3] + 60; };
    EXPECT_TRUE(dominant(tl, 0)) << "top-left should be red: " << tl.x << " " << tl.y << " " << tl.z;
    EXPECT_TRUE(dominant(tr, 1)) << "top-right should be green: " << tr.x << " " << tr.y << " " << tr.z;
    EXPECT_TRUE(dominant(bl, 2)) << "bottom-left should be blue: " << bl.x << " " << bl.y << " " << bl.z;
    EXPECT_TRUE(std::min({br.x, br.y, br.z}) > 120 && std::max({br.x, br.y, br.z}) - std::min({br.x, br.y, br.z}) < 40)
        << "bottom-right should be white (lit grey): " << br.x << " " << br.y << " " << br.z;
    std::filesystem::remove_all(dir);
}

}  // namespace

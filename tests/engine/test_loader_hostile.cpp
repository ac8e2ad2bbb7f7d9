// The glTF loader against hostile files (issue 30, section 4): what a file
// refers to outside its folder stays unknown, images over the size limit are
// refused with the limit, muscle meshes that are not one closed 2-manifold
// are refused with what is wrong, malformed JSON is one clean line.
#include <atomic>
#include <filesystem>
#include <set>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "engine/gltf/gltf_loader.h"
#include "engine/load_scene.h"
#include "engine/scene/scene.h"
#include "gltf_test_util.h"

using namespace engine;
using gltf_test::Builder;
using gltf_test::json;
namespace fs = std::filesystem;

namespace {

// The shared temporary folder; some tests lock outside/locked, which has to be
// opened again before the folder can be removed.
struct UnlockingTempDir : gltf_test::TempDir {
    using gltf_test::TempDir::TempDir;
    ~UnlockingTempDir() {
        std::error_code ec;
        fs::permissions(path / "outside" / "locked", fs::perms::owner_all, ec);
    }
};

using gltf_test::contains;

json minimalExtras() {
    return {{"origins", {{0}}},
            {"insertions", {{"near", {0, 0, 1}}, {"radius", 0.01}}},
            {"origin_bone", "bone"},
            {"insertion_bone", "hand"}};
}

// ---------------------------------------------------------------- 3. symlinks

// A symlink inside the scene's folder pointing outside: whatever lies (or does
// not lie) at the target, the loader says the same thing, so a scene cannot
// probe which paths exist outside its folder.
TEST(GltfLoaderHostile, SymlinksOutOfTheFolderGetOneMessageWhateverTheTarget) {
    UnlockingTempDir d("symlink");
    const fs::path scene = d.path / "scene", outside = d.path / "outside";
    fs::create_directories(scene);
    fs::create_directories(outside / "dir");
    fs::create_directories(outside / "locked");
    gltf_test::writeFile(outside / "file.bin", std::string(64, 'x'));
    gltf_test::writeFile(outside / "locked" / "file.bin", std::string(64, 'x'));
    ASSERT_EQ(::mkfifo((outside / "fifo").c_str(), 0600), 0);
    fs::permissions(outside / "locked", fs::perms::none);
    // Link targets (absolute and relative), and a path through a linked folder.
    struct Target {
        fs::path link_to;
        std::string uri;
    };
    const std::vector<Target> targets = {
        {outside / "file.bin", "link.bin"},        {outside / "missing.bin", "link.bin"},
        {outside / "dir", "link.bin"},             {outside / "fifo", "link.bin"},
        {outside / "locked" / "file.bin", "link.bin"}, {"/dev/zero", "link.bin"},
        {"../outside/file.bin", "link.bin"},       {"../outside/missing.bin", "link.bin"},
        {outside, "link.bin/file.bin"},            {outside, "link.bin/missing.bin"},
        {outside, "link.bin/dir"},                 {outside, "link.bin/locked/file.bin"},
        {"/nonexistent-dir", "link.bin/x.bin"},    {scene / "link.bin", "link.bin"},  // a loop
    };
    std::set<std::string> buffer_messages, image_messages;
    for (const Target& t : targets) {
        std::error_code ec;
        fs::remove(scene / "link.bin", ec);
        fs::create_symlink(t.link_to, scene / "link.bin");
        // As a buffer: the load fails.
        Builder b = gltf_test::muscleFile(minimalExtras());
        gltf_test::writeFile(scene / "s.gltf", b.gltf(t.uri));
        Scene s;
        std::string e = loadScene((scene / "s.gltf").string(), s);
        EXPECT_TRUE(contains(e, "buffer 0")) << t.link_to << " " << t.uri << ": " << e;
        EXPECT_FALSE(contains(e, outside.string())) << e;
        size_t at = e.find("buffer 0");
        buffer_messages.insert(e.substr(at == std::string::npos ? 0 : at));
        EXPECT_TRUE(contains(e, "its uri is refused")) << e;
        // As an image: a warning, the scene loads.
        Builder q = gltf_test::texturedQuad(t.uri, {});
        gltf_test::writeFile(scene / "q.glb", q.glb());
        e = loadScene((scene / "q.glb").string(), s);
        EXPECT_EQ(e, "") << t.link_to << " " << t.uri;
        std::string warnings;
        for (const std::string& w : s.warnings) warnings += w + "\n";
        EXPECT_FALSE(contains(warnings, outside.string())) << warnings;
        image_messages.insert(warnings);
    }
    EXPECT_EQ(buffer_messages.size(), 1u) << [&] {
        std::string all;
        for (const auto& m : buffer_messages) all += m + "\n";
        return all;
    }();
    EXPECT_EQ(image_messages.size(), 1u) << [&] {
        std::string all;
        for (const auto& m : image_messages) all += m + "\n";
        return all;
    }();
}

}  // namespace

namespace {

// ---------------------------------------------------------------- 4. image size

// The header of a PNG (signature + IHDR, no pixels) of w × h texels.
std::vector<uint8_t> pngHeader(uint32_t w, uint32_t h) {
    std::vector<uint8_t> b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    for (uint32_t v : {w, h})
        for (int k = 3; k >= 0; --k) b.push_back(uint8_t(v >> (8 * k)));
    b.insert(b.end(), {8, 6, 0, 0, 0, 0, 0, 0, 0});  // 8-bit RGBA, CRC (unchecked)
    return b;
}

// The header of a baseline JPEG (SOI + SOF0) of w × h texels.
std::vector<uint8_t> jpegHeader(uint16_t w, uint16_t h) {
    return {0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, uint8_t(h >> 8), uint8_t(h), uint8_t(w >> 8), uint8_t(w), 3,
            1,    0x22, 0,    2,    0x11, 1, 3, 0x11,          1};
}

}  // namespace

// An image over the documented limit (docs/scene-format.md, "Limits": 16 384
// texels a side) is refused with the limit, not as "unknown image type".
TEST(GltfLoaderHostile, ImagesOverTheSizeLimitAreRefusedWithTheLimit) {
    const std::vector<std::pair<std::string, std::vector<uint8_t>>> images = {
        {"png wide", pngHeader(20000, 1)}, {"png tall", pngHeader(1, 16385)}, {"png huge", pngHeader(1u << 30, 1u << 30)},
        {"jpeg wide", jpegHeader(20000, 8)}, {"jpeg tall", jpegHeader(8, 16385)}};
    for (const auto& [what, bytes] : images) {
        Scene s;
        EXPECT_EQ(loadGltfSceneFromMemory(gltf_test::texturedQuad("bufferView", bytes).glb(), "big.glb", ".", s), "");
        std::string warnings;
        for (const std::string& w : s.warnings) warnings += w + "\n";
        EXPECT_TRUE(contains(warnings, "the limit is 16384 texels a side")) << what << ": " << warnings;
        EXPECT_FALSE(contains(warnings, "unknown image type")) << what << ": " << warnings;
        EXPECT_TRUE(s.textures.empty()) << what;
    }
}

// ---------------------------------------------------------------- 5. muscle topology

namespace {

// The muscle of muscleFile() with its mesh replaced.
Builder muscleWithMesh(const std::vector<float>& pos, const std::vector<uint16_t>& idx) {
    Builder b = gltf_test::muscleFile(minimalExtras());
    const int p = b.floats(pos, "VEC3", 3);
    const int i = b.accessor(b.view(idx), 5123, idx.size(), "SCALAR");
    b.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = p;
    b.doc["meshes"][0]["primitives"][0]["indices"] = i;
    return b;
}

}  // namespace

// docs/scene-format.md: the mesh must be one closed, manifold surface. Every
// edge shared by two triangles is not enough: two closed parts touching at a
// vertex (a bow-tie) or apart are refused with what is wrong.
TEST(GltfLoaderHostile, MuscleMeshesThatAreNotOneClosedManifoldAreRefused) {
    const std::vector<float> tetra = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const std::vector<uint16_t> faces = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    auto shifted = [&](float dz, uint16_t first, std::vector<float>& pos, std::vector<uint16_t>& idx) {
        // A second tetrahedron dz above the first; its vertex 0 is `first`.
        std::vector<uint16_t> map = {first, 0, 0, 0};
        for (int v = (first == 0xFFFF ? 0 : 1); v < 4; ++v) {
            map[size_t(v)] = uint16_t(pos.size() / 3);
            pos.insert(pos.end(), {tetra[size_t(3 * v)], tetra[size_t(3 * v + 1)], tetra[size_t(3 * v + 2)] + dz});
        }
        for (uint16_t f : faces) idx.push_back(map[f]);
    };
    {  // Touching at one vertex: (0, 0, 1) is the first's apex and the second's base corner.
        std::vector<float> pos = tetra;
        std::vector<uint16_t> idx = faces;
        shifted(1.0f, 3, pos, idx);
        Scene s;
        std::string e = loadGltfSceneFromMemory(muscleWithMesh(pos, idx).glb(), "bowtie.glb", ".", s);
        EXPECT_TRUE(contains(e, "bowtie.glb: node 2 'muscle'")) << e;
        EXPECT_TRUE(contains(e, "vertex 3 joins two separate fans of triangles")) << e;
        EXPECT_TRUE(contains(e, "bow-tie")) << e;
    }
    {  // Apart.
        std::vector<float> pos = tetra;
        std::vector<uint16_t> idx = faces;
        shifted(2.0f, 0xFFFF, pos, idx);
        Scene s;
        std::string e = loadGltfSceneFromMemory(muscleWithMesh(pos, idx).glb(), "two.glb", ".", s);
        EXPECT_TRUE(contains(e, "two.glb: node 2 'muscle'")) << e;
        EXPECT_TRUE(contains(e, "2 separate closed parts")) << e;
    }
    {  // One closed part: loads.
        Scene s;
        EXPECT_EQ(loadGltfSceneFromMemory(muscleWithMesh(tetra, faces).glb(), "one.glb", ".", s), "");
    }
}

// ---------------------------------------------------------------- malformed JSON

// One clean line naming the file and the position, not the JSON library's
// exception text; a NUL byte is trailing garbage, not the end of the input.
TEST(GltfLoaderHostile, MalformedJsonIsOneLineWithThePosition) {
    Scene s;
    std::string text = "{\"asset\": {\"version\": \"2.0\"},\n \"nodes\": [oops]}";
    std::string e = loadGltfSceneFromMemory(std::vector<uint8_t>(text.begin(), text.end()), "bad.gltf", ".", s);
    EXPECT_TRUE(contains(e, "bad.gltf: not valid JSON at line 2, column 12")) << e;
    EXPECT_FALSE(contains(e, "json.exception") || contains(e, "parse_error")) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;

    text = std::string("{\"asset\": {\"version\": \"2.0\"}}\0garbage", 38);
    e = loadGltfSceneFromMemory(std::vector<uint8_t>(text.begin(), text.end()), "nul.gltf", ".", s);
    EXPECT_TRUE(contains(e, "nul.gltf: not valid JSON at line 1, column 30: a NUL byte")) << e;

    // Extras holding JSON as a string.
    json extras = minimalExtras();
    Builder b = gltf_test::muscleFile(extras);
    b.doc["nodes"][2]["extras"]["msxpbd_muscle"] = "{\"origins\": [[0]],, }";
    e = loadGltfSceneFromMemory(b.glb(), "extras.glb", ".", s);
    EXPECT_TRUE(contains(e, "extras.glb: node 2 'muscle'") && contains(e, "not valid JSON at line 1, column 19")) << e;
    EXPECT_FALSE(contains(e, "json.exception")) << e;
}

// The glTF loader's bounds (docs/scene-format.md, "Limits"): every class of
// input that used to crash, hang, exhaust memory, read outside the scene's
// folder or blow up the first solver step is refused with a message naming the
// file and the cause. GltfLoaderErrors.* (also run under ASan by scripts/asan)
// are the bad-input cases; GltfLoaderLimits.* measure peak memory (max RSS,
// meaningless under a sanitizer's allocator) and run the solver.
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <filesystem>
#include <thread>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "engine/gltf/gltf_input.h"
#include "engine/gltf/gltf_loader.h"
#include "engine/load_scene.h"
#include "engine/scene/scene.h"
#include "gltf_test_util.h"
#include "sim/simulation.h"
#include "sim/world.h"

using namespace engine;
using gltf_test::Builder;
using gltf_test::json;
namespace fs = std::filesystem;

namespace {

using gltf_test::TempDir;

long maxRssKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

using gltf_test::contains;

// One tetrahedron muscle under a capsule bone (as in test_gltf_loader.cpp).
using gltf_test::muscleFile;
using gltf_test::TetraMesh;

json extrasWithContacts() {
    return {{"origins", {{0}}},          {"insertions", {{"near", {0, 0, 1}}, {"radius", 0.01}}},
            {"origin_bone", "bone"},     {"insertion_bone", "hand"},
            {"contacts", {"bone"}},      {"stiffness", {{"fiber", 2000.0}, {"volume", "inf"}}}};
}

std::string load(const std::vector<uint8_t>& bytes, const std::string& name = "bad.glb",
                 const std::string& dir = ".") {
    Scene s;
    return loadGltfSceneFromMemory(bytes, name, dir, s);
}
std::string load(const std::string& text, const std::string& name = "bad.gltf", const std::string& dir = ".") {
    return load(std::vector<uint8_t>(text.begin(), text.end()), name, dir);
}

std::string deepJson(int depth) { return std::string(size_t(depth), '[') + std::string(size_t(depth), ']'); }

}  // namespace

// ---------------------------------------------------------------- JSON depth

TEST(GltfLoaderErrors, DeeplyNestedJsonIsRefusedBeforeAnyParser) {
    // 15 000 levels in extras overflowed the stack in tinygltf's recursive parser.
    Builder b = muscleFile(extrasWithContacts());
    b.doc["nodes"][1]["extras"] = json::object();
    std::string text = b.gltf();
    const std::string key = "\"name\": \"hand\"";
    size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos);
    text.insert(at, "\"deep\": " + deepJson(15000) + ", ");
    std::string e = load(text, "deep.gltf");
    EXPECT_TRUE(contains(e, "deep.gltf: JSON nested deeper than 64 levels")) << e;

    // The same in the JSON chunk of a .glb.
    Builder g = muscleFile(extrasWithContacts());
    std::vector<uint8_t> glb = g.glb();
    uint32_t json_len;
    std::memcpy(&json_len, glb.data() + 12, 4);
    std::string chunk(glb.begin() + 20, glb.begin() + 20 + json_len);
    chunk.insert(1, "\"deep\": " + deepJson(15000) + ", ");
    while (chunk.size() % 4) chunk.push_back(' ');
    const std::vector<uint8_t> bin_chunk(glb.begin() + 20 + json_len, glb.end());
    std::vector<uint8_t> out;
    auto u32 = [&](uint32_t v) {
        for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
    };
    for (char c : {'g', 'l', 'T', 'F'}) out.push_back(uint8_t(c));
    u32(2);
    u32(uint32_t(20 + chunk.size() + bin_chunk.size()));
    u32(uint32_t(chunk.size()));
    u32(0x4E4F534Au);
    out.insert(out.end(), chunk.begin(), chunk.end());
    out.insert(out.end(), bin_chunk.begin(), bin_chunk.end());
    e = load(out, "deep.glb");
    EXPECT_TRUE(contains(e, "deep.glb: JSON nested deeper than 64 levels")) << e;

    // And in an extras string holding JSON (parsed by the loader itself).
    json x = extrasWithContacts();
    e = load(muscleFile(x.dump().insert(1, "\"deep\": " + deepJson(100) + ", ")).glb(), "str.glb");
    EXPECT_TRUE(contains(e, "str.glb")) << e;
    EXPECT_TRUE(contains(e, "nested deeper than 64")) << e;

    // Brackets inside strings do not count; 64 levels are fine.
    EXPECT_EQ(gltf_input::scanJson("[\"[[[[\\\"[[[\"]").max_depth, 1);
    EXPECT_EQ(gltf_input::checkJsonBounds(deepJson(64)), "");
    EXPECT_NE(gltf_input::checkJsonBounds(deepJson(65)), "");
}

// ---------------------------------------------------------------- memory

TEST(GltfLoaderLimits, HugeAccessorCountsAreRefusedBeforeAllocating) {
    const long rss0 = maxRssKiB();
    // POSITION count 2^26 in a file of a few hundred bytes.
    Builder b = muscleFile(extrasWithContacts());
    b.doc["accessors"][0]["count"] = 1u << 26;
    std::string e = load(b.glb(), "count.glb");
    EXPECT_TRUE(contains(e, "count.glb")) << e;
    EXPECT_TRUE(contains(e, "accessor 0")) << e;
    // Just under the element cap: still refused by its byte range.
    b.doc["accessors"][0]["count"] = (1u << 24) - 1;
    e = load(b.glb(), "count.glb");
    EXPECT_TRUE(contains(e, "accessor 0") && contains(e, "out of range")) << e;
    // No bufferView (zeros): bounded by the decoded-bytes budget.
    b.doc["accessors"][0].erase("bufferView");
    e = load(b.glb(), "zeros.glb");
    EXPECT_TRUE(contains(e, "accessor 0") && contains(e, "budget")) << e;
    // inverseBindMatrices of 2^26 MAT4 (an 8 GiB request before).
    Builder s = muscleFile(extrasWithContacts());
    int ib = s.accessor(s.view(std::vector<float>(16, 1.0f)), 5126, size_t(1) << 26, "MAT4");
    int joints = s.accessor(s.view(std::vector<uint8_t>(16, 0)), 5121, 4, "VEC4");
    int weights = s.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", 4);
    s.doc["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = joints;
    s.doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = weights;
    s.doc["nodes"][2]["skin"] = 0;
    s.doc["skins"] = json::array({{{"joints", {0}}, {"inverseBindMatrices", ib}}});
    s.doc["nodes"][2]["extras"] = json::object();  // a skinned render mesh
    e = load(s.glb(), "ibm.glb");
    EXPECT_TRUE(contains(e, "ibm.glb")) << e;
    EXPECT_TRUE(contains(e, "accessor " + std::to_string(ib))) << e;
    // Peak memory stayed small (loosely: these files are under 1 kB).
    EXPECT_LT(maxRssKiB() - rss0, 256 * 1024);
}

TEST(GltfLoaderLimits, ChannelsSharingOneSamplerAreCountedEachTime) {
    // One sampler of 1M keys (16 MB of file) read by 40 channels: 1.28 GB decoded.
    Builder b = muscleFile(extrasWithContacts());
    const size_t n = 1u << 20;
    std::vector<float> t(n), v(3 * n, 0.0f);
    for (size_t k = 0; k < n; ++k) t[k] = float(k) * 0.001f;
    int in = b.floats(t, "SCALAR", 1);
    int out = b.floats(v, "VEC3", 3);
    json channels = json::array();
    for (int c = 0; c < 40; ++c) channels.push_back({{"sampler", 0}, {"target", {{"node", 1}, {"path", "translation"}}}});
    b.doc["animations"] = json::array({{{"samplers", {{{"input", in}, {"output", out}}}}, {"channels", channels}}});
    const long rss0 = maxRssKiB();
    std::string e = load(b.glb(), "shared.glb");
    EXPECT_TRUE(contains(e, "shared.glb")) << e;
    EXPECT_TRUE(contains(e, "budget")) << e;
    EXPECT_TRUE(contains(e, "animation 0 channel")) << e;
    // 64 MiB + 16 × 16 MB budget, plus the file: far below the 1.28 GB.
    EXPECT_LT(maxRssKiB() - rss0, 900 * 1024);
}

// One mesh read by many muscle nodes: each read is within the decoded budget,
// but the solver would allocate ~1.5 kB per vertex (GBs from a 0.7 MB file).
TEST(GltfLoaderLimits, ASharedMeshCannotMultiplyTheSimulation) {
    // A closed lat-long sphere: 2 poles + 99 rings of 200 (19 802 vertices).
    const int rings = 100, seg = 200;
    std::vector<float> p = {0, 1, 0, 0, -1, 0};
    for (int r = 1; r < rings; ++r)
        for (int k = 0; k < seg; ++k) {
            const double th = M_PI * r / rings, ph = 2 * M_PI * k / seg;
            p.insert(p.end(), {float(std::sin(th) * std::cos(ph)), float(std::cos(th)), float(std::sin(th) * std::sin(ph))});
        }
    auto ring = [&](int r, int k) { return uint16_t(2 + (r - 1) * seg + (k % seg)); };
    std::vector<uint16_t> idx;
    for (int k = 0; k < seg; ++k) {
        idx.insert(idx.end(), {0, ring(1, k + 1), ring(1, k)});
        idx.insert(idx.end(), {1, ring(rings - 1, k), ring(rings - 1, k + 1)});
    }
    for (int r = 1; r + 1 < rings; ++r)
        for (int k = 0; k < seg; ++k) {
            idx.insert(idx.end(), {ring(r, k), ring(r, k + 1), ring(r + 1, k)});
            idx.insert(idx.end(), {ring(r, k + 1), ring(r + 1, k + 1), ring(r + 1, k)});
        }
    auto build = [&](int muscles) {
        Builder b;
        int pos = b.floats(p, "VEC3", 3);
        int ind = b.accessor(b.view(idx), 5123, idx.size(), "SCALAR");
        int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", pos}}}, {"indices", ind}}}}});
        b.node({{"name", "bone"},
                {"extras", {{"msxpbd_body", {{"capsule", {{"a", {0, 0, 0}}, {"b", {0, -1, 0}}, {"radius", 0.05}}}}}}}});
        json roots = json::array({0});
        for (int m = 0; m < muscles; ++m) {
            std::string name = "m";
            name += std::to_string(m);  // ("m" + to_string: GCC 12's false -Wrestrict)
            roots.push_back(b.node({{"name", name},
                                    {"mesh", mesh},
                                    {"translation", {3.0 * m, 0, 0}},
                                    {"extras", {{"msxpbd_muscle", {{"origins", {{0}}}, {"insertions", {{1}}}}}}}}));
        }
        b.doc["scenes"] = json::array({{{"nodes", roots}}});
        return b.glb();
    };
    EXPECT_EQ(load(build(1), "one.glb"), "") << "a 20 k-vertex muscle loads";
    const std::vector<uint8_t> many = build(40);
    const long rss0 = maxRssKiB();
    const std::string e = load(many, "shared-mesh.glb");
    EXPECT_TRUE(contains(e, "shared-mesh.glb") && contains(e, "too large to simulate")) << e;
    EXPECT_LT(maxRssKiB() - rss0, 64 * long(many.size()) / 1024 + 256 * 1024);
}

TEST(GltfLoaderLimits, CountsReadFromExtrasAreCapped) {
    Builder b = muscleFile(extrasWithContacts());
    json planes = json::array();
    for (int i = 0; i < 1000; ++i) planes.push_back({{"origin", {0, 0, 0}}, {"normal", {0, 1, 0}}});
    b.doc["scenes"][0]["extras"]["msxpbd_scene"]["planes"] = planes;
    std::string e = load(b.glb(), "planes.glb");
    EXPECT_TRUE(contains(e, "planes.glb") && contains(e, "'planes' has 1000 entries; the limit is 16")) << e;

    json x = extrasWithContacts();
    x["contacts"] = json::array();
    for (int i = 0; i < 100; ++i) x["contacts"].push_back("bone");
    e = load(muscleFile(x).glb(), "targets.glb");
    EXPECT_TRUE(contains(e, "'contacts' has 100 entries")) << e;

    Builder n = muscleFile(extrasWithContacts());
    for (int i = 0; i < 70000; ++i) n.doc["nodes"].push_back(json::object());
    e = load(n.glb(), "nodes.glb");
    EXPECT_TRUE(contains(e, "'nodes' has 70003 entries; the limit is 65536")) << e;
}

// ---------------------------------------------------------------- files

TEST(GltfLoaderErrors, OnlyRegularFilesAreOpened) {
    TempDir d("files");
    Scene s;
    const fs::path fifo = d.path / "fifo.glb";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string e = loadScene(fifo.string(), s);  // used to block for ever
    EXPECT_TRUE(contains(e, "fifo.glb") && contains(e, "FIFO")) << e;
    fs::create_directories(d.path / "dir.glb");
    e = loadScene((d.path / "dir.glb").string(), s);
    EXPECT_TRUE(contains(e, "dir.glb") && contains(e, "directory")) << e;
    e = loadScene("/dev/zero", s);  // used to read until memory ran out
    EXPECT_TRUE(contains(e, "/dev/zero") && contains(e, "device")) << e;
    // A symlink to a regular file is followed.
    gltf_test::writeFile(d.path / "real.glb", muscleFile(extrasWithContacts()).glb());
    fs::create_symlink(d.path / "real.glb", d.path / "link.glb");
    EXPECT_EQ(loadScene((d.path / "link.glb").string(), s), "");
}

TEST(GltfLoaderErrors, BufferUrisMustStayInsideTheScenesFolder) {
    TempDir d("uris");
    const fs::path scene_dir = d.path / "scene";
    fs::create_directories(scene_dir / "sub");
    Builder b = muscleFile(extrasWithContacts());
    // An outside file whose size would match the buffer (so tinygltf would
    // have loaded it) and a second one with a telltale size.
    gltf_test::writeFile(d.path / "outside.bin", b.bin);
    gltf_test::writeFile(d.path / "secret.bin", std::vector<uint8_t>(7777, 1));
    const std::string cwd_name = "msxpbd_limits_cwd_" + std::to_string(::getpid()) + ".bin";
    gltf_test::writeFile(fs::current_path() / cwd_name, b.bin);
    const std::vector<std::string> refused = {"../outside.bin",
                                              "%2e%2e/outside.bin",
                                              "%2E%2E%2Foutside.bin",
                                              "sub/../../outside.bin",
                                              (d.path / "outside.bin").string(),
                                              "/etc/passwd",
                                              "../secret.bin",
                                              "..\\outside.bin",
                                              "C:/outside.bin",
                                              cwd_name};
    for (const std::string& uri : refused) {
        gltf_test::writeFile(scene_dir / "s.gltf", b.gltf(uri));
        Scene s;
        std::string e = loadScene((scene_dir / "s.gltf").string(), s);
        EXPECT_TRUE(contains(e, "s.gltf") && contains(e, "buffer 0")) << uri << ": " << e;
        EXPECT_FALSE(contains(e, "7777")) << uri << ": " << e;
        EXPECT_FALSE(contains(e, "/etc/passwd")) << uri << ": " << e;
        EXPECT_FALSE(contains(e, (d.path / "outside.bin").string())) << uri << ": " << e;
        EXPECT_FALSE(contains(e, "size mismatch")) << uri << ": " << e;
    }
    fs::remove(fs::current_path() / cwd_name);
    // A symlink inside the folder that points outside.
    fs::create_symlink(d.path / "outside.bin", scene_dir / "link.bin");
    gltf_test::writeFile(scene_dir / "s.gltf", b.gltf("link.bin"));
    Scene s;
    std::string e = loadScene((scene_dir / "s.gltf").string(), s);
    EXPECT_TRUE(contains(e, "outside the scene's folder")) << e;
    // A FIFO as buffer is refused, not waited on.
    ASSERT_EQ(::mkfifo((scene_dir / "fifo.bin").c_str(), 0600), 0);
    gltf_test::writeFile(scene_dir / "s.gltf", b.gltf("fifo.bin"));
    e = loadScene((scene_dir / "s.gltf").string(), s);
    EXPECT_TRUE(contains(e, "FIFO")) << e;
    // Inside the folder (also percent-encoded) is fine.
    gltf_test::writeFile(scene_dir / "sub" / "my file.bin", b.bin);
    for (const char* uri : {"sub/my%20file.bin", "./sub/my file.bin"}) {
        gltf_test::writeFile(scene_dir / "s.gltf", b.gltf(uri));
        EXPECT_EQ(loadScene((scene_dir / "s.gltf").string(), s), "") << uri;
    }
}

TEST(GltfLoaderErrors, ImageFilesAreNeverOpened) {
    TempDir d("images");
    Builder b = muscleFile(extrasWithContacts());
    gltf_test::writeFile(d.path / "s.bin", b.bin);
    // A FIFO as image: whoever opens it for reading lets a non-blocking writer
    // open succeed, which the watcher below detects (and so unblocks it).
    const fs::path fifo = d.path / "tex.png";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    b.doc["images"] = json::array({{{"uri", "tex.png"}}, {{"uri", "missing.png"}}, {{"uri", "../../etc/passwd"}},
                                   {{"uri", "/dev/zero"}}, {{"uri", "s.bin"}}});
    b.doc["textures"] = json::array({{{"source", 0}}});
    gltf_test::writeFile(d.path / "s.gltf", b.gltf("s.bin"));
    std::atomic<bool> done{false}, opened{false};
    std::string err = "not run";
    std::thread loader([&] {
        Scene s;
        err = loadScene((d.path / "s.gltf").string(), s);
        done = true;
    });
    while (!done) {
        int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0) {
            opened = true;
            ::close(fd);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    loader.join();
    EXPECT_EQ(err, "");
    EXPECT_FALSE(opened) << "the image FIFO was opened";
}

TEST(GltfLoaderErrors, UnsupportedRequiredExtensionsAreRefusedByName) {
    for (const char* ext : {"KHR_draco_mesh_compression", "EXT_meshopt_compression"}) {
        Builder b = muscleFile(extrasWithContacts());
        b.doc["extensionsUsed"] = json::array({ext});
        b.doc["extensionsRequired"] = json::array({ext});
        std::string e = load(b.glb(), "ext.glb");
        EXPECT_TRUE(contains(e, "ext.glb: requires extension " + std::string(ext))) << e;
        EXPECT_TRUE(contains(e, "does not support")) << e;
    }
    Builder b = muscleFile(extrasWithContacts());
    b.doc["extensionsRequired"] = json::array({"KHR_draco_mesh_compression"});
    EXPECT_TRUE(contains(load(b.glb(), "d.glb"), "(Draco)"));
    b.doc["extensionsRequired"] = json::array({"KHR_mesh_quantization"});
    EXPECT_EQ(load(b.glb(), "q.glb"), "");
}

// ---------------------------------------------------------------- values

TEST(GltfLoaderErrors, SingularAndOutOfRangeTransformsAreRefused) {
    struct Case {
        const char* what;
        json value;
        const char* expect;
    };
    const std::vector<Case> cases = {
        {"scale", {0, 1, 1}, "scale 0"},
        {"scale", {1e20, 1e20, 1e20}, "scale 1e+20"},
        {"matrix", json::array({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), "singular"},
        {"translation", {1e39, 0, 0}, "not finite"},
        {"translation", {1e30, 0, 0}, "out of range"},
        {"rotation", {0, 0, 0, 0}, "unit quaternion"},
        {"rotation", {0, 0, 0, 7}, "unit quaternion"},
    };
    for (const Case& c : cases) {
        Builder b = muscleFile(extrasWithContacts());
        b.doc["nodes"][0].erase("translation");
        b.doc["nodes"][0][c.what] = c.value;
        std::string e = load(b.glb(), "node.glb");
        EXPECT_TRUE(contains(e, "node.glb: node 0 'bone'")) << c.what << ": " << e;
        EXPECT_TRUE(contains(e, c.expect)) << c.what << ": " << e;
    }
    // Children inheriting an extreme product of scales: the world transform.
    Builder b = muscleFile(extrasWithContacts());
    b.doc["nodes"][0]["scale"] = {1e4, 1e4, 1e4};
    b.doc["nodes"][1]["scale"] = {1e4, 1e4, 1e4};
    std::string e = load(b.glb(), "world.glb");
    EXPECT_TRUE(contains(e, "node 1 'hand'") && contains(e, "world transform")) << e;
}

TEST(GltfLoaderErrors, PhysicalValuesAreCheckedAsTheFloatsTheyBecome) {
    struct Case {
        std::function<void(Builder&)> edit;
        const char* expect;
    };
    const std::vector<Case> cases = {
        {[](Builder& b) { b.doc["nodes"][0]["extras"]["msxpbd_body"]["capsule"]["radius"] = 1e30; }, "capsule 'radius'"},
        {[](Builder& b) { b.doc["nodes"][0]["extras"]["msxpbd_body"]["capsule"]["b"] = {0, 1e39, 0}; }, "capsule 'b'"},
        {[](Builder& b) { b.doc["scenes"][0]["extras"]["msxpbd_scene"]["planes"][0]["origin"] = {0, 1e30, 0}; },
         "plane 0 'origin'"},
        {[](Builder& b) { b.doc["scenes"][0]["extras"]["msxpbd_scene"]["planes"][0]["normal"] = {0, 1e-30, 0}; },
         "'normal' must not be zero"},
        {[](Builder& b) { b.doc["scenes"][0]["extras"]["msxpbd_scene"]["sliding_radius"] = 1e30; }, "'sliding_radius'"},
        {[](Builder& b) { b.doc["nodes"][2]["extras"]["msxpbd_muscle"]["stiffness"]["fiber"] = 1e-40; },
         "'stiffness.fiber' = 1e-40 is out of range"},
        {[](Builder& b) { b.doc["nodes"][2]["extras"]["msxpbd_muscle"]["stiffness"]["fiber"] = 1e39; },
         "'stiffness.fiber'"},
        {[](Builder& b) { b.doc["nodes"][2]["extras"]["msxpbd_muscle"]["density"] = 1e-40; }, "'density' = 1e-40"},
        {[](Builder& b) { b.doc["nodes"][2]["extras"]["msxpbd_muscle"]["insertions"]["radius"] = 1e30; }, "'radius'"},
        {[](Builder& b) {
             b.doc["nodes"][2]["extras"]["msxpbd_muscle"]["sensors"] = {{{"joint", "bone"}, {"angle_gain", 1e39}}};
         },
         "'angle_gain'"},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        Builder b = muscleFile(extrasWithContacts());
        cases[i].edit(b);
        std::string e = load(b.glb(), "value.glb");
        EXPECT_TRUE(contains(e, "value.glb: ")) << i << ": " << e;
        EXPECT_TRUE(contains(e, cases[i].expect)) << i << ": " << e;
    }
    // Vertex positions far away (a bone mesh scaled hugely) are refused too.
    Builder b = muscleFile(extrasWithContacts());
    std::vector<float> far = {0, 0, 0, 1e20f, 0, 0, 0, 1e20f, 0, 0, 0, 1e20f};
    int pos = b.floats(far, "VEC3", 3);
    b.doc["meshes"].push_back({{"primitives", {{{"attributes", {{"POSITION", pos}}}, {"indices", 1}}}}});
    b.doc["nodes"][0]["extras"] = json::object();
    b.doc["nodes"][0]["mesh"] = 1;
    std::string e = load(b.glb(), "far.glb");
    EXPECT_TRUE(contains(e, "far.glb: node 0 'bone'") && contains(e, "out of range")) << e;
}

// ---------------------------------------------------------------- messages

TEST(GltfLoaderErrors, InwardWoundMuscleSaysSo) {
    std::string e = load(muscleFile(extrasWithContacts(), TetraMesh::Inward).glb(), "inward.glb");
    EXPECT_TRUE(contains(e, "inward.glb: node 2 'muscle'")) << e;
    EXPECT_TRUE(contains(e, "wound inwards") && contains(e, "flip the winding")) << e;
    EXPECT_FALSE(contains(e, "not a closed manifold")) << e;
}

TEST(GltfLoaderErrors, InternalStructureErrorsArePrefixedOnce) {
    Scene s;
    ASSERT_EQ(loadGltfSceneFromMemory(muscleFile(extrasWithContacts()).glb(), "m.glb", ".", s), "");
    sim::SceneDesc d = s.desc;
    d.muscles[0].insertion_sets = {{0}};  // vertex 0 is also the origin
    sim::World w;
    std::string e = sim::buildWorld(d, w);
    EXPECT_TRUE(contains(e, "internal structure: ")) << e;
    EXPECT_FALSE(contains(e, "internal structure: internal structure")) << e;
}

// ---------------------------------------------------------------- contact grid

TEST(GltfLoaderLimits, ContactGridStaysBoundedWithAHugeBoneMesh) {
    // T5's 16 muscles (small triangles) plus a bone mesh of kilometre-sized
    // triangles: the grid's cells sized by the mean edge made each huge
    // triangle cover ~10^9 cells.
    Scene s;
    ASSERT_EQ(loadScene((fs::path(MSXPBD_SOURCE_DIR) / "assets" / "scenes" / "t5-arm-flexion.glb").string(), s), "");
    sim::BodyDesc big;
    big.name = "huge";
    big.vertices = {{100, 0, 0}, {9000, 0, 0}, {100, 9000, 0}, {100, 0, 9000}};
    big.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    s.desc.bodies.push_back(big);
    sim::TargetDesc t;
    t.kind = sim::TargetDesc::Kind::Body;
    t.index = int(s.desc.bodies.size()) - 1;
    s.desc.muscles[0].contact_targets.push_back(t);
    const long rss0 = maxRssKiB();
    sim::Simulation sim;
    ASSERT_EQ(sim.load(s.desc), "");
    std::vector<glm::mat4> frame;
    for (const auto& b : s.desc.bodies) frame.push_back(b.transform);
    sim.setBodyTransforms(frame);
    sim.stepFrame();
    sim.stepFrame();
    EXPECT_LT(maxRssKiB() - rss0, 512 * 1024);
}

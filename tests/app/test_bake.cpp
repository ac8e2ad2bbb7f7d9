// `msxpbd bake` (issue 13): what a user takes out of the program must be what
// the program simulated. Frame k read back from each format equals frame k of
// `run --frames k` to 1e-6 m; the .glb passes the Khronos validator; the .usda
// has the structure, counts and time codes USD tools expect; bad input ends
// with exit 1, a message naming the problem and no file left behind.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/run/bake.h"
#include "app/run/scene_driver.h"
#include "sim/skin_wrap.h"
#include "test_helpers.h"

namespace fs = std::filesystem;

namespace {

using test::asset;


using test::TempDir;

struct Muscle {
    std::string name;
    uint32_t first, count, triangles;
};

// Every muscle's surface positions after `frame` frames, as `run` computes
// them, and after them the drawn skin wrapped over them (sim/skin_wrap.h)
// as a mesh of its own, as `bake` writes it.
struct Reference {
    std::vector<Muscle> muscles;
    std::map<int, std::vector<glm::vec3>> x;  // frame → all particles
    double dt = 0.0;
};

Reference simulate(const std::string& scene, const std::vector<int>& frames) {
    Reference r;
    app::SceneDriver d;
    EXPECT_EQ(d.load(scene), "");
    const sim::World& w = d.sim().world();
    for (const auto& m : w.muscles) r.muscles.push_back({m.name, m.first, m.surface_count, m.tri_count});
    if (w.envelope.active())
        r.muscles.push_back({w.envelope.name, uint32_t(w.particles.size()), uint32_t(w.envelope.rest.size()),
                             uint32_t(w.envelope.triangles.size())});
    r.dt = d.params().frame_dt;
    const int last = *std::max_element(frames.begin(), frames.end());
    sim::SkinWrapScratch scratch;
    std::vector<glm::vec3> skin;
    for (int f = 1; f <= last; ++f) {
        EXPECT_TRUE(d.step().ok);
        if (std::find(frames.begin(), frames.end(), f) == frames.end()) continue;
        r.x[f] = w.particles.x;
        if (!w.envelope.active()) continue;
        sim::wrapSkin(w, w.particles.x, sim::kSkinWrapClearance, scratch, skin);
        r.x[f].insert(r.x[f].end(), skin.begin(), skin.end());
    }
    return r;
}

// --- A small .glb reader: a mesh's base POSITION plus its morph target k.
struct Glb {
    nlohmann::json doc;
    std::string bin;
    explicit Glb(const std::string& bytes) {
        uint32_t json_len = 0, bin_len = 0;
        EXPECT_EQ(bytes.substr(0, 4), "glTF");
        std::memcpy(&json_len, bytes.data() + 12, 4);
        doc = nlohmann::json::parse(bytes.substr(20, json_len));
        std::memcpy(&bin_len, bytes.data() + 20 + json_len, 4);
        bin = bytes.substr(28 + json_len, bin_len);
    }
    std::vector<glm::vec3> vec3s(int accessor) const {
        const auto& a = doc["accessors"][size_t(accessor)];
        const auto& v = doc["bufferViews"][a["bufferView"].get<size_t>()];
        const size_t stride = v.value("byteStride", 12);
        const size_t off = v.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0));
        std::vector<glm::vec3> out(a["count"].get<size_t>());
        for (size_t i = 0; i < out.size(); ++i) std::memcpy(&out[i], bin.data() + off + i * stride, 12);
        return out;
    }
    const nlohmann::json* mesh(const std::string& name) const {
        for (const auto& m : doc["meshes"])
            if (m["name"] == name) return &m;
        return nullptr;
    }
};

// --- A small .usda reader: stage metadata, the muscles' meshes and their samples.
struct Usda {
    std::map<std::string, std::string> meta;
    struct Mesh {
        size_t face_indices = 0;
        std::map<long long, std::vector<glm::vec3>> samples;
    };
    std::map<std::string, Mesh> muscles;  // by msxpbd:name
    size_t bones = 0;

    static std::vector<glm::vec3> points(const std::string& s, size_t& at) {
        std::vector<glm::vec3> out;
        at = s.find('[', at);
        const size_t end = s.find(']', at);
        for (size_t p = s.find('(', at); p < end; p = s.find('(', p + 1)) {
            glm::vec3 v;
            char* e = nullptr;
            v.x = std::strtof(s.c_str() + p + 1, &e);
            v.y = std::strtof(e + 1, &e);
            v.z = std::strtof(e + 1, &e);
            out.push_back(v);
        }
        at = end + 1;
        return out;
    }

    explicit Usda(const std::string& s) {
        EXPECT_EQ(s.rfind("#usda 1.0", 0), 0u);
        const std::string head = s.substr(0, s.find("\n)\n"));
        const std::regex line(R"((\w+) = ([^\n]+))");
        for (auto it = std::sregex_iterator(head.begin(), head.end(), line);
             it != std::sregex_iterator(); ++it)
            meta[(*it)[1]] = (*it)[2];
        for (size_t p = s.find("def Xform \"", s.find("def Scope \"Bones\"")); p < s.find("def Scope \"Muscles\"");
             p = s.find("def Xform \"", p + 1))
            ++bones;
        for (size_t p = s.find("def Mesh", s.find("def Scope \"Muscles\"")); p != std::string::npos;
             p = s.find("def Mesh", p + 1)) {
            const size_t q = s.find("msxpbd:name = \"", p) + 15;
            Mesh& mesh = muscles[s.substr(q, s.find('"', q) - q)];
            size_t f = s.find("faceVertexIndices = [", p);
            const std::string idx = s.substr(f, s.find(']', f) - f);
            mesh.face_indices = size_t(std::count(idx.begin(), idx.end(), ',')) + 1;
            size_t at = s.find("points.timeSamples = {", p);
            const size_t end = s.find("\n            }", at);
            for (size_t k = s.find('\n', at) + 1; k < end; k = s.find('\n', k) + 1) {
                const long long code = std::atoll(s.c_str() + k);
                size_t pos = k;
                mesh.samples[code] = points(s, pos);
                k = pos;
            }
        }
    }
};

double g_worst = 0.0;  // over one format's checks, printed with the test
double maxError(const std::vector<glm::vec3>& got, const std::vector<glm::vec3>& want, size_t first) {
    double e = 0.0;
    for (size_t i = 0; i < got.size(); ++i)
        for (int c = 0; c < 3; ++c) e = std::max(e, std::fabs(double(got[i][c]) - double(want[first + i][c])));
    g_worst = std::max(g_worst, e);
    return e;
}
void reportWorst(const char* format) {
    std::printf("round trip %s: largest difference from run %.3g m\n", format, g_worst);
    g_worst = 0.0;
}

// A shell command's exit code and output (stdout + stderr).
test::CliResult runShell(const std::string& cmd) {
    const std::string log = test::tempPath("shell.log");
    const int status = std::system((cmd + " > " + log + " 2>&1").c_str());
    std::string out = test::readFile(log);
    std::remove(log.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, out};
}

constexpr int kFrames = 12;

TEST(Bake, FrameKOfEachFormatIsFrameKOfRun) {
    const std::string scene = asset("t5-arm-flexion.glb");
    const std::vector<int> check = {1, kFrames / 2, kFrames};
    g_worst = 0.0;
    const Reference ref = simulate(scene, check);
    ASSERT_FALSE(ref.muscles.empty());
    TempDir dir("bake_roundtrip");

    // The run's hash at N: the bakes end on the same bits.
    auto run = test::runCli("run --scene " + scene + " --frames " + std::to_string(kFrames) + " --quiet --json " +
                            dir / "run.json");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto run_hash = nlohmann::json::parse(test::readFile(dir / "run.json"))["final"]["positions_hash"];
    for (const char* ext : {"glb", "pc2", "usda"}) {
        const std::string out = dir / (std::string("t5.") + ext);
        auto r = test::runCli("bake --scene " + scene + " --frames " + std::to_string(kFrames) + " --out " + out +
                              " --quiet --json " + out + ".json");
        ASSERT_EQ(r.exit_code, 0) << r.output;
        const auto j = nlohmann::json::parse(test::readFile(out + ".json"));
        EXPECT_EQ(j["final"]["positions_hash"], run_hash) << ext;
        EXPECT_EQ(j["frames"], kFrames) << ext;
        EXPECT_EQ(j["bake"]["frames"], kFrames) << ext;
    }

    // .glb: base (bind pose) + target k−1 (targets are frames 1..N).
    {
        Glb g(test::readFile(dir / "t5.glb"));
        size_t vertices = 0;
        for (const Muscle& m : ref.muscles) {
            const nlohmann::json* mesh = g.mesh(m.name);
            ASSERT_NE(mesh, nullptr) << m.name;
            const auto& prim = (*mesh)["primitives"][0];
            ASSERT_EQ(prim["targets"].size(), size_t(kFrames));
            EXPECT_TRUE(prim["attributes"].contains("NORMAL"));
            EXPECT_TRUE(prim["targets"][0].contains("NORMAL"));
            const auto base = g.vec3s(prim["attributes"]["POSITION"]);
            ASSERT_EQ(base.size(), m.count);
            vertices += base.size();
            for (int k : check) {
                const auto delta = g.vec3s(prim["targets"][size_t(k - 1)]["POSITION"]);
                std::vector<glm::vec3> p(base.size());
                for (size_t i = 0; i < p.size(); ++i) p[i] = base[i] + delta[i];
                EXPECT_LE(maxError(p, ref.x.at(k), m.first), 1e-6) << m.name << " frame " << k;
            }
        }
        // The weights animation: one key per frame, target k at full weight at key k.
        const auto& anim = g.doc["animations"][0];
        const auto& sampler = anim["samplers"][0];
        EXPECT_EQ(g.doc["accessors"][sampler["input"].get<size_t>()]["count"], kFrames);
        EXPECT_EQ(g.doc["accessors"][sampler["output"].get<size_t>()]["count"], kFrames * kFrames);
        EXPECT_GT(vertices, 1000u);
        reportWorst("glb");
    }
    // .pc2: header, then frame k as sample k−1 of every muscle's surface in turn.
    {
        const std::string pc2 = test::readFile(dir / "t5.pc2");
        ASSERT_GE(pc2.size(), 32u);
        EXPECT_EQ(std::memcmp(pc2.data(), "POINTCACHE2\0", 12), 0);
        int32_t version, points, samples;
        float start, rate;
        std::memcpy(&version, pc2.data() + 12, 4);
        std::memcpy(&points, pc2.data() + 16, 4);
        std::memcpy(&start, pc2.data() + 20, 4);
        std::memcpy(&rate, pc2.data() + 24, 4);
        std::memcpy(&samples, pc2.data() + 28, 4);
        EXPECT_EQ(version, 1);
        EXPECT_EQ(samples, kFrames);
        EXPECT_EQ(start, 1.0f);
        EXPECT_EQ(rate, 1.0f);
        size_t total = 0;
        for (const Muscle& m : ref.muscles) total += m.count;
        ASSERT_EQ(size_t(points), total);
        ASSERT_EQ(pc2.size(), 32 + size_t(samples) * total * 12);
        for (int k : check) {
            size_t at = 32 + size_t(k - 1) * total * 12;
            for (const Muscle& m : ref.muscles) {
                std::vector<glm::vec3> p(m.count);
                std::memcpy(p.data(), pc2.data() + at, m.count * 12);
                EXPECT_LE(maxError(p, ref.x.at(k), m.first), 1e-6) << m.name << " frame " << k;
                at += m.count * 12;
            }
        }
        // The rest mesh beside it: the same vertices in the same order.
        const std::string obj = test::readFile(dir / "t5.obj");
        EXPECT_EQ(size_t(std::count(obj.begin(), obj.end(), '\n')) > total, true);
        size_t vs = 0;
        for (size_t p = obj.find("\nv "); p != std::string::npos; p = obj.find("\nv ", p + 1)) ++vs;
        EXPECT_EQ(vs, total);
        reportWorst("pc2");
    }
    // .usda: structure, counts, time codes, positions.
    {
        Usda u(test::readFile(dir / "t5.usda"));
        EXPECT_EQ(u.meta["upAxis"], "\"Y\"");
        EXPECT_EQ(std::stod(u.meta["metersPerUnit"]), 1.0);
        EXPECT_NEAR(std::stod(u.meta["timeCodesPerSecond"]), 1.0 / ref.dt, 1e-6);
        EXPECT_EQ(u.meta["startTimeCode"], "1");
        EXPECT_EQ(u.meta["endTimeCode"], std::to_string(kFrames));
        EXPECT_GT(u.bones, 0u);
        ASSERT_EQ(u.muscles.size(), ref.muscles.size());
        for (const Muscle& m : ref.muscles) {
            ASSERT_TRUE(u.muscles.count(m.name)) << m.name;
            const Usda::Mesh& mesh = u.muscles.at(m.name);
            EXPECT_EQ(mesh.face_indices, size_t(m.triangles) * 3) << m.name;
            ASSERT_EQ(mesh.samples.size(), size_t(kFrames)) << m.name;
            EXPECT_EQ(mesh.samples.begin()->first, 1);
            EXPECT_EQ(mesh.samples.rbegin()->first, kFrames);
            for (int k : check) {
                ASSERT_EQ(mesh.samples.at(k).size(), m.count) << m.name;
                EXPECT_LE(maxError(mesh.samples.at(k), ref.x.at(k), m.first), 1e-6) << m.name << " frame " << k;
            }
        }
        reportWorst("usda");
    }
}

// --start: the frames before it are simulated, not written; the first
// written frame is the one ending at that time.
TEST(Bake, StartSkipsTheFramesBeforeIt) {
    const std::string scene = "builtin:t1";
    const Reference ref = simulate(scene, {9, 12});
    TempDir dir("bake_start");
    const std::string out = dir / "t1.pc2";
    auto r = test::runCli("bake --scene " + scene + " --start " + std::to_string(9 * ref.dt) +
                          " --frames 4 --quiet --out " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string pc2 = test::readFile(out);
    float start;
    int32_t samples;
    std::memcpy(&start, pc2.data() + 20, 4);
    std::memcpy(&samples, pc2.data() + 28, 4);
    EXPECT_EQ(start, 9.0f);
    EXPECT_EQ(samples, 4);
    const Muscle& m = ref.muscles[0];
    for (int k : {9, 12}) {
        std::vector<glm::vec3> p(m.count);
        std::memcpy(p.data(), pc2.data() + 32 + size_t(k - 9) * m.count * 12, m.count * 12);
        EXPECT_LE(maxError(p, ref.x.at(k), m.first), 1e-6) << "frame " << k;
    }
}

// The Khronos glTF-Validator (tools/validator, installed by scripts/setup) on
// a baked T6 (skinned skin, animated skeleton, morph targets), .glb and .gltf.
TEST(Bake, TheBakedGltfPassesTheKhronosValidator) {
    if (std::system("command -v node > /dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed (scripts/setup)";
    TempDir dir("bake_validator");
    for (const char* ext : {"glb", "gltf"}) {
        const std::string out = dir / (std::string("t6.") + ext);
        auto r = test::runCli("bake --scene " + asset("t6-arm-fighting.glb") + " --frames 4 --quiet --out " + out);
        ASSERT_EQ(r.exit_code, 0) << r.output;
        auto v = runShell("node " + std::string(MSXPBD_SOURCE_DIR) + "/tools/validator/validate.js " + out);
        if (v.exit_code == 77) GTEST_SKIP() << v.output;
        EXPECT_EQ(v.exit_code, 0) << v.output;
        EXPECT_NE(v.output.find(": 0 errors"), std::string::npos) << v.output;
    }
    EXPECT_TRUE(fs::exists(dir / "t6.bin")) << "a .gltf has its buffer beside it";
}

TEST(Bake, BadInputEndsWithAMessageAndNoFile) {
    TempDir dir("bake_bad"), folder("bake_bad_folder");
    fs::create_directories(folder / "named.glb");
    struct Case {
        std::string args, expect;
    };
    const std::string t1 = "bake --scene builtin:t1 ";
    const std::vector<Case> cases = {
        {t1 + "--frames 5 --out /nonexistent-folder/x.glb", "does not exist"},
        {t1 + "--frames 5 --out " + folder / "named.glb", "is a directory"},
        {t1 + "--frames 5 --out " + dir / "x.fbx", "unknown extension"},
        {t1 + "--frames 5 --out " + dir / "noextension", "unknown extension"},
        {t1 + "--frames 0 --out " + dir / "x.glb", "out of range"},
        {t1 + "--frames 2000000 --out " + dir / "x.glb", "out of range"},
        {t1 + "--frames many --out " + dir / "x.glb", "not an integer"},
        {t1 + "--frames 5 --start -1 --out " + dir / "x.glb", "out of range"},
        {t1 + "--out " + dir / "x.glb", "--frames N is required"},
        {"bake --scene /nonexistent/arm.glb --frames 5 --out " + dir / "x.usda", "arm.glb"},
        {t1 + "--frames 5 --animation 3 --out " + dir / "x.pc2", "animation"},
    };
    for (const Case& c : cases) {
        auto r = test::runCli(c.args);
        EXPECT_EQ(r.exit_code, 1) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.args << "\n" << r.output;
    }
    EXPECT_TRUE(dir.entries().empty()) << "left behind: " << dir.entries().front();
}

// A bake that stops part way (cancelled from the viewer, a NaN, a write
// error) leaves nothing: not the output, not a temporary.
TEST(Bake, AnInterruptedBakeLeavesNothingBehind) {
    TempDir dir("bake_cancel");
    for (const char* ext : {"glb", "gltf", "usda", "pc2"}) {
        app::BakeRequest q;
        q.scene = "builtin:t1";
        q.params.threads = 1;
        q.frames = 10;
        q.out = dir / (std::string("x.") + ext);
        int calls = 0;
        app::BakeResult r = app::bakeClip(q, [&](int64_t done, int64_t) {
            ++calls;
            return done < 6;
        });
        EXPECT_NE(r.error.find("cancelled"), std::string::npos) << r.error;
        EXPECT_EQ(calls, 6);
        EXPECT_TRUE(dir.entries().empty()) << ext << ": left behind " << dir.entries().front();
    }
    // The same request, not cancelled, writes the file and nothing else.
    app::BakeRequest q;
    q.scene = "builtin:t1";
    q.params.threads = 1;
    q.frames = 10;
    q.out = dir / "x.glb";
    app::BakeResult r = app::bakeClip(q);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"x.glb"});
}

}  // namespace

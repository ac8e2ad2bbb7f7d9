// The viewer's way out (issue 13): `view --record` writes one video frame per
// simulated frame at the requested size and the scene's frame rate (checked
// with ffprobe), says clearly when ffmpeg is missing, and the Export section
// bakes in the background, while the viewer keeps drawing, the same
// positions `run` computes.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../app/test_helpers.h"
#include "app/run/scene_driver.h"
#include "viewer_test_util.h"

namespace fs = std::filesystem;

namespace {


test::CliResult shell(const std::string& cmd) {
    const std::string log = test::tempPath("export_shell.log");
    const int status = std::system((cmd + " > " + log + " 2>&1").c_str());
    std::string out = test::readFile(log);
    std::remove(log.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, out};
}

bool have(const char* tool) { return shell(std::string("command -v ") + tool).exit_code == 0; }

TEST(Record, SixtyFramesGiveSixtyVideoFramesAtTheRequestedSize) {
    if (!have("ffmpeg") || !have("ffprobe")) GTEST_SKIP() << "ffmpeg is not installed (scripts/setup installs it)";
    const std::string scene = viewer_test::t5Scene();
    ASSERT_FALSE(scene.empty()) << "assets/scenes/t5-*.glb missing (msxpbd gen)";
    const std::string out = test::tempPath("record.mp4");
    std::remove(out.c_str());
    const std::string report = test::tempPath("record.json");
    auto r = test::runCli("view --scene " + scene + " --frames 60 --width 320 --height 180 --record " + out +
                          " --json " + report);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("60 frames"), std::string::npos) << r.output;
    // A video is drawn at full quality unless --fast-render says otherwise
    // (under Xvfb's llvmpipe "auto" would take the fast path).
    std::ifstream in(report);
    const auto j = nlohmann::json::parse(in, nullptr, false);
    ASSERT_TRUE(j.is_object() && j.contains("render")) << "no render object in " << report;
    EXPECT_EQ(j["render"]["path"], "full") << j["render"].dump();
    std::remove(report.c_str());
    auto probe = shell("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                       "stream=width,height,nb_read_frames,r_frame_rate -of json " + out);
    ASSERT_EQ(probe.exit_code, 0) << probe.output;
    const auto s = nlohmann::json::parse(probe.output)["streams"][0];
    EXPECT_EQ(s["nb_read_frames"], "60");
    EXPECT_EQ(s["width"], 320);
    EXPECT_EQ(s["height"], 180);
    app::SceneDriver d;
    ASSERT_EQ(d.load(scene), "");
    EXPECT_EQ(s["r_frame_rate"], std::to_string(int(std::lround(1.0 / d.params().frame_dt))) + "/1");
    std::remove(out.c_str());
}

TEST(Record, WithoutFfmpegTheRunIsRefusedWithTheReason) {
    const std::string out = test::tempPath("noffmpeg.mp4");
    auto r = shell("PATH=/nonexistent-folder " + std::string(MSXPBD_BINARY) +
                   " view --scene builtin:t1 --frames 5 --record " + out);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("needs ffmpeg"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out));
}

// The Export section: a bake runs on its own thread while the viewer draws,
// and the file holds the frames the simulation computes (`run`'s bits).
TEST(Export, BakesInTheBackgroundWhileTheViewerDraws) {
    const std::string scene = viewer_test::t5Scene();
    ASSERT_FALSE(scene.empty());
    auto v = viewer_test::openViewer(scene, 480, 300);
    ASSERT_TRUE(v);
    ASSERT_TRUE(v->runUntilSteps(1, 600.0));
    const fs::path dir = test::tempPath("export_dir");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string out = (dir / "arm.pc2").string();

    EXPECT_NE(v->actions().bake(out, 5, 2), "");                      // backwards
    EXPECT_NE(v->actions().bake((dir / "arm.fbx").string(), 1, 2), "");  // unknown format
    EXPECT_NE(v->actions().execute("bake /nonexistent-folder/a.glb 1 5"), "");
    ASSERT_EQ(v->actions().execute("bake " + out + " 1 20"), "");
    int drawn_while_baking = 0;
    auto end = std::chrono::steady_clock::now() + std::chrono::minutes(10);
    while (v->bakeJob().finished() == 0 && std::chrono::steady_clock::now() < end) {
        v->frame();
        if (v->bakeJob().running()) ++drawn_while_baking;
    }
    ASSERT_EQ(v->bakeJob().finished(), 1u);
    EXPECT_FALSE(v->bakeJob().failed()) << v->bakeJob().message();
    EXPECT_GE(drawn_while_baking, 1);

    app::SceneDriver d;
    ASSERT_EQ(d.load(scene), "");
    size_t total = 0;
    for (const auto& m : d.sim().world().muscles) total += m.surface_count;
    // After the muscles, the drawn skin that wraps them (sim/skin_wrap.h).
    total += d.sim().world().envelope.rest.size();
    for (int f = 0; f < 20; ++f) ASSERT_TRUE(d.step().ok);
    const std::string pc2 = test::readFile(out);
    ASSERT_EQ(pc2.size(), 32 + 20 * total * 12);
    size_t at = 32 + 19 * total * 12;
    for (const auto& m : d.sim().world().muscles) {
        EXPECT_EQ(std::memcmp(pc2.data() + at, &d.sim().world().particles.x[m.first], m.surface_count * 12), 0)
            << m.name << ": frame 20 differs from the simulation's";
        at += m.surface_count * 12;
    }
    EXPECT_TRUE(fs::exists(dir / "arm.obj"));
    fs::remove_all(dir);
}

}  // namespace

// `msxpbd view --frames N` as scripts and presenters use it: exactly N
// simulated frames, a reproducible image, the same report as `run --json`,
// and a quick, clear failure when the scene does not load.
#include <chrono>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../app/test_helpers.h"

namespace {

std::string asset(const std::string& file) { return std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/" + file; }


TEST(HeadlessView, TheSameSettingsGiveTheSameImageBytes) {
    const std::string a = test::tempPath("a.png"), b = test::tempPath("b.png");
    const std::string args = "view --scene " + asset("t5-arm-flexion.glb") + " --frames 12 --width 480 --height 300 --screenshot ";
    auto r1 = test::runCli(args + a);
    ASSERT_EQ(r1.exit_code, 0) << r1.output;
    auto r2 = test::runCli(args + b);
    ASSERT_EQ(r2.exit_code, 0) << r2.output;
    const std::string pa = test::readFile(a), pb = test::readFile(b);
    EXPECT_GT(pa.size(), 1000u);
    EXPECT_TRUE(pa == pb) << "two headless screenshots of the same run differ";
    EXPECT_NE(r1.output.find("frames 12 "), std::string::npos) << r1.output;
    std::remove(a.c_str());
    std::remove(b.c_str());
}

// The viewer runs with its default solver settings (SST) and the scene's
// own; all four modes through the sim thread: SimThreadMatchesRun.
TEST(HeadlessView, JsonReportMatchesRun) {
    {
        const std::string v = test::tempPath("view.json");
        const std::string r = test::tempPath("run.json");
        const std::string scene = asset("t6-arm-fighting.glb");
        auto rv = test::runCli("view --scene " + scene + " --frames 10 --width 320 --height 200 --json " + v);
        ASSERT_EQ(rv.exit_code, 0) << rv.output;
        auto rr = test::runCli("run --scene " + scene + " --frames 10 --quiet --json " + r);
        ASSERT_EQ(rr.exit_code, 0) << rr.output;
        auto jv = nlohmann::json::parse(test::readFile(v)), jr = nlohmann::json::parse(test::readFile(r));
        EXPECT_EQ(jv["frames"], 10);
        EXPECT_EQ(jv["final"]["positions_hash"], jr["final"]["positions_hash"]);
        EXPECT_EQ(jv["muscles"], jr["muscles"]);
        std::remove(v.c_str());
        std::remove(r.c_str());
    }
}

// It used to spin for 600 s before giving up: a CTest timeout catches a
// regression.
TEST(HeadlessView, ASceneThatDoesNotLoadEndsTheRunWithTheReason) {
    const std::string bad = test::tempPath("corrupt.glb");
    {
        std::ofstream f(bad, std::ios::binary);
        f << "glTF this is not a binary glTF file";
    }
    for (const std::string& scene : {bad, std::string("/nonexistent/arm.glb"), std::string("builtin:nosuch")}) {
        auto r = test::runCli("view --scene " + scene + " --frames 5 --screenshot " + test::tempPath("x.png"));
        EXPECT_EQ(r.exit_code, 1) << scene << ": " << r.output;
        EXPECT_NE(r.output.find(scene.substr(scene.find_last_of("/:") + 1)), std::string::npos) << r.output;
    }
    std::remove(bad.c_str());
}

// --realtime steps the sim at the scene's playback speed, as the window
// does: 90 frames of builtin:t1 (1/30 s each) take at least 3 s (flat out:
// under 1 s here), and end in the same state as the flat-out run. (A lower bound on
// the wall time only: a slow machine takes longer, never shorter.)
TEST(HeadlessView, RealtimePacesTheSimAndKeepsTheSameFrames) {
    const std::string a = test::tempPath("paced.json"), b = test::tempPath("flat.json");
    const std::string args = "view --scene builtin:t1 --frames 90 --width 160 --height 120 --json ";
    const auto t0 = std::chrono::steady_clock::now();
    auto paced = test::runCli(args + a + " --realtime");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(paced.exit_code, 0) << paced.output;
    auto flat = test::runCli(args + b);
    ASSERT_EQ(flat.exit_code, 0) << flat.output;
    EXPECT_GE(seconds, 2.95) << "90 frames at 30 per second";
    EXPECT_NE(paced.output.find("(real time)"), std::string::npos) << paced.output;
    EXPECT_NE(flat.output.find("(flat out)"), std::string::npos) << flat.output;
    auto jp = nlohmann::json::parse(test::readFile(a)), jf = nlohmann::json::parse(test::readFile(b));
    EXPECT_EQ(jp["render"]["sim_pace"], "real time");
    EXPECT_EQ(jf["render"]["sim_pace"], "flat out");
    EXPECT_EQ(jp["final"]["positions_hash"], jf["final"]["positions_hash"]) << "pacing changed the simulation";
    std::remove(a.c_str());
    std::remove(b.c_str());
}

}  // namespace
